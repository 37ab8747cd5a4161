/**
 * What cloud agents are for, end to end through the public API: a team's repository with a failing test
 * is cloned into the run's workspace over real git HTTP (test/support/git-forge.ts), the built-in agent
 * (RUNNER=model, driven by the scripted OpenAI-compatible fake provider through the model gateway) reads
 * the code, edits it, runs the test in the sandbox and finishes; the engine commits and pushes the fix as
 * the run's branch and opens the pull request (`auto_pr`) through the GitHub REST stand-in.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../support/databases';
import { startGitForge, type GitForge } from '../support/git-forge';
import { apiClient, waitForRunState, type ApiClient } from '../support/http';
import { sandboxAvailable } from '../support/sandbox';
import { startTestServer, type TestServer } from '../support/server';
import { FakeModel, text, toolCalls } from './support/fake-model';

const TOKEN = 'ghp_fixClonedRepositoryToken0123456789ab';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Json = any;

const BROKEN = 'add() {\n  echo $(($1 - $2))\n}\n';
const FIXED = 'add() {\n  echo $(($1 + $2))\n}\n';
const TEST = '. ./add.sh\ngot=$(add 2 3)\n[ "$got" = 5 ] || { echo "FAIL: add 2 3 gave $got" >&2; exit 1; }\necho PASS\n';

describe.skipIf(!sandboxAvailable).each(testDatabases())('the built-in agent fixes a cloned repository (%s)', (database) => {
  let forge: GitForge;
  let model: FakeModel;
  let server: TestServer;
  let client: ApiClient;

  beforeAll(async () => {
    forge = await startGitForge({ token: TOKEN });
    model = await FakeModel.start();
    server = await startTestServer({
      database,
      env: {
        RUNNER: 'model',
        MODEL_BASE_URL: model.url,
        DEFAULT_MODEL_ID: 'fixer-model',
        GITHUB_BASE_URL: forge.url,
        SANDBOX_ALLOWED_HOSTS: `127.0.0.1:${forge.port}`,
      },
    });
    client = apiClient(server.apiUrl, (await server.createTeamWithKey('fixers', 'admin')).apiKey);
    expect((await client.request('PUT', '/secrets/GIT_TOKEN', { body: { value: TOKEN } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
    await forge?.close();
  });

  it('reads, edits, runs the test and finishes; the fix comes back as a pushed branch and a pull request', async () => {
    forge.createRepository('acme/calc', { 'add.sh': BROKEN, 'test.sh': TEST, 'README.md': '# calc\n' });
    const env = await client.post('/agent/environments', { name: 'calc', github_repos: [{ owner: 'acme', repo: 'calc' }], auto_pr: true });
    expect(env.status).toBe(201);

    model.reply(
      toolCalls([
        { id: 'test-before', name: 'Bash', arguments: { command: 'cd calc && sh test.sh' } },
        { id: 'read', name: 'Read', arguments: { file_path: 'calc/add.sh' } },
      ]),
      toolCalls([{ id: 'edit', name: 'Edit', arguments: { file_path: 'calc/add.sh', old_string: '$1 - $2', new_string: '$1 + $2' } }]),
      toolCalls([{ id: 'test-after', name: 'Bash', arguments: { command: 'cd calc && sh test.sh' } }]),
      text('Fixed add(): it subtracted instead of adding; the test passes.'),
    );
    const created = await client.post('/agent/runs', { prompt: 'The test in calc fails. Fix it.', config: { environment_id: env.body.uid } });
    expect(created.status).toBe(200);
    const run = await waitForRunState(client, created.body.run_id, ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'], 90_000);
    expect(run.status_message ?? null).toBeNull();
    expect(run.state).toBe('SUCCEEDED');

    // What the model saw of each step: the real test failing in the sandbox, then passing after the edit.
    const lastRequest = model.requests.at(-1)!.body.messages as Array<{ role: string; tool_call_id?: string; content: string }>;
    const results = new Map(lastRequest.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id!, m.content]));
    expect(results.get('test-before')).toBe('exit code: 1\nstderr:\nFAIL: add 2 3 gave -1\n');
    expect(results.get('read')).toContain('echo $(($1 - $2))');
    expect(results.get('test-after')).toBe('exit code: 0\nstdout:\nPASS\n');

    // The conversation shows the agent's work as Oz's actions and results.
    const conversation = await client.get(`/agent/runs/${run.run_id}/conversation`);
    expect(conversation.status).toBe(200);
    const blocks = (conversation.body.steps as Json[]).flatMap((s) => (s.messages as Json[]).flatMap((m) => m.content as Json[]));
    const actions = blocks.filter((b) => b.type === 'action').map((b) => [b.name, b.category]);
    expect(actions).toEqual([
      ['Bash', 'command'],
      ['Read', 'files'],
      ['Edit', 'files'],
      ['Bash', 'command'],
    ]);
    const states = blocks.filter((b) => b.type === 'action_result').map((b) => [b.action_id, b.state]);
    expect(states).toEqual([
      ['test-before', 'failed'],
      ['read', 'completed'],
      ['edit', 'completed'],
      ['test-after', 'completed'],
    ]);

    // The fix is on the run's branch in the team's repository, on top of main, and nothing else changed.
    const branch = `agent/${run.run_id.slice(0, 8)}`;
    expect(forge.git('acme/calc', ['show', `${branch}:add.sh`])).toBe(FIXED);
    expect(forge.git('acme/calc', ['rev-parse', `${branch}~1`])).toBe(forge.git('acme/calc', ['rev-parse', 'main']));
    expect(forge.git('acme/calc', ['diff', '--name-only', 'main', branch]).trim()).toBe('add.sh');

    // The pull request was opened with the team's token, and the run carries it as an artifact.
    const pull = forge.pullRequests.find((p) => p.repo === 'calc')!;
    expect(pull).toMatchObject({ owner: 'acme', authorization: `Bearer ${TOKEN}`, body: { head: branch, base: 'main' } });
    const artifact = (run.artifacts as Json[]).find((a) => a.artifact_type === 'PULL_REQUEST');
    expect(artifact.data).toEqual({ url: `${forge.url}/acme/calc/pull/${forge.pullRequests.indexOf(pull) + 1}`, branch });
  });
});
