/**
 * The built `agent-runs` bin in a child process, as a shell runs it: how it starts (plain node, through a
 * symlink), the exit codes a shell sees, Ctrl-C, and bytes piped through stdout. The rest of the CLI's tests
 * call `main` in-process (support/cli.ts); vitest.config.ts builds dist/ before these run.
 */
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, problem, RUN_ID, runBinary, runItem, sse, stubApiForFile } from './support/cli';

describe('the agent-runs bin', () => {
  it('runs with plain node, also through a symlink from another directory, as npm links it into node_modules/.bin', async () => {
    const pkg = JSON.parse(await readFile(path.join(path.dirname(bin), '../package.json'), 'utf8')) as {
      version: string;
      bin: Record<string, string>;
    };
    expect(path.resolve(path.dirname(bin), '..', pkg.bin['agent-runs']!)).toBe(bin);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-bin-'));
    try {
      await symlink(bin, path.join(dir, 'agent-runs'));

      const direct = await runBinary(['--version']);
      const linked = await runBinary(['--version'], { entry: path.join(dir, 'agent-runs'), cwd: dir });
      const help = await runBinary(['--help'], { entry: path.join(dir, 'agent-runs'), cwd: dir });

      expect(direct).toMatchObject({ code: 0, signal: null, stdout: `${pkg.version}\n`, stderr: '' });
      expect(linked).toMatchObject({ code: 0, signal: null, stdout: `${pkg.version}\n`, stderr: '' });
      expect(help.stdout).toMatch(/^ {2}automations /m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('against a stub API', () => {
    const stub = stubApiForFile();

    it('exits 1 on a usage error and on an API error, 2 when the API cannot be reached, 3 when a waited run fails', async () => {
      stub.handler = (request) => {
        if (request.method === 'POST') return { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } };
        if (request.path.endsWith('/conversation')) return { json: { conversation_id: 'conv_1', steps: [] } };
        if (request.path.endsWith('/events')) return problem(404, 'resource_not_found', 'No events.');
        if (request.path === '/agent/runs') return problem(403, 'forbidden', 'Not yours.');
        return { json: runItem({ state: 'FAILED' }) };
      };
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const unreachable = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/api/v1`;
      await new Promise<void>((resolve) => closed.close(() => resolve()));

      const usage = await runBinary(['runs', 'list', '--limit', 'many'], { env: stub.env });
      const refused = await runBinary(['runs', 'list'], { env: stub.env });
      const down = await runBinary(['runs', 'list'], { env: { ...stub.env, AGENT_RUNS_BASE_URL: unreachable } });
      const failed = await runBinary(['run', '--prompt', 'hi', '--wait'], { env: stub.env });

      expect(usage).toMatchObject({ code: 1, stdout: '' });
      expect(usage.stderr).toContain("error: option '--limit <n>' argument 'many' is invalid.");
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toContain('error: 403 forbidden: Not yours.');
      expect(down.code).toBe(2);
      expect(down.stderr).toContain(`error: cannot reach the API at ${unreachable}`);
      expect(failed.code).toBe(3);
      expect(failed.stdout).toMatch(/^state:\s+FAILED$/m);
    });

    it('Ctrl-C during run --wait exits 130 and says the run goes on', async () => {
      stub.handler = (request) => {
        if (request.method === 'POST') return { json: { run_id: RUN_ID, task_id: RUN_ID, state: 'QUEUED' } };
        // A run still going: its event stream stays open.
        return {
          text: sse([{ id: 1, event: 'state', data: { run_id: RUN_ID, state: 'INPROGRESS', updated_at: '2026-05-01T12:00:01Z' } }]),
          open: true,
        };
      };

      // One SIGINT once the wait has seen the run in progress (its progress line on stderr); a second
      // would find the default handler back and end the process without an exit code.
      let interrupted = false;
      const result = await runBinary(['run', '--prompt', 'hi', '--wait'], {
        env: stub.env,
        onStderr: (stderr, child) => {
          if (interrupted || !stderr.includes('state: INPROGRESS')) return;
          interrupted = true;
          child.kill('SIGINT');
        },
      });

      expect(result.code).toBe(130);
      expect(result.stderr).toContain(`interrupted: the run goes on (stop it with \`agent-runs runs cancel ${RUN_ID}\`)`);
      expect(result.stdout).toBe('');
    });

    it('artifacts download --output - writes the bytes to a pipe, and nothing else', async () => {
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0a]);
      const served = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(bytes));
      await new Promise<void>((resolve) => served.listen(0, '127.0.0.1', resolve));
      const location = `http://127.0.0.1:${(served.address() as AddressInfo).port}/shot.png`;
      stub.handler = () => ({ status: 302, headers: { location } });
      try {
        const result = await runBinary(['artifacts', 'download', 'art_1', '--output', '-'], { env: stub.env });

        expect(result.code).toBe(0);
        expect(Buffer.compare(result.stdoutBytes, bytes)).toBe(0);
        expect(result.stderr).toBe('');
      } finally {
        served.closeAllConnections();
        await new Promise<void>((resolve) => served.close(() => resolve()));
      }
    });
  });
});
