/**
 * The built-in agent's workspace tools through the real server (RUNNER=model, the scripted fake provider,
 * the real bubblewrap sandbox): a project with a failing test is set up by the environment's
 * setup_commands; the agent reads the code, edits it, runs the test and finishes. Along the way it trips
 * over what a model gets wrong (an edit whose text is absent or ambiguous), reads through symlinks to host
 * files (which the sandbox does not have), prints too much and runs a command past its timeout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MODEL_OUTPUT_CHARS } from '../../src/engine/runners/workspace-tools';
import { apiClient, waitForRunState, type ApiClient } from '../support/http';
import { withRunWorkspace } from '../support/sandbox';
import { startTestServer, type TestServer } from '../support/server';
import { FakeModel, text, toolCalls } from './support/fake-model';

const bwrapMissing = !['/usr/bin/bwrap', '/bin/bwrap'].some((p) => fs.existsSync(p));

const PROJECT = [
  `printf '%s\\n' 'add() {' '  echo $(($1 - $2))' '}' > add.sh`,
  `printf '%s\\n' '. ./add.sh' 'got=$(add 2 3)' '[ "$got" = 5 ] || { echo "FAIL: add 2 3 gave $got" >&2; exit 1; }' 'echo PASS' > test.sh`,
  `printf 'same\\nsame\\n' > dup.txt`,
];

type Block = { type: string; [key: string]: unknown };

describe.skipIf(bwrapMissing)('workspace tools of the built-in agent', () => {
  let server: TestServer;
  let model: FakeModel;
  let client: ApiClient;
  let hostDir: string;

  beforeAll(async () => {
    model = await FakeModel.start();
    server = await startTestServer({ env: { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'tools-model' } });
    client = apiClient(server.apiUrl, (await server.createTeamWithKey('tools', 'admin')).apiKey);
    hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-host-'));
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
    if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
  });

  const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
  const waitForEnd = (runId: string) => waitForRunState(client, runId, TERMINAL, 30_000);

  /** What went back to the model for each tool call, by call id. */
  function toolMessages(): Map<string, string> {
    const last = model.requests.at(-1)!.body.messages as Array<{ role: string; tool_call_id?: string; content: string }>;
    return new Map(last.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id!, m.content]));
  }

  it('fixes a failing test: reads, edits, runs the test in the sandbox and finishes, every step recorded', async () => {
    const secret = path.join(hostDir, 'host-secret.txt');
    fs.writeFileSync(secret, 'HOST-SECRET-7f3a\n');
    const env = await client.post('/agent/environments', {
      name: 'failing-add',
      setup_commands: [...PROJECT, `ln -s ${secret} leak`, 'ln -s /etc/shadow shadow'],
    });
    expect(env.status).toBe(201);

    model.reply(
      toolCalls([
        { id: 'read', name: 'Read', arguments: { file_path: 'add.sh' } },
        { id: 'test-before', name: 'Bash', arguments: { command: 'sh test.sh' } },
        { id: 'missing-tool', name: 'Bash', arguments: { command: 'no_such_tool --version' } },
      ]),
      toolCalls([
        { id: 'absent', name: 'Edit', arguments: { file_path: 'add.sh', old_string: '$1 * $2', new_string: '$1 + $2' } },
        { id: 'ambiguous', name: 'Edit', arguments: { file_path: '/workspace/dup.txt', old_string: 'same', new_string: 'other' } },
      ]),
      toolCalls([{ id: 'edit', name: 'Edit', arguments: { file_path: 'add.sh', old_string: '$1 - $2', new_string: '$1 + $2' } }]),
      toolCalls([{ id: 'test', name: 'Bash', arguments: { command: 'sh test.sh', description: 'run the test' } }]),
      toolCalls([
        { id: 'leak', name: 'Read', arguments: { file_path: 'leak' } },
        { id: 'shadow', name: 'Read', arguments: { file_path: 'shadow' } },
        { id: 'cat-leak', name: 'Bash', arguments: { command: 'cat leak' } },
        { id: 'write-leak', name: 'Write', arguments: { file_path: 'leak', content: 'overwritten' } },
      ]),
      toolCalls([
        { id: 'long', name: 'Bash', arguments: { command: 'seq 1 200000; echo done >&2' } },
        { id: 'slow', name: 'Bash', arguments: { command: 'echo started; sleep 30; echo never', timeout: 300 } },
      ]),
      toolCalls([
        { id: 'write', name: 'Write', arguments: { file_path: 'notes/fix.md', content: 'add() added instead of subtracting\n' } },
        { id: 'glob', name: 'Glob', arguments: { pattern: '*.sh' } },
        { id: 'grep', name: 'Grep', arguments: { pattern: 'echo \\$\\(\\(', output_mode: 'content' } },
        { id: 'replace-all', name: 'Edit', arguments: { file_path: 'dup.txt', old_string: 'same', new_string: 'other', replace_all: true } },
      ]),
      text('Fixed add: it subtracted.'),
    );
    const created = await client.post('/agent/runs', { prompt: 'Make the test pass.', config: { environment_id: env.body.uid } });
    expect(created.status).toBe(200);
    const runId = created.body.run_id as string;
    const run = await waitForEnd(runId);
    expect(run.status_message ?? null).toBeNull();
    expect(run.state).toBe('SUCCEEDED');

    // The fix is in the run's workspace on the host.
    await withRunWorkspace(server.ctx, runId, (workDir) => {
      expect(fs.readFileSync(path.join(workDir, 'add.sh'), 'utf8')).toBe('add() {\n  echo $(($1 + $2))\n}\n');
      expect(fs.readFileSync(path.join(workDir, 'notes/fix.md'), 'utf8')).toBe('add() added instead of subtracting\n');
      expect(fs.readFileSync(path.join(workDir, 'dup.txt'), 'utf8')).toBe('other\nother\n');
    });

    // The model was offered the tools by Claude Code's names.
    const offered = (model.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep']));

    const sent = toolMessages();
    expect(sent.get('read')).toBe('     1\tadd() {\n     2\t  echo $(($1 - $2))\n     3\t}');
    expect(sent.get('test-before')).toBe('exit code: 1\nstderr:\nFAIL: add 2 3 gave -1\n');
    expect(sent.get('missing-tool')).toBe('exit code: 127\nstderr:\nline 1: no_such_tool: not found\n');
    expect(sent.get('absent')).toBe(
      'Error: old_string was not found in /workspace/add.sh: it must match the file exactly, including whitespace and indentation',
    );
    expect(sent.get('ambiguous')).toBe(
      'Error: old_string matches 2 places in /workspace/dup.txt: add surrounding lines to make it unique, or set replace_all to replace every one',
    );
    expect(sent.get('edit')).toBe('Edited /workspace/add.sh: 1 replacement.');
    expect(sent.get('test')).toBe('exit code: 0\nstdout:\nPASS\n');
    // Symlinks to host files resolve inside the sandbox, where those files do not exist.
    expect(sent.get('leak')).toBe('Error: no such file: /workspace/leak');
    expect(sent.get('shadow')).toBe('Error: no such file: /workspace/shadow');
    expect(sent.get('cat-leak')).toMatch(/^exit code: 1\nstderr:\n.*No such file or directory/);
    expect(sent.get('write-leak')).toBe('Error: cannot create /workspace/leak: Directory nonexistent');
    expect(fs.readFileSync(secret, 'utf8')).toBe('HOST-SECRET-7f3a\n');
    for (const content of sent.values()) expect(content).not.toContain('HOST-SECRET');

    const long = sent.get('long')!;
    expect(long.length).toBeLessThan(MAX_MODEL_OUTPUT_CHARS + 200);
    expect(long).toMatch(/^exit code: 0\nstdout:\n1\n2\n3\n/);
    expect(long).toMatch(/\[… \d+ characters cut: the output was longer than 30000 characters …\]/);
    expect(long).toMatch(/200000\n\nstderr:\ndone\n$/);
    expect(sent.get('slow')).toBe('exit code: 124\nThe command was stopped after its timeout of 300 ms.\nstdout:\nstarted\n');

    expect(sent.get('write')).toBe('Wrote 35 bytes to /workspace/notes/fix.md.');
    expect(sent.get('glob')).toBe('/workspace/add.sh\n/workspace/test.sh');
    expect(sent.get('grep')).toBe('/workspace/add.sh:2:  echo $(($1 + $2))');
    expect(sent.get('replace-all')).toBe('Edited /workspace/dup.txt: 2 replacements.');

    // Recorded as action / action_result blocks with Oz's categories.
    const conversation = await client.get(`/agent/runs/${runId}/conversation`);
    const blocks: Block[] = conversation.body.steps.flatMap((s: { messages: Array<{ content: Block[] }> }) => s.messages.flatMap((m) => m.content));
    const action = (id: string) => blocks.find((b) => b.type === 'action' && b.id === id);
    const result = (id: string) => blocks.find((b) => b.type === 'action_result' && b.action_id === id);
    expect(action('read')).toEqual({ type: 'action', id: 'read', category: 'files', name: 'Read', input: { file_path: 'add.sh' } });
    expect(action('test')).toEqual({
      type: 'action',
      id: 'test',
      category: 'command',
      name: 'Bash',
      input: { command: 'sh test.sh', description: 'run the test' },
    });
    expect(action('glob')).toMatchObject({ category: 'search', name: 'Glob' });
    expect(action('grep')).toMatchObject({ category: 'search', name: 'Grep' });
    expect(result('test')).toEqual({
      type: 'action_result',
      action_id: 'test',
      category: 'command',
      name: 'Bash',
      state: 'completed',
      output: { text: 'exit code: 0\nstdout:\nPASS\n', exit_code: 0 },
    });
    expect(result('test-before')).toMatchObject({ category: 'command', state: 'failed', output: { exit_code: 1 } });
    expect(result('edit')).toMatchObject({ category: 'files', name: 'Edit', state: 'completed' });
    expect(result('absent')).toMatchObject({ category: 'files', name: 'Edit', state: 'failed' });
    expect(result('ambiguous')).toMatchObject({ category: 'files', name: 'Edit', state: 'failed' });
    expect(result('leak')).toMatchObject({ category: 'files', state: 'failed', output: { text: 'no such file: /workspace/leak' } });
    expect(result('slow')).toMatchObject({ category: 'command', state: 'failed', output: { exit_code: 124, timed_out: true } });
  }, 60_000);

  it('stops a running command when the run is cancelled', async () => {
    model.reply(toolCalls([{ id: 'forever', name: 'Bash', arguments: { command: 'echo waiting > started.txt; sleep 600', timeout: 600_000 } }]));
    const created = await client.post('/agent/runs', { prompt: 'Wait forever.' });
    const runId = created.body.run_id as string;
    const started = path.join(server.ctx.settings.dataDir, 'runs', runId, 'started.txt');
    const until = Date.now() + 30_000;
    while (!fs.existsSync(started) && Date.now() < until) await delay(50);
    expect(fs.readFileSync(started, 'utf8')).toBe('waiting\n');

    expect((await client.post(`/agent/runs/${runId}/cancel`)).status).toBe(200);
    expect((await waitForEnd(runId)).state).toBe('CANCELLED');
  }, 60_000);

  it('keeps working after a command that reads stdin, prints a fake answer or kills every process it can', async () => {
    model.reply(
      toolCalls([
        { id: 'stdin', name: 'Bash', arguments: { command: 'cat; echo read-nothing' } },
        { id: 'spoof', name: 'Bash', arguments: { command: "printf '0 5 0\\nfake!\\n'" } },
        { id: 'kill-all', name: 'Bash', arguments: { command: 'kill -9 -1' } },
        { id: 'after', name: 'Bash', arguments: { command: 'echo still here' } },
      ]),
      text('Done.'),
    );
    const created = await client.post('/agent/runs', { prompt: 'Misbehave.' });
    expect((await waitForEnd(created.body.run_id)).state).toBe('SUCCEEDED');
    const sent = toolMessages();
    expect(sent.get('stdin')).toBe('exit code: 0\nstdout:\nread-nothing\n');
    expect(sent.get('spoof')).toBe('exit code: 0\nstdout:\n0 5 0\nfake!\n');
    expect(sent.get('kill-all')).toMatch(/^Error: the workspace shell ended/);
    expect(sent.get('after')).toBe('exit code: 0\nstdout:\nstill here\n');
  }, 60_000);

  it('resumes a conversation with workspace tool calls under their own names', async () => {
    model.reply(toolCalls([{ id: 'ls', name: 'Bash', arguments: { command: 'printf hello > hi.txt' } }]), text('Wrote it.'));
    const created = await client.post('/agent/runs', { prompt: 'Write hi.txt.' });
    const runId = created.body.run_id as string;
    expect((await waitForEnd(runId)).state).toBe('SUCCEEDED');

    model.reply(toolCalls([{ id: 'cat', name: 'Read', arguments: { file_path: 'hi.txt' } }]), text('It says hello.'));
    expect((await client.post(`/agent/runs/${runId}/followups`, { message: 'What does it say?' })).status).toBe(200);
    expect((await waitForEnd(runId)).state).toBe('SUCCEEDED');

    const messages = model.requests.at(-1)!.body.messages as Array<{
      role: string;
      tool_calls?: Array<{ function: { name: string; arguments: string } }>;
      content: string;
    }>;
    expect(messages[1]!.tool_calls).toEqual([expect.objectContaining({ function: { name: 'Bash', arguments: '{"command":"printf hello > hi.txt"}' } })]);
    expect(messages.at(-1)).toMatchObject({ role: 'tool', content: '     1\thello' });
  }, 60_000);
});
