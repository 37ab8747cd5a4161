/**
 * Artifacts of the command runner end to end, through the real server, in the real sandbox
 * (docs/decisions.md §Artifacts): a command writes files under /workspace/.artifacts/ and prints
 * `::artifact::` lines → the run's `artifacts`, the conversation's `artifact` events, getArtifact's signed
 * download URL and its bytes, downloadArtifact's redirect, the run-by-external-reference lookup, the
 * artifact_type filter, team isolation, expiry, republishing on a follow-up, and hostile directories.
 *
 * AGENT_COMMAND is `sh`: the prompt (stdin) is the script each test runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { ManualClock } from '../../src/clock';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';

type Json = any;

/** An 8-byte PNG signature plus a little more: enough for the server to call it an image. */
const PNG_PRINTF = String.raw`printf '\211PNG\r\n\032\n\000\000\000\rIHDR'`;

function client(server: TestServer, key: string) {
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${server.apiUrl}${p}`, {
      method,
      redirect: 'manual',
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as Json };
  };
  const waitForState = async (runId: string, states: string[]) => {
    const until = Date.now() + 20_000;
    for (;;) {
      const run = await call('GET', `/agent/runs/${runId}`);
      if (states.includes(run.body.state)) return run.body;
      if (Date.now() > until) throw new Error(`run ${runId} stayed ${run.body.state}`);
      await delay(50);
    }
  };
  const run = async (script: string, states = ['SUCCEEDED']) => {
    const created = await call('POST', '/agent/runs', { prompt: script });
    expect(created.status).toBe(200);
    return waitForState(created.body.run_id, states);
  };
  const events = async (runId: string) => {
    const conversation = await call('GET', `/agent/runs/${runId}/conversation`);
    // What the runner recorded (the prompt, the script itself, is the user's message).
    const blocks = conversation.body.steps.flatMap((s: Json) => s.messages.filter((m: Json) => m.role === 'assistant').flatMap((m: Json) => m.content));
    return {
      text: blocks
        .filter((b: Json) => b.type === 'text')
        .map((b: Json) => b.text)
        .join(''),
      published: blocks.filter((b: Json) => b.type === 'event' && b.name === 'artifact').map((b: Json) => b.data),
      rejected: blocks.filter((b: Json) => b.type === 'event' && b.name === 'artifact_rejected').map((b: Json) => b.data),
    };
  };
  return { call, run, waitForState, events };
}

describe.each(testDatabases())('command runner artifacts (%s)', (database) => {
  const clock = new ManualClock(new Date());
  let server: TestServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await startTestServer({
      database,
      clock,
      env: { RUNNER: 'command', AGENT_COMMAND: 'sh', ARTIFACT_MAX_BYTES: '4096', ARTIFACTS_PER_RUN: '8', ARTIFACTS_MAX_BYTES_PER_RUN: '10000' },
    });
    api = client(server, (await server.createTeamWithKey('artifacts', 'member')).apiKey);
  });
  afterAll(() => server?.close());

  const PUBLISHING_SCRIPT = [
    'mkdir -p .artifacts/shots',
    `printf '# Fix the login bug\\n\\n1. Reproduce\\n2. Patch\\n' > .artifacts/plan.md`,
    `printf 'all tests pass\\n' > .artifacts/report.md`,
    `printf '<script>alert(1)</script>' > .artifacts/page.html`,
    `${PNG_PRINTF} > .artifacts/shots/login.png`,
    'echo working',
    `echo '::artifact::{"artifact_type":"PULL_REQUEST","url":"https://git.example.com/acme/app/pull/7","branch":"fix-login"}'`,
    'echo still working',
    `echo '::artifact::{"artifact_type":"EXTERNAL_REFERENCE","url":"https://issues.example.com/ENG-42","reference_type":"linear_issue","title":"ENG-42"}'`,
  ].join('\n');

  it('publishes the lines as they appear and the directory when the command ends, each with its type, and keeps the lines out of the text', async () => {
    const run = await api.run(PUBLISHING_SCRIPT);
    expect(run.artifacts.map((a: Json) => [a.artifact_type, a.data.filepath ?? a.data.url])).toEqual([
      ['PULL_REQUEST', 'https://git.example.com/acme/app/pull/7'],
      ['EXTERNAL_REFERENCE', 'https://issues.example.com/ENG-42'],
      ['FILE', 'page.html'],
      ['PLAN', undefined],
      ['FILE', 'report.md'],
      ['SCREENSHOT', undefined],
    ]);
    const [pr, reference, page, plan, report, shot] = run.artifacts;
    expect(pr.data).toEqual({ url: 'https://git.example.com/acme/app/pull/7', branch: 'fix-login' });
    expect(reference.data).toEqual({ url: 'https://issues.example.com/ENG-42', reference_type: 'linear_issue', title: 'ENG-42' });
    expect(page.data).toMatchObject({ filename: 'page.html', mime_type: 'text/html', size_bytes: 25 });
    expect(plan.data).toEqual({
      artifact_uid: expect.any(String),
      document_uid: plan.data.artifact_uid,
      notebook_uid: plan.data.artifact_uid,
      title: 'Fix the login bug',
    });
    expect(report.data).toEqual({ artifact_uid: expect.any(String), filepath: 'report.md', filename: 'report.md', mime_type: 'text/markdown', size_bytes: 15 });
    expect(shot.data).toEqual({ artifact_uid: expect.any(String), mime_type: 'image/png' });

    const { text, published, rejected } = await api.events(run.run_id);
    expect(text).toBe('working\nstill working\n');
    expect(published).toEqual(run.artifacts);
    expect(rejected).toEqual([]);

    // The list answers the same artifacts.
    const listed = await api.call('GET', `/agent/runs?artifact_type=PLAN`);
    expect(listed.body.runs.find((r: Json) => r.run_id === run.run_id).artifacts).toEqual(run.artifacts);
  });

  it('getArtifact signs a download URL that needs no API key, serves the bytes as a download and a plan inline', async () => {
    const run = await api.run(PUBLISHING_SCRIPT);
    const [, , page, plan, report, shot] = run.artifacts;

    const file = await api.call('GET', `/agent/artifacts/${report.data.artifact_uid}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(file.body).toEqual({
      artifact_uid: report.data.artifact_uid,
      artifact_type: 'FILE',
      created_at: report.created_at,
      data: {
        download_url: expect.stringMatching(
          new RegExp(`^${server.apiUrl}/agent/artifacts/${report.data.artifact_uid}/content\\?token=team_[a-z0-9]+\\.\\d+\\.[A-Za-z0-9_-]{43}$`),
        ),
        expires_at: new Date((Math.floor(clock.now().getTime() / 1000) + 900) * 1000).toISOString(),
        content_type: 'text/markdown',
        filepath: 'report.md',
        filename: 'report.md',
        size_bytes: 15,
      },
    });
    const download = await fetch(file.body.data.download_url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('all tests pass\n');
    expect(download.headers.get('content-type')).toBe('text/markdown');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="report.md"');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-security-policy')).toContain('sandbox');

    // An HTML page the agent wrote is never served as a page.
    const html = await fetch((await api.call('GET', `/agent/artifacts/${page.data.artifact_uid}`)).body.data.download_url);
    expect(html.headers.get('content-type')).toBe('application/octet-stream');
    expect(await html.text()).toBe('<script>alert(1)</script>');

    const screenshot = await api.call('GET', `/agent/artifacts/${shot.data.artifact_uid}`);
    expect(screenshot.body).toMatchObject({ artifact_type: 'SCREENSHOT', data: { content_type: 'image/png', download_url: expect.any(String) } });
    const image = Buffer.from(await (await fetch(screenshot.body.data.download_url)).arrayBuffer());
    expect(image.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));

    const planned = await api.call('GET', `/agent/artifacts/${plan.data.artifact_uid}`);
    expect(planned.body).toEqual({
      artifact_uid: plan.data.artifact_uid,
      artifact_type: 'PLAN',
      created_at: plan.created_at,
      data: {
        document_uid: plan.data.artifact_uid,
        notebook_uid: plan.data.artifact_uid,
        title: 'Fix the login bug',
        content: '# Fix the login bug\n\n1. Reproduce\n2. Patch\n',
        content_type: 'text/markdown',
      },
    });

    // downloadArtifact redirects to a fresh signed URL (as Oz).
    const redirect = await api.call('GET', `/agent/artifacts/${report.data.artifact_uid}/download`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await (await fetch(redirect.headers.get('location')!)).text()).toBe('all tests pass\n');

    // Links have no bytes: nothing to get or download.
    const [pr] = run.artifacts;
    expect(pr.data.artifact_uid).toBeUndefined();
  });

  it('a download URL stops working when it expires, and cannot be moved to another artifact or altered', async () => {
    const run = await api.run(PUBLISHING_SCRIPT);
    const [, , page, , report] = run.artifacts;
    const url = new URL((await api.call('GET', `/agent/artifacts/${report.data.artifact_uid}`)).body.data.download_url);
    const token = url.searchParams.get('token')!;

    const moved = await fetch(`${server.apiUrl}/agent/artifacts/${page.data.artifact_uid}/content?token=${token}`);
    expect(moved.status).toBe(403);
    expect((await moved.json()).type).toBe('https://agent-runs.dev/errors/not_authorized');
    const tampered = token.replace(/\.(\d+)\./, (_m, s: string) => `.${Number(s) + 3600}.`);
    expect((await fetch(`${server.apiUrl}/agent/artifacts/${report.data.artifact_uid}/content?token=${tampered}`)).status).toBe(403);
    expect((await fetch(`${server.apiUrl}/agent/artifacts/${report.data.artifact_uid}/content?token=not-a-token`)).status).toBe(403);
    expect((await fetch(`${server.apiUrl}/agent/artifacts/${report.data.artifact_uid}/content`)).status).toBe(400);

    expect((await fetch(url)).status).toBe(200);
    clock.advance(899_000);
    expect((await fetch(url)).status).toBe(200);
    clock.advance(2_000);
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect((await expired.json()).detail).toContain(`GET /agent/artifacts/${report.data.artifact_uid}`);
  });

  it('finds the run by an external reference URL, and filters the list by artifact type', async () => {
    const publishing = await api.run(PUBLISHING_SCRIPT);
    const plain = await api.run('echo nothing to publish');
    expect(plain.artifacts).toEqual([]);

    const found = await api.call('GET', `/agent/run-by-external-reference?url=${encodeURIComponent('https://issues.example.com/ENG-42')}`);
    expect(found).toMatchObject({ status: 200, body: { run_id: publishing.run_id } });
    expect((await api.call('GET', `/agent/run-by-external-reference?url=${encodeURIComponent('https://issues.example.com/ENG-43')}`)).status).toBe(404);

    for (const type of ['PLAN', 'PULL_REQUEST', 'SCREENSHOT', 'FILE', 'EXTERNAL_REFERENCE']) {
      const ids = (await api.call('GET', `/agent/runs?artifact_type=${type}&limit=500`)).body.runs.map((r: Json) => r.run_id);
      expect(ids, type).toContain(publishing.run_id);
      expect(ids, type).not.toContain(plain.run_id);
    }
    const onlyLinks = await api.run(`echo '::artifact::{"artifact_type":"PULL_REQUEST","url":"https://git.example.com/p/1","branch":"b"}'`);
    const screenshots = (await api.call('GET', `/agent/runs?artifact_type=SCREENSHOT&limit=500`)).body.runs.map((r: Json) => r.run_id);
    expect(screenshots).not.toContain(onlyLinks.run_id);
    const pullRequests = (await api.call('GET', `/agent/runs?artifact_type=PULL_REQUEST&limit=500`)).body.runs.map((r: Json) => r.run_id);
    expect(pullRequests).toContain(onlyLinks.run_id);
  });

  it('keeps artifacts to their team: another team gets 404 for the artifact, its download and the reference, and never lists the run', async () => {
    const run = await api.run(PUBLISHING_SCRIPT);
    const [, , , , report] = run.artifacts;
    const other = client(server, (await server.createTeamWithKey('other-team', 'admin')).apiKey);
    expect((await other.call('GET', `/agent/artifacts/${report.data.artifact_uid}`)).status).toBe(404);
    expect((await other.call('GET', `/agent/artifacts/${report.data.artifact_uid}/download`)).status).toBe(404);
    expect((await other.call('GET', `/agent/run-by-external-reference?url=${encodeURIComponent('https://issues.example.com/ENG-42')}`)).status).toBe(404);
    expect((await other.call('GET', '/agent/runs?artifact_type=FILE')).body.runs).toEqual([]);
    expect((await other.call('GET', '/agent/artifacts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('a follow-up that runs again publishes changed and new files, not the unchanged ones', async () => {
    const first = await api.run(`mkdir -p .artifacts; echo one > .artifacts/a.txt; echo two > .artifacts/b.txt`);
    expect(first.artifacts.map((a: Json) => a.data.filepath)).toEqual(['a.txt', 'b.txt']);
    // The follow-up re-queues the finished run in the same transaction, so the wait sees it run again.
    expect(
      (await api.call('POST', `/agent/runs/${first.run_id}/followups`, { message: 'echo changed > .artifacts/b.txt; echo new > .artifacts/c.txt' })).status,
    ).toBe(200);
    const second = await api.waitForState(first.run_id, ['SUCCEEDED']);
    expect(second.artifacts.map((a: Json) => a.data.filepath)).toEqual(['a.txt', 'b.txt', 'b.txt', 'c.txt']);
    expect(second.artifacts[2].data.size_bytes).toBe(8);
  });

  it('refuses what breaks the rules, says why in the conversation, and publishes the rest', async () => {
    const run = await api.run(
      [
        `echo '::artifact::{"artifact_type":"PULL_REQUEST","url":"file:///etc/passwd","branch":"x"}'`,
        `echo '::artifact::{"artifact_type":"EXTERNAL_REFERENCE","url":"javascript:alert(1)","reference_type":"x"}'`,
        `echo '::artifact::{"artifact_type":"PULL_REQUEST","url":"https://user:pw@git.example.com/p/1","branch":"x"}'`,
        `echo '::artifact::{"artifact_type":"PULL_REQUEST","url":"https://git.example.com/p/1"}'`,
        `echo '::artifact::{"artifact_type":"FILE","filename":"x"}'`,
        `echo '::artifact::not json'`,
        `echo '  ::artifact:: is only a protocol line at the start of a line'`,
        'mkdir -p .artifacts',
        'echo fine > .artifacts/ok.txt',
      ].join('\n'),
    );
    expect(run.artifacts.map((a: Json) => a.data.filepath)).toEqual(['ok.txt']);
    const { text, rejected } = await api.events(run.run_id);
    expect(text).toBe('  ::artifact:: is only a protocol line at the start of a line\n');
    expect(rejected).toEqual([
      { reason: 'url must be http or https, not file', artifact_type: 'PULL_REQUEST' },
      { reason: 'url must be http or https, not javascript', artifact_type: 'EXTERNAL_REFERENCE' },
      { reason: 'url must not carry a user name or password', artifact_type: 'PULL_REQUEST' },
      { reason: 'branch is required', artifact_type: 'PULL_REQUEST' },
      { reason: expect.stringContaining('FILE, SCREENSHOT and PLAN artifacts are files written under /workspace/.artifacts/'), artifact_type: 'FILE' },
      { reason: 'the ::artifact:: line does not hold one JSON object' },
    ]);
  });

  it('never follows a link out of the workspace and bounds what it reads: symlinks, FIFOs, oversize, too many, too deep, odd names', async () => {
    const run = await api.run(
      [
        'mkdir -p .artifacts/deep/1/2/3/4/5/6/7/8',
        'echo too deep > .artifacts/deep/1/2/3/4/5/6/7/8/x.txt',
        'ln -s /etc/passwd .artifacts/passwd',
        'ln -s / .artifacts/root',
        'ln -s ../../../../../../etc/hostname .artifacts/hostname',
        'mkfifo .artifacts/fifo',
        'head -c 5000 /dev/zero > .artifacts/big.bin',
        `printf 'x' > "$(printf '.artifacts/bad\\tname')"`,
        'for i in 1 2 3 4 5 6 7 8 9; do echo $i > .artifacts/n$i.txt; done',
      ].join('\n'),
    );
    const published = run.artifacts.map((a: Json) => a.data.filepath);
    expect(published).toEqual(['n1.txt', 'n2.txt', 'n3.txt', 'n4.txt', 'n5.txt', 'n6.txt', 'n7.txt', 'n8.txt']);
    const { rejected } = await api.events(run.run_id);
    const why = Object.fromEntries(rejected.map((r: Json) => [r.filepath, r.reason]));
    expect(why).toMatchObject({
      'bad?name': 'the name holds control characters or is not valid UTF-8',
      'big.bin': 'is 5000 bytes, over the limit of 4096 (ARTIFACT_MAX_BYTES)',
      'deep/1/2/3/4/5/6/7/8': 'is nested deeper than 8 directories',
      fifo: 'is not a regular file',
      hostname: 'is a symbolic link (never followed)',
      passwd: 'is a symbolic link (never followed)',
      root: 'is a symbolic link (never followed)',
      'n9.txt': 'more than 8 files (ARTIFACTS_PER_RUN): not published',
    });
    // Whatever was published holds none of the host's files.
    for (const a of run.artifacts) {
      const bytes = await (await fetch((await api.call('GET', `/agent/artifacts/${a.data.artifact_uid}`)).body.data.download_url)).text();
      expect(bytes).toMatch(/^\d\n$/);
    }
  });

  it('stops reading a directory that holds more entries than ten per allowed artifact', async () => {
    const run = await api.run('mkdir -p .artifacts && cd .artifacts && for i in $(seq 1 100); do mkdir d$i; done; echo x > zz.txt');
    expect(run.artifacts).toEqual([]);
    expect((await api.events(run.run_id)).rejected).toEqual([
      { reason: 'the artifact directory holds more than 80 entries; the rest were not read', filepath: '.artifacts' },
    ]);
  });

  it('an artifact directory that is itself a link is not read', async () => {
    const run = await api.run('ln -s /etc .artifacts; echo done');
    expect(run.artifacts).toEqual([]);
    expect((await api.events(run.run_id)).rejected).toEqual([{ reason: 'is a symbolic link (never followed)', filepath: '.artifacts' }]);
  });

  it('bounds the bytes of a run over all its files', async () => {
    const run = await api.run('mkdir -p .artifacts; for i in 1 2 3; do head -c 4000 /dev/zero > .artifacts/f$i.bin; done');
    expect(run.artifacts.map((a: Json) => a.data.filepath)).toEqual(['f1.bin', 'f2.bin']);
    expect((await api.events(run.run_id)).rejected).toEqual([
      { reason: "the run's artifacts would hold more than 10000 bytes (ARTIFACTS_MAX_BYTES_PER_RUN)", artifact_type: 'FILE', filepath: 'f3.bin' },
    ]);
  });
});
