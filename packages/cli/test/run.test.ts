/**
 * `run`, `runs`, `artifacts`, `agents`, `models` and `environments` against a stub API, in-process
 * (support/cli.ts), and `run --wait`'s progress line on a terminal.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunProgress } from '../src/output';
import { CONVERSATION, problem, RUN_EVENTS, RUN_ID, runCli, runItem, sse, type StubAnswer, stubApiForFile } from './support/cli';

describe('run --wait progress on a terminal', () => {
  afterEach(() => vi.useRealTimers());

  it('redraws one line in place every second and on each new state, and leaves the last one', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    let now = 10_000;
    const progress = new RunProgress({ isTTY: true, write: (text: string) => written.push(text) }, 10_000, () => now);

    progress.start('run_1', 'QUEUED');
    now = 11_200;
    vi.advanceTimersByTime(1000);
    progress.update('INPROGRESS');
    progress.update('INPROGRESS');
    now = 13_900;
    progress.stop();

    expect(written).toEqual([
      'run_id: run_1\n',
      '\r\x1b[2Kstate: QUEUED  0s',
      '\r\x1b[2Kstate: QUEUED  1s',
      '\r\x1b[2Kstate: INPROGRESS  1s',
      '\r\x1b[2Kstate: INPROGRESS  3s\n',
    ]);
  });
});

describe('agent-runs against a stub API', () => {
  const stub = stubApiForFile();

  describe('run', () => {
    it('sends the prompt, --title, --name as config.name and --model as config.model_id, with the env API key', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['run', '--prompt', 'Triage the new issue', '--name', 'triage', '--model', 'gpt-x', '--title', 'T', '--json'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests).toHaveLength(1);
      const [request] = stub.requests;
      expect(request!.method).toBe('POST');
      expect(request!.path).toBe('/agent/runs');
      expect(request!.headers.authorization).toBe('Bearer ar_live_test');
      expect(request!.headers['idempotency-key']).toBeTruthy();
      expect(request!.body).toEqual({
        prompt: 'Triage the new issue',
        title: 'T',
        config: { name: 'triage', model_id: 'gpt-x' },
      });
      expect(JSON.parse(result.stdout)).toEqual({ run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' });
    });

    it('sends no config when neither --name nor --model is given, and prints run_id and state for people', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['run', '--prompt', 'hi'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.body).toEqual({ prompt: 'hi' });
      expect(result.stdout).toBe(`run_id:  ${RUN_ID}\nstate:   QUEUED\n`);
    });

    it('--api-key and --base-url override the environment', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['--api-key', 'ar_live_flag', '--base-url', stub.url, 'run', '--prompt', 'hi'], {
        AGENT_RUNS_API_KEY: 'ar_live_env',
        AGENT_RUNS_BASE_URL: 'http://127.0.0.1:9/api/v1',
      });

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.headers.authorization).toBe('Bearer ar_live_flag');
    });

    it('--wait creates the run, follows its events and prints the terminal run', async () => {
      stub.handler = (request) => {
        if (request.method === 'POST') return { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } };
        if (request.path.endsWith('/events')) return { text: RUN_EVENTS };
        if (request.path.endsWith('/conversation')) return { json: CONVERSATION };
        return { json: runItem() };
      };

      const json = await runCli(['run', '--prompt', 'hi', '--wait', '--json'], stub.env);
      const human = await runCli(['run', '--prompt', 'hi', '--wait'], stub.env);

      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ run_id: RUN_ID, state: 'SUCCEEDED' });
      expect(stub.requests.slice(0, 3).map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /agent/runs',
        `GET /agent/runs/${RUN_ID}/events`,
        `GET /agent/runs/${RUN_ID}`,
      ]);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^state:\s+SUCCEEDED$/m);
      expect(human.stdout).toMatch(/^name:\s+triage$/m);
      // The answer is the assistant's text of the conversation, after the run.
      expect(human.stdout).toMatch(/\n\nanswer:\necho: hi\n\nand more\n$/);
      expect(stub.requests.at(-1)!.path).toBe(`/agent/runs/${RUN_ID}/conversation`);
      // Not a terminal: the run id first, then one plain line per state (no carriage returns).
      expect(human.stderr).toMatch(new RegExp(`^run_id: ${RUN_ID}\nstate: QUEUED  \\d+s\nstate: INPROGRESS  \\d+s\nstate: SUCCEEDED  \\d+s\n$`));
      // With --json on pipes, stdout is the run's JSON alone and stderr stays empty.
      expect(json.stderr).toBe('');
    });

    it('--wait exits 3 when the run ends FAILED, printing its status', async () => {
      const failed = runItem({ state: 'FAILED', status_message: { message: 'model unreachable', error_code: 'model_error' } });
      stub.handler = (request) => {
        if (request.method === 'POST') return { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } };
        // No event stream: the CLI falls back to polling the run.
        if (request.path.endsWith('/events')) return problem(404, 'resource_not_found', 'No events.');
        if (request.path.endsWith('/conversation')) return { json: { conversation_id: 'conv_1', steps: [] } };
        return { json: failed };
      };

      const human = await runCli(['run', '--prompt', 'hi', '--wait'], stub.env);
      const json = await runCli(['run', '--prompt', 'hi', '--wait', '--json'], stub.env);

      expect(human.code).toBe(3);
      expect(human.stdout).toMatch(/^status:\s+model unreachable \(model_error\)$/m);
      expect(human.stdout).toMatch(/answer:\n\(no assistant text\)\n$/);
      expect(human.stderr).toMatch(/^state: FAILED {2}\d+s$/m);
      expect(json.code).toBe(3);
      expect(JSON.parse(json.stdout)).toMatchObject({ state: 'FAILED' });
    });

    it('runs create is run under another name: same flags, same request', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['runs', 'create', '--prompt', 'hi', '--model', 'gpt-x', '--title', 'T'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: '/agent/runs',
        body: { prompt: 'hi', title: 'T', config: { model_id: 'gpt-x' } },
      });
      expect(result.stdout).toBe(`run_id:  ${RUN_ID}\nstate:   QUEUED\n`);
    });

    it('without --prompt or --skill is a usage error (exit 1), and sends nothing', async () => {
      const result = await runCli(['run', '--name', 'x'], stub.env);

      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: give --prompt, --skill or both');
      expect(stub.requests).toHaveLength(0);
    });

    it('--skill alone starts a skill-only run; --environment selects the environment', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['run', '--skill', 'acme/skills:skills/triage/SKILL.md', '--environment', 'env_01hzx'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: '/agent/runs',
        body: { skill: 'acme/skills:skills/triage/SKILL.md', config: { environment_id: 'env_01hzx' } },
      });
      expect(stub.requests[0]!.body).not.toHaveProperty('prompt');
    });
  });

  describe('runs', () => {
    it('list repeats --state as repeated state= parameters and passes --name and --limit', async () => {
      const page = { runs: [runItem()], page_info: { has_next_page: false, next_cursor: null } };
      stub.handler = () => ({ json: page });

      const result = await runCli(['runs', 'list', '--state', 'QUEUED', '--state', 'inprogress', '--name', 'triage', '--limit', '5', '--json'], stub.env);

      expect(result.code).toBe(0);
      const [request] = stub.requests;
      expect(request!.method).toBe('GET');
      expect(request!.path).toBe('/agent/runs');
      expect(request!.query.getAll('state')).toEqual(['QUEUED', 'INPROGRESS']);
      expect(request!.query.get('name')).toBe('triage');
      expect(request!.query.get('limit')).toBe('5');
      expect(JSON.parse(result.stdout)).toEqual(page);
    });

    it('list prints an aligned table for people, with the cursor of the next page', async () => {
      const other = '0b6a1c9e-2f44-4d1b-9c3e-5a7b8c9d0e1f';
      stub.handler = () => ({
        json: {
          runs: [runItem(), runItem({ run_id: other, task_id: other, state: 'INPROGRESS', title: 'Short', agent_config: undefined })],
          page_info: { has_next_page: true, next_cursor: 'cur_2' },
        },
      });

      const result = await runCli(['runs', 'list'], stub.env);

      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toEqual([
        'RUN ID                                STATE       NAME    UPDATED               TITLE',
        `${RUN_ID}  SUCCEEDED   triage  2026-05-01 12:00:05Z  Triage the new issue`,
        `${other}  INPROGRESS          2026-05-01 12:00:05Z  Short`,
        'more: pass --cursor cur_2',
      ]);
    });

    it('list rejects an unknown --state before sending anything', async () => {
      const result = await runCli(['runs', 'list', '--state', 'DONE'], stub.env);

      expect(result.code).toBe(1);
      expect(result.stderr).toContain("'DONE' is not a run state");
      expect(stub.requests).toHaveLength(0);
    });

    it('get of an unknown run exits 1 with the status, code, detail and trace id on stderr', async () => {
      stub.handler = () => problem(404, 'resource_not_found', `Run ${RUN_ID} not found.`);

      const result = await runCli(['runs', 'get', RUN_ID], stub.env);

      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`error: 404 resource_not_found: Run ${RUN_ID} not found.`);
      expect(result.stderr).toContain('trace id: req_trace_42');
      expect(stub.requests[0]!.path).toBe(`/agent/runs/${RUN_ID}`);
    });

    it('get prints the run as label: value lines', async () => {
      stub.handler = () => ({ json: runItem({ status_message: { message: 'done' } }) });

      const result = await runCli(['runs', 'get', RUN_ID], stub.env);

      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^run_id:\\s+${RUN_ID}$`, 'm'));
      expect(result.stdout).toMatch(/^status:\s+done$/m);
      expect(result.stdout).toMatch(/^model_id:\s+gpt-x$/m);
    });

    it("get shows a BLOCKED run's question and how to answer it; answer posts the follow-up", async () => {
      const blocked = runItem({ state: 'BLOCKED', status_message: { message: 'Which branch?' } });
      stub.handler = (request) => (request.method === 'POST' ? { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } } : { json: blocked });

      const shown = await runCli(['runs', 'get', RUN_ID], stub.env);
      const answered = await runCli(['runs', 'answer', RUN_ID, 'main, please', '--json'], stub.env);

      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/^question:\s+Which branch\?$/m);
      expect(shown.stdout).not.toMatch(/^status:/m);
      expect(shown.stdout).toContain(`the run waits for your answer: agent-runs runs answer ${RUN_ID} "<answer>"`);
      expect(answered.code).toBe(0);
      expect(stub.requests.at(-1)).toMatchObject({ method: 'POST', path: `/agent/runs/${RUN_ID}/followups`, body: { message: 'main, please' } });
      expect(JSON.parse(answered.stdout)).toMatchObject({ state: 'QUEUED' });
    });

    it('run --wait stops at BLOCKED with the question and exits 4; runs answer --wait follows the run again', async () => {
      let answered = false;
      const blocked = runItem({ state: 'BLOCKED', status_message: { message: 'Which branch?' } });
      stub.handler = (request) => {
        if (request.method === 'POST') {
          answered = request.path.endsWith('/followups');
          return { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } };
        }
        if (request.path.endsWith('/events')) {
          return {
            text: answered ? RUN_EVENTS : sse([{ id: 1, event: 'state', data: { run_id: RUN_ID, state: 'BLOCKED', updated_at: '2026-05-01T12:00:01Z' } }]),
          };
        }
        if (request.path.endsWith('/conversation')) return { json: CONVERSATION };
        return { json: answered ? runItem() : blocked };
      };

      const waited = await runCli(['run', '--prompt', 'hi', '--wait'], stub.env);
      const resumed = await runCli(['runs', 'answer', RUN_ID, 'main', '--wait'], stub.env);

      expect(waited.code).toBe(4);
      expect(waited.stdout).toMatch(/^question:\s+Which branch\?$/m);
      expect(waited.stdout).toMatch(/the run waits for your answer: agent-runs runs answer \S+ "<answer>"\n$/);
      expect(waited.stderr).toMatch(/^state: BLOCKED {2}\d+s$/m);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toMatch(/^state:\s+SUCCEEDED$/m);
      expect(resumed.stdout).toMatch(/\n\nanswer:\necho: hi/);
    });

    it('followup posts {message} to the run', async () => {
      stub.handler = () => ({ json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } });

      const result = await runCli(['runs', 'followup', RUN_ID, '--message', 'also check labels', '--json'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: `/agent/runs/${RUN_ID}/followups`,
        body: { message: 'also check labels' },
      });
      expect(JSON.parse(result.stdout)).toMatchObject({ state: 'QUEUED' });
    });

    it('cancel posts to /cancel and prints the answer; a 409 exits 1 with its detail', async () => {
      stub.handler = () => ({ json: RUN_ID });
      const ok = await runCli(['runs', 'cancel', RUN_ID, '--json'], stub.env);
      stub.handler = () => problem(409, 'conflict', 'Run is SUCCEEDED and cannot be cancelled.');
      const conflict = await runCli(['runs', 'cancel', RUN_ID], stub.env);

      expect(ok.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'POST', path: `/agent/runs/${RUN_ID}/cancel` });
      expect(JSON.parse(ok.stdout)).toBe(RUN_ID);
      expect(conflict.code).toBe(1);
      expect(conflict.stderr).toContain('error: 409 conflict: Run is SUCCEEDED and cannot be cancelled.');
      // x-should-retry: false → one attempt only.
      expect(stub.requests).toHaveLength(2);
    });

    it('watch prints one line per event until the terminal state', async () => {
      stub.handler = () => ({ text: RUN_EVENTS });

      const result = await runCli(['runs', 'watch', RUN_ID], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.path).toBe(`/agent/runs/${RUN_ID}/events`);
      expect(stub.requests[0]!.headers.accept).toBe('text/event-stream');
      expect(result.stdout.trimEnd().split('\n')).toEqual([
        '2026-05-01 12:00:01Z  state  INPROGRESS',
        '2026-05-01 12:00:02Z  assistant  text  echo: hi',
        '2026-05-01 12:00:03Z  state  SUCCEEDED',
      ]);
    });

    it('watch --json prints one JSON object per line, and --after resumes with Last-Event-ID', async () => {
      stub.handler = () => ({ text: RUN_EVENTS });

      const result = await runCli(['runs', 'watch', RUN_ID, '--after', '7', '--json'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.headers['last-event-id']).toBe('7');
      const events = result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events.map((e) => [e.id, e.event])).toEqual([
        ['1', 'state'],
        ['2', 'content'],
        ['3', 'state'],
      ]);
      expect(events[2].data.state).toBe('SUCCEEDED');
    });
  });

  describe('artifacts', () => {
    const ART = '9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
    const ARTIFACTS = [
      { artifact_type: 'PULL_REQUEST', created_at: '2026-05-01T12:00:03Z', data: { url: 'https://git.example.com/a/pull/7', branch: 'fix-login' } },
      {
        artifact_type: 'FILE',
        created_at: '2026-05-01T12:00:04Z',
        data: { artifact_uid: ART, filepath: 'reports/summary.md', filename: 'summary.md', mime_type: 'text/markdown', size_bytes: 12 },
      },
    ];

    it("runs get lists the run's artifacts with their uids and links", async () => {
      stub.handler = () => ({ json: runItem({ artifacts: ARTIFACTS }) });

      const result = await runCli(['runs', 'get', RUN_ID], stub.env);

      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        `\nartifacts:\n  PULL_REQUEST  https://git.example.com/a/pull/7  branch fix-login\n  FILE  ${ART}  reports/summary.md  12 bytes\n`,
      );
    });

    it('runs list --artifact-type filters by type, and refuses an unknown one before any request', async () => {
      stub.handler = () => ({ json: { runs: [], page_info: { has_next_page: false, next_cursor: null } } });
      expect((await runCli(['runs', 'list', '--artifact-type', 'screenshot'], stub.env)).code).toBe(0);
      expect(stub.requests[0]!.query.get('artifact_type')).toBe('SCREENSHOT');

      const wrong = await runCli(['runs', 'list', '--artifact-type', 'diagram'], stub.env);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain("'diagram' is not an artifact type");
      expect(stub.requests).toHaveLength(1);
    });

    it('get shows a file with its signed URL, and a plan with its Markdown', async () => {
      const url = `http://localhost:8080/api/v1/agent/artifacts/${ART}/content?token=team_x.1.sig`;
      stub.handler = () => ({
        json: {
          artifact_uid: ART,
          artifact_type: 'FILE',
          created_at: '2026-05-01T12:00:04Z',
          data: {
            download_url: url,
            expires_at: '2026-05-01T12:15:04Z',
            content_type: 'text/markdown',
            filepath: 'reports/summary.md',
            filename: 'summary.md',
            size_bytes: 12,
          },
        },
      });
      const file = await runCli(['artifacts', 'get', ART], stub.env);
      expect(file.code).toBe(0);
      expect(stub.requests[0]!.path).toBe(`/agent/artifacts/${ART}`);
      expect(file.stdout).toMatch(/^artifact_type:\s+FILE$/m);
      expect(file.stdout).toMatch(new RegExp(`^download_url:\\s+${url.replace(/[.?]/g, '\\$&')}$`, 'm'));

      stub.handler = () => ({
        json: {
          artifact_uid: ART,
          artifact_type: 'PLAN',
          created_at: '2026-05-01T12:00:04Z',
          data: { document_uid: ART, notebook_uid: ART, title: 'Next steps', content: '# Next steps\n- ship\n', content_type: 'text/markdown' },
        },
      });
      const plan = await runCli(['artifacts', 'get', ART], stub.env);
      expect(plan.stdout).toMatch(/^title:\s+Next steps$/m);
      expect(plan.stdout).toContain('\n\n# Next steps\n- ship\n');
    });

    it('download follows the redirect, saves under the served file name, never overwrites without --force', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-artifact-'));
      try {
        stub.handler = (request): StubAnswer =>
          request.path.endsWith('/download')
            ? { status: 302, headers: { location: `${stub.url}/agent/artifacts/${ART}/content?token=t` } }
            : {
                status: 200,
                headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="../../summary.md"' },
                text: '# Summary\n',
              };

        const saved = await runCli(['artifacts', 'download', ART], stub.env, dir);
        expect(saved.code).toBe(0);
        expect(saved.stderr).toBe('wrote summary.md\n');
        expect(await readFile(path.join(dir, 'summary.md'), 'utf8')).toBe('# Summary\n');
        expect(stub.requests.map((r) => r.path)).toEqual([`/agent/artifacts/${ART}/download`, `/agent/artifacts/${ART}/content`]);

        const again = await runCli(['artifacts', 'download', ART], stub.env, dir);
        expect(again.code).toBe(1);
        expect(again.stderr).toContain('summary.md exists: pass --force');
        expect((await runCli(['artifacts', 'download', ART, '--force'], stub.env, dir)).code).toBe(0);

        const piped = await runCli(['artifacts', 'download', ART, '--output', '-'], stub.env, dir);
        expect(piped.stdout).toBe('# Summary\n');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('agents, models, environments, transcript', () => {
    it('agents passes --repo, --sort-by and --include-malformed and prints one row per variant', async () => {
      stub.handler = () => ({
        json: {
          agents: [
            {
              name: 'triage',
              variants: [
                {
                  id: 'acme/skills:skills/triage/SKILL.md',
                  description: 'Triage an issue',
                  base_prompt: 'Label it.',
                  source: { owner: 'acme', name: 'skills', skill_path: 'skills/triage/SKILL.md' },
                  environments: [],
                  last_run_timestamp: null,
                },
                {
                  id: 'acme/tools:triage/SKILL.md',
                  description: '',
                  base_prompt: '',
                  error: 'the front matter is not a YAML mapping',
                  source: { owner: 'acme', name: 'tools', skill_path: 'triage/SKILL.md' },
                  environments: [],
                  last_run_timestamp: null,
                },
              ],
            },
          ],
        },
      });

      const result = await runCli(['agents', '--repo', 'acme/skills', '--sort-by', 'last_run', '--include-malformed'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'GET', path: '/agent' });
      expect(Object.fromEntries(stub.requests[0]!.query)).toEqual({ repo: 'acme/skills', sort_by: 'last_run', include_malformed_skills: 'true' });
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^NAME +ID +LAST RUN +DESCRIPTION$/);
      expect(lines[1]).toMatch(/^triage +acme\/skills:skills\/triage\/SKILL\.md +Triage an issue$/);
      expect(lines[2]).toContain('the front matter is not a YAML mapping');
      expect((await runCli(['agents', '--sort-by', 'recent'], stub.env)).stderr).toContain("'recent' is not name or last_run");
    });

    it('models marks the default', async () => {
      stub.handler = () => ({
        json: {
          default_model_id: 'gpt-4.1-mini',
          models: [
            { id: 'gpt-4.1-mini', display_name: 'gpt-4.1-mini', provider: 'OPENAI', vision_supported: false, description: 'The default' },
            { id: 'claude-sonnet-4', display_name: 'claude-sonnet-4', provider: 'ANTHROPIC', vision_supported: false },
          ],
        },
      });

      const result = await runCli(['models'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'GET', path: '/agent/models' });
      expect(result.stdout.trimEnd().split('\n').slice(1)).toEqual([
        expect.stringMatching(/^\* +gpt-4\.1-mini +OPENAI +The default$/),
        expect.stringMatching(/^ +claude-sonnet-4 +ANTHROPIC$/),
      ]);
    });

    it('environments list (with --sort-by) and get print the Oz CloudEnvironment fields', async () => {
      const env1 = {
        uid: 'env_01hzx3k4m5n6p7q8r9s0t1v2w3',
        config: { name: 'node-20', description: 'Node', setup_commands: ['npm ci', 'npm test'] },
        last_updated: '2026-05-01T12:00:00.000Z',
        last_task_run_timestamp: '2026-05-01T12:01:00.000Z',
        last_task_created: { id: RUN_ID, title: 't', state: 'FAILED', created_at: '2026-05-01T12:01:00.000Z', updated_at: '2026-05-01T12:02:00.000Z' },
        setup_failed: true,
        scope: { type: 'Team', uid: 'team_1' },
        env_var_names: ['NPM_TOKEN'],
        plain_env_vars: { NODE_ENV: 'test' },
        created_at: '2026-05-01T12:00:00.000Z',
      };
      stub.handler = (request) => ({
        json: request.path.endsWith('/environments') ? { environments: [env1], page_info: { has_next_page: false, next_cursor: null } } : env1,
      });

      const list = await runCli(['environments', 'list', '--sort-by', 'name', '--limit', '5'], stub.env);
      expect(list.code).toBe(0);
      expect(Object.fromEntries(stub.requests[0]!.query)).toEqual({ sort_by: 'name', limit: '5' });
      expect(list.stdout).toMatch(/^UID +NAME +UPDATED +LAST RUN +SETUP$/m);
      expect(list.stdout).toMatch(/env_01hzx3k4m5n6p7q8r9s0t1v2w3 +node-20 +.+ +FAILED +failed/);

      const get = await runCli(['environments', 'get', env1.uid], stub.env);
      expect(get.code).toBe(0);
      expect(stub.requests[1]).toMatchObject({ method: 'GET', path: `/agent/environments/${env1.uid}` });
      expect(get.stdout).toContain('setup_commands:');
      expect(get.stdout).toContain('NPM_TOKEN');
      expect(get.stdout).toMatch(/^plain_env_vars: +NODE_ENV=test$/m);
      expect(get.stdout).toContain(`${RUN_ID} (FAILED)`);
    });

    it('runs transcript follows the redirect and prints the JSON Lines as served', async () => {
      const lines = '{"step_id":"step_1","message_id":"msg_1","role":"user","timestamp":"2026-05-01T12:00:00Z","content":[{"type":"text","text":"hi"}]}\n';
      stub.handler = (request): StubAnswer =>
        request.path.endsWith('/transcript')
          ? { status: 302, headers: { location: `${stub.url}/agent/runs/${RUN_ID}/transcript/download?token=t` } }
          : { text: lines, headers: { 'content-type': 'application/x-ndjson' } };

      const result = await runCli(['runs', 'transcript', RUN_ID], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => r.path)).toEqual([`/agent/runs/${RUN_ID}/transcript`, `/agent/runs/${RUN_ID}/transcript/download`]);
      expect(result.stdout).toBe(lines);
    });
  });
});
