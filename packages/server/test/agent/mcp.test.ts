/**
 * MCP servers of a run, for real: a stdio server (a child process speaking the MCP SDK) and a streamable
 * HTTP server (in-process). The model's tool call reaches the server, the result reaches the model,
 * both are recorded, and every connection is closed when the run ends or is cancelled.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelRunner } from '../../src/engine/runners/model';
import type { McpStdioServerConfig } from '../../src/runs/contract';
import { FakeModel, text, toolCalls } from './support/fake-model';
import { startMcpHttpServer, type TestMcpHttpServer } from './support/mcp-http';
import { buildRunContext, type TestRun } from './support/run-context';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures', 'mcp-stdio-server.ts');
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

let model: FakeModel;
let httpServer: TestMcpHttpServer | undefined;
const runs: TestRun[] = [];

beforeEach(async () => {
  model = await FakeModel.start();
});
afterEach(async () => {
  await model.close();
  await httpServer?.close();
  httpServer = undefined;
  for (const r of runs.splice(0)) r.cleanup();
});

const runner = () => createModelRunner({ baseUrl: model.url, retry: { maxAttempts: 1 }, mcpConnectTimeoutMs: 15_000 });

function stdioServer(eventsFile: string, env: Record<string, string> = {}): McpStdioServerConfig {
  return { command: process.execPath, args: ['--import', tsxLoader, fixture], env: { MCP_EVENTS_FILE: eventsFile, ...env } };
}

function testRun(options: Parameters<typeof buildRunContext>[0]): TestRun {
  const run = buildRunContext(options);
  runs.push(run);
  return run;
}

/** Sandbox settings that list exactly the address of a local server (loopback is refused otherwise). */
const listed = (url: string) => ({ SANDBOX_ALLOWED_HOSTS: new URL(url).host });

const readEvents = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await delay(25);
  }
}

describe('MCP over stdio', () => {
  it('offers the tools as <server>__<tool>, runs the call on the server and gives the result to the model', async () => {
    const run = testRun({ config: { model_id: 'm' }, env: { TEAM_TOKEN: 'from-environment' } });
    const events = path.join(run.workDir, 'events.log');
    run.ctx.config.mcp_servers = { 'local files': stdioServer(events) };
    model.reply(
      toolCalls([
        { id: 'call_echo', name: 'local_files__echo', arguments: { text: 'ping' } },
        { id: 'call_env', name: 'local_files__env', arguments: { name: 'TEAM_TOKEN' } },
        { id: 'call_fail', name: 'local_files__fail', arguments: {} },
      ]),
      text('All done.'),
    );

    const outcome = await runner().run(run.ctx);
    expect(outcome).toEqual({ state: 'SUCCEEDED' });

    const tools = model.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(tools).toEqual([
      'read_skill',
      'publish_artifact',
      'Bash',
      'Read',
      'Write',
      'Edit',
      'Glob',
      'Grep',
      'local_files__echo',
      'local_files__add',
      'local_files__fail',
      'local_files__env',
      'local_files__wait',
      'ask_user',
    ]);
    const echo = model.requests[0]!.body.tools.find((t: { function: { name: string } }) => t.function.name === 'local_files__echo');
    expect(echo.function.description).toBe('Echo the text back.');
    expect(echo.function.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });

    expect(readEvents(events)).toContain('echo:ping');
    const toolMessages = model.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(toolMessages[0]).toEqual({ role: 'tool', tool_call_id: 'call_echo', content: 'stdio-test echoes: ping' });
    // Runs in the working directory, with the cloud environment's variables.
    expect(JSON.parse(toolMessages[1].content)).toEqual({ value: 'from-environment', cwd: fs.realpathSync(run.workDir) });
    expect(toolMessages[2]).toEqual({ role: 'tool', tool_call_id: 'call_fail', content: 'Error: the tool broke' });

    expect(run.conversation.actions()).toEqual([
      { type: 'action', id: 'call_echo', category: 'integration', name: 'echo', input: { text: 'ping' } },
      { type: 'action', id: 'call_env', category: 'integration', name: 'env', input: { name: 'TEAM_TOKEN' } },
      { type: 'action', id: 'call_fail', category: 'integration', name: 'fail', input: {} },
    ]);
    expect(run.conversation.results().map((r) => [r.action_id, r.name, r.state])).toEqual([
      ['call_echo', 'echo', 'completed'],
      ['call_env', 'env', 'completed'],
      ['call_fail', 'fail', 'failed'],
    ]);
    expect(run.conversation.results()[0]!.output).toEqual({ text: 'stdio-test echoes: ping' });

    // The server process is gone once the run is over.
    const pid = Number(
      readEvents(events)
        .find((e) => e.startsWith('pid:'))!
        .slice(4),
    );
    await eventually(() => !isAlive(pid));
  }, 30_000);

  it('does not pass the server process environment (secrets) to a stdio server', async () => {
    process.env.AGENT_RUNS_TEST_SECRET = 'server-secret';
    try {
      const run = testRun({ config: { model_id: 'm' } });
      run.ctx.config.mcp_servers = { s: stdioServer(path.join(run.workDir, 'events.log')) };
      model.reply(toolCalls([{ id: 'c', name: 's__env', arguments: { name: 'AGENT_RUNS_TEST_SECRET' } }]), text('ok'));
      await runner().run(run.ctx);
      const tool = model.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
      expect(JSON.parse(tool.content).value).toBeNull();
    } finally {
      delete process.env.AGENT_RUNS_TEST_SECRET;
    }
  }, 30_000);

  it('fails the run with integration_not_configured naming a server that cannot start', async () => {
    const run = testRun({ config: { model_id: 'm' } });
    run.ctx.config.mcp_servers = { broken: { command: '/nonexistent/mcp-server-binary' } };
    const outcome = await runner().run(run.ctx);
    expect(outcome).toEqual({
      state: 'FAILED',
      statusMessage: {
        message: expect.stringContaining('MCP server "broken" could not be started'),
        error_code: 'integration_not_configured',
        retryable: false,
      },
    });
    expect(model.requests).toHaveLength(0);
  });

  it('fails with the server stderr when the process exits during start-up, and closes the healthy ones', async () => {
    const run = testRun({ config: { model_id: 'm' } });
    const healthyEvents = path.join(run.workDir, 'healthy.log');
    run.ctx.config.mcp_servers = {
      healthy: stdioServer(healthyEvents),
      crashing: stdioServer(path.join(run.workDir, 'crash.log'), { MCP_FAIL_AT_START: '1' }),
    };
    const outcome = await runner().run(run.ctx);
    expect(outcome).toMatchObject({ state: 'FAILED', statusMessage: { error_code: 'integration_not_configured', retryable: false } });
    const message = (outcome as { statusMessage: { message: string } }).statusMessage.message;
    expect(message).toContain('"crashing"');
    expect(message).toContain('missing configuration');
    const pidLine = readEvents(healthyEvents).find((e) => e.startsWith('pid:'));
    if (pidLine) await eventually(() => !isAlive(Number(pidLine.slice(4))));
  }, 30_000);

  it('fails instead of hanging when a server never completes the handshake', async () => {
    const run = testRun({ config: { model_id: 'm' } });
    // The server outlives the test's own time limit: only the connect timeout lets the run end.
    run.ctx.config.mcp_servers = { silent: { command: '/bin/sh', args: ['-c', 'sleep 600'] } };
    const outcome = await createModelRunner({ baseUrl: model.url, mcpConnectTimeoutMs: 500 }).run(run.ctx);
    expect(outcome).toMatchObject({
      state: 'FAILED',
      statusMessage: { error_code: 'integration_not_configured', message: expect.stringContaining('"silent"') },
    });
  }, 20_000);

  it('cancels a tool call in flight: the server sees the cancellation and the process is stopped', async () => {
    const run = testRun({ config: { model_id: 'm' } });
    const events = path.join(run.workDir, 'events.log');
    run.ctx.config.mcp_servers = { s: stdioServer(events) };
    model.reply(toolCalls([{ id: 'call_wait', name: 's__wait', arguments: {} }]));
    const pending = runner().run(run.ctx);
    await eventually(() => readEvents(events).includes('wait:started'), 15_000);
    run.cancel.abort();
    const outcome = await pending;
    expect(outcome).toMatchObject({ state: 'ERROR', statusMessage: { error_code: 'run_cancelled' } });
    expect(model.requests).toHaveLength(1); // the loop did not go on to the model
    await eventually(() => readEvents(events).includes('wait:cancelled'));
    const pid = Number(
      readEvents(events)
        .find((e) => e.startsWith('pid:'))!
        .slice(4),
    );
    await eventually(() => !isAlive(pid));
    // The call was recorded as an action; no result was invented for it.
    expect(run.conversation.actions().map((a) => a.id)).toEqual(['call_wait']);
    expect(run.conversation.results()).toEqual([]);
  }, 30_000);
});

describe('MCP over streamable HTTP', () => {
  it('sends the configured headers, runs the call and terminates the session at the end', async () => {
    httpServer = await startMcpHttpServer('remote');
    const run = testRun({ config: { model_id: 'm' }, sandboxEnv: listed(httpServer.url) });
    run.ctx.config.mcp_servers = { remote: { url: httpServer.url, headers: { Authorization: 'Bearer mcp-token' } } };
    model.reply(toolCalls([{ id: 'call_add', name: 'remote__add', arguments: { a: 2, b: 40 } }]), text('42'));

    expect(await runner().run(run.ctx)).toEqual({ state: 'SUCCEEDED' });

    expect(httpServer.headers.every((h) => h.authorization === 'Bearer mcp-token')).toBe(true);
    const tool = model.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_add', content: '42' });
    expect(run.conversation.actions()).toEqual([{ type: 'action', id: 'call_add', category: 'integration', name: 'add', input: { a: 2, b: 40 } }]);
    expect(run.conversation.results()).toEqual([
      { type: 'action_result', action_id: 'call_add', category: 'integration', name: 'add', state: 'completed', output: { text: '42' } },
    ]);
    expect(httpServer.sessionsOpened).toBe(1);
    await eventually(() => httpServer!.sessionsClosed === 1);
  });

  it('cancels a tool call in flight on the HTTP server', async () => {
    httpServer = await startMcpHttpServer('remote');
    const run = testRun({ config: { model_id: 'm' }, sandboxEnv: listed(httpServer.url) });
    run.ctx.config.mcp_servers = { remote: { url: httpServer.url } };
    model.reply(toolCalls([{ id: 'call_wait', name: 'remote__wait', arguments: {} }]));
    const pending = runner().run(run.ctx);
    await eventually(() => httpServer!.events.includes('wait:started'));
    run.cancel.abort();
    expect(await pending).toMatchObject({ state: 'ERROR', statusMessage: { error_code: 'run_cancelled' } });
    await eventually(() => httpServer!.events.includes('wait:cancelled'));
    await eventually(() => httpServer!.sessionsClosed === 1);
  });

  it('fails the run with integration_not_configured when the URL cannot be reached', async () => {
    const run = testRun({ config: { model_id: 'm' }, sandboxEnv: { SANDBOX_ALLOWED_HOSTS: '127.0.0.1:1' } });
    run.ctx.config.mcp_servers = { gone: { url: 'http://127.0.0.1:1/mcp' } };
    const outcome = await runner().run(run.ctx);
    expect(outcome).toMatchObject({
      state: 'FAILED',
      statusMessage: { error_code: 'integration_not_configured', message: expect.stringContaining('"gone"'), retryable: true },
    });
  });

  it('refuses a server on an address the egress policy does not list, with a short message and nothing it answered', async () => {
    httpServer = await startMcpHttpServer('remote');
    const run = testRun({ config: { model_id: 'm' } });
    run.ctx.config.mcp_servers = { internal: { url: httpServer.url, headers: { 'X-Probe': 'ssrf' } } };
    const outcome = await runner().run(run.ctx);
    expect(outcome).toMatchObject({ state: 'FAILED' });
    expect(httpServer.headers).toEqual([]); // never contacted
    expect(run.ctx.sandbox.failure).toEqual({
      error_code: 'egress_denied',
      retryable: false,
      message: `egress to ${new URL(httpServer.url).host} denied: 127.0.0.1 is not in SANDBOX_ALLOWED_HOSTS`,
    });
  });

  it('exposes tools of several servers side by side', async () => {
    httpServer = await startMcpHttpServer('remote');
    const run = testRun({ config: { model_id: 'm' }, sandboxEnv: listed(httpServer.url) });
    run.ctx.config.mcp_servers = { a: { url: httpServer.url }, 'b.c': { url: httpServer.url } };
    model.reply(toolCalls([{ id: 'x', name: 'b_c__echo', arguments: { text: 'hi' } }]), text('ok'));
    await runner().run(run.ctx);
    const names = model.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(['a__echo', 'b_c__echo']));
    expect(httpServer.events).toEqual(['echo:hi']);
  });
});
