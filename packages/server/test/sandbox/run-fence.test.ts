/**
 * One fence per run, through the public API with the real bubblewrap sandbox (docs/sandbox.md "Limits"):
 * memory and process limits hold for a run's processes together (six stdio MCP servers of one run, each
 * under the limit on its own, are over it together); the workspace disk ends a run that writes past
 * SANDBOX_DISK_MB with `disk_limit` and leaves the host's disk alone; and when the server is root, what a run
 * makes is owned by an unprivileged host uid on a `nosuid,nodev` mount — a setuid file is not root's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeModel, text } from '../agent/support/fake-model';
import { sandboxAvailable } from '../support/sandbox';
import { startTestServer, type TestServer } from '../support/server';
import { restClient, type RestClient } from '../webhooks/helpers';

const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
const MIB = 1024 * 1024;
const isRoot = process.getuid?.() === 0;

/**
 * A minimal MCP server over stdio (newline-delimited JSON-RPC) that first holds HOG_MB of touched memory
 * and starts HOG_CHILDREN sleeping processes, then answers `initialize` and `tools/list`. Plain Node, no
 * imports from this repository: it runs inside the sandbox, from the run's workspace.
 */
const MCP_HOG = `
const { spawn } = require('node:child_process');
const held = Buffer.alloc(Number(process.env.HOG_MB || 0) * 1024 * 1024, 1);
for (let i = 0; i < Number(process.env.HOG_CHILDREN || 0); i++) spawn('sleep', ['60'], { stdio: 'ignore' });
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf('\\n')) >= 0) {
    const message = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (message.id === undefined) continue;
    const result = message.method === 'initialize'
      ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hog', version: String(held.length) } }
      : { tools: [] };
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');
  }
});
process.stdin.on('end', () => process.exit(0));
`;

const sixHogs = (env: Record<string, string>) =>
  Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`hog${i}`, { command: '/usr/bin/node', args: ['/workspace/mcp-hog.js'], env }]));

const hogAttachment = { file_name: 'mcp-hog.js', mime_type: 'text/javascript', data: Buffer.from(MCP_HOG).toString('base64') };

describe.skipIf(!sandboxAvailable)('one fence per run', () => {
  let model: FakeModel;
  let server: TestServer;
  let admin: RestClient;
  let dataDir: string;

  beforeAll(async () => {
    model = await FakeModel.start();
    server = await startTestServer({
      env: {
        RUNNER: 'model',
        MODEL_BASE_URL: model.url,
        DEFAULT_MODEL_ID: 'fake-model',
        SANDBOX_MEMORY_MB: '512',
        SANDBOX_MAX_PROCESSES: '100',
        SANDBOX_DISK_MB: '64',
        WORKER_CONCURRENCY: '1',
      },
    });
    admin = restClient(server, server.adminKey);
    dataDir = server.ctx.settings.dataDir;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  async function startRun(body: Record<string, unknown>): Promise<string> {
    const created = await admin.post('/agent/runs', body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.run_id as string;
  }

  async function runToEnd(body: Record<string, unknown>) {
    const runId = await startRun(body);
    let run: any;
    do {
      await delay(50);
      run = (await admin.get(`/agent/runs/${runId}`)).body;
    } while (!TERMINAL.includes(run.state));
    return { run, runId };
  }

  it('reports how the run is fenced in /readyz', async () => {
    const ready = await (await fetch(`${server.baseUrl}/readyz`)).json();
    expect(ready.sandbox.disk).toBe(isRoot ? 'loop ext4' : 'rlimit');
    expect(ready.sandbox.host_uid).toBe(isRoot ? 65534 : null);
  });

  it('six stdio MCP servers of one run, 400 MB each, are stopped by one 512 MiB limit: FAILED memory_limit', async () => {
    model.reply(text('never reached'));
    const { run } = await runToEnd({ prompt: 'use the tools', attachments: [hogAttachment], config: { mcp_servers: sixHogs({ HOG_MB: '400' }) } });
    expect(run.state).toBe('FAILED');
    expect(run.status_message?.error_code, JSON.stringify(run.status_message)).toBe('memory_limit');
    expect(run.status_message.message).toContain('512 MiB');
  }, 60_000);

  it('six stdio MCP servers of one run, each well under the process limit on its own, are over it together: FAILED process_limit', async () => {
    model.reply(text('never reached'));
    const { run } = await runToEnd({ prompt: 'use the tools', attachments: [hogAttachment], config: { mcp_servers: sixHogs({ HOG_CHILDREN: '20' }) } });
    expect(run.state).toBe('FAILED');
    expect(run.status_message?.error_code, JSON.stringify(run.status_message)).toBe('process_limit');
  }, 60_000);

  it('the same six servers within the limits start, and the run succeeds', async () => {
    model.reply(text('done'));
    const { run } = await runToEnd({
      prompt: 'use the tools',
      attachments: [hogAttachment],
      config: { mcp_servers: sixHogs({ HOG_MB: '40', HOG_CHILDREN: '2' }) },
    });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
  }, 60_000);

  describe.skipIf(!isRoot)('as root', () => {
    it('a run that writes past SANDBOX_DISK_MB ends FAILED disk_limit, and the host keeps its space', async () => {
      model.reply(text('never reached'));
      const { run, runId } = await runToEnd({
        prompt: 'fill the disk',
        config: { mcp_servers: { filler: { command: '/bin/sh', args: ['-c', 'dd if=/dev/zero of=/workspace/big bs=1M count=200 2>&1; sleep 30'] } } },
      });
      expect(run.state).toBe('FAILED');
      expect(run.status_message?.error_code, JSON.stringify(run.status_message)).toBe('disk_limit');
      expect(run.status_message.message).toContain('64 MiB');
      // What the run wrote went into its 64 MiB image (sparse), and no further: 200 MB were asked for.
      const image = fs.statSync(path.join(dataDir, 'workspace-disks', `${runId}.ext4`));
      expect(image.blocks * 512).toBeGreaterThan(32 * MIB);
      expect(image.blocks * 512).toBeLessThanOrEqual(64 * MIB);
    }, 60_000);

    it('what a run makes is owned by the unprivileged host uid, on a nosuid,nodev mount: a setuid file is not root setuid on the host', async () => {
      model.reply(text('never reached'));
      const runId = await startRun({
        prompt: 'make a setuid shell',
        config: {
          mcp_servers: {
            suid: { command: '/bin/sh', args: ['-c', 'cp /bin/sh /workspace/suid-sh && chmod 4755 /workspace/suid-sh && touch /workspace/ready; sleep 60'] },
          },
        },
      });
      const workspace = path.join(dataDir, 'runs', runId);
      while (!fs.existsSync(path.join(workspace, 'ready'))) await delay(50);
      const made = fs.statSync(path.join(workspace, 'suid-sh'));
      expect(made.uid).toBe(65534);
      expect(made.gid).toBe(65534);
      const mount = fs
        .readFileSync('/proc/self/mountinfo', 'utf8')
        .split('\n')
        .find((line) => line.split(' ')[4] === fs.realpathSync(workspace));
      expect(mount, 'the workspace is a mount of its own').toBeDefined();
      expect(mount!.split(' ')[5]!.split(',')).toEqual(expect.arrayContaining(['nosuid', 'nodev']));
      expect((await admin.post(`/agent/runs/${runId}/cancel`, {})).status).toBeLessThan(300);
      let run: any;
      do {
        await delay(50);
        run = (await admin.get(`/agent/runs/${runId}`)).body;
      } while (!TERMINAL.includes(run.state));
      expect(run.state).toBe('CANCELLED');
    }, 60_000);
  });
});
