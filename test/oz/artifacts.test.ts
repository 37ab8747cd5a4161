// Run artifacts through the published Oz client (`oz-agent-sdk`): a command run in the real sandbox publishes
// files and links, and an Oz integration reads them as Oz shapes them — `agent.runs.retrieve` (RunItem.artifacts),
// `GET /agent/artifacts/{uid}` through the Stainless client's generic `get` (alpha.8 has no `getArtifact`),
// the signed download URL, and `agent.runs.list({ artifact_type })` (docs/decisions.md §Artifacts).
import { startTestServer, type TestServer } from '@agent-runs/server/test/support/server';
import OzAPI, { NotFoundError } from 'oz-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The shapes this test reads of Oz's ArtifactItem and ArtifactResponse (alpha.8 types artifacts loosely). */
interface OzArtifactItem {
  artifact_type: string;
  created_at: string;
  data: { artifact_uid?: string; filepath?: string; filename?: string; mime_type?: string; url?: string; branch?: string };
}
interface OzFileArtifactResponse {
  artifact_uid: string;
  artifact_type: 'FILE';
  data: { download_url: string; expires_at: string; content_type: string; filename: string; filepath?: string; size_bytes?: number };
}

describe('oz-agent-sdk reads run artifacts', () => {
  let server: TestServer;
  let oz: OzAPI;

  beforeAll(async () => {
    // AGENT_COMMAND `sh`: the prompt is the script the run executes.
    server = await startTestServer({ env: { RUNNER: 'command', AGENT_COMMAND: 'sh' } });
    oz = new OzAPI({ apiKey: server.adminKey, baseURL: server.apiUrl, maxRetries: 0, timeout: 10_000 });
  });
  afterAll(() => server?.close());

  async function finished(runId: string) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const run = await oz.agent.runs.retrieve(runId);
      if (['SUCCEEDED', 'FAILED', 'ERROR'].includes(run.state)) return run;
      if (Date.now() > deadline) throw new Error(`run ${runId} stayed ${run.state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('retrieve lists the artifacts, the artifact endpoint signs a download URL, and the list filters by artifact_type', async () => {
    const created = await oz.agent.run({
      prompt: [
        'mkdir -p .artifacts',
        "printf 'coverage 93%%\\n' > .artifacts/coverage.txt",
        `echo '::artifact::{"artifact_type":"PULL_REQUEST","url":"https://git.example.com/acme/app/pull/12","branch":"raise-coverage"}'`,
      ].join('\n'),
    });
    const plain = await oz.agent.run({ prompt: 'echo nothing published' });
    const run = await finished(created.run_id);
    await finished(plain.run_id);
    expect(run.state).toBe('SUCCEEDED');

    const artifacts = run.artifacts as unknown as OzArtifactItem[];
    expect(artifacts.map((a) => a.artifact_type)).toEqual(['PULL_REQUEST', 'FILE']);
    expect(artifacts[0]!.data).toEqual({ url: 'https://git.example.com/acme/app/pull/12', branch: 'raise-coverage' });
    const file = artifacts[1]!;
    expect(file.data).toMatchObject({ filepath: 'coverage.txt', filename: 'coverage.txt', mime_type: 'text/plain' });

    const artifact = (await oz.get(`/agent/artifacts/${file.data.artifact_uid}`)) as OzFileArtifactResponse;
    expect(artifact).toMatchObject({
      artifact_uid: file.data.artifact_uid,
      artifact_type: 'FILE',
      data: { content_type: 'text/plain', filename: 'coverage.txt', size_bytes: 13 },
    });
    expect(Date.parse(artifact.data.expires_at)).toBeGreaterThan(Date.now());
    // The signed URL needs no API key: any HTTP client downloads it.
    const download = await fetch(artifact.data.download_url);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="coverage.txt"');
    expect(await download.text()).toBe('coverage 93%\n');

    await expect(oz.get('/agent/artifacts/00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);

    const ids = async (artifact_type: 'PLAN' | 'PULL_REQUEST' | 'SCREENSHOT' | 'FILE' | 'EXTERNAL_REFERENCE') => {
      // alpha.8 types artifact_type as PLAN | PULL_REQUEST only (Oz's enum grew since); the client sends any value as given.
      const page = await oz.agent.runs.list({ artifact_type: artifact_type as 'PLAN', limit: 100 });
      return page.runs.map((r) => r.run_id);
    };
    expect(await ids('FILE')).toEqual([created.run_id]);
    expect(await ids('PULL_REQUEST')).toEqual([created.run_id]);
    expect(await ids('SCREENSHOT')).toEqual([]);
  });
});
