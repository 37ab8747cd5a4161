import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newApiKeyValue } from '../../src/crypto/ids';
import { ListenError, startServer } from '../../src/main';
import { loadSettings } from '../../src/settings';
import { sqliteKind, testDatabases, type TestDatabase } from '../support/databases';
import { apiClient } from '../support/http';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Holds a port on 127.0.0.1 (another program on the port the server is told to use). */
async function occupyPort(): Promise<{ port: number; release(): Promise<void> }> {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  return { port: (blocker.address() as net.AddressInfo).port, release: () => new Promise((resolve) => blocker.close(() => resolve())) };
}

describe.each(testDatabases())('start-up bootstrap (%s)', (kind) => {
  let t: TestDatabase;
  const secretsKey = randomBytes(32).toString('base64');
  afterEach(async () => {
    await t?.close();
  });
  const settingsFor = (env: Record<string, string> = {}) =>
    loadSettings({ PORT: '0', DATABASE_URL: t.databaseUrl, DATA_DIR: t.dataDir, SECRETS_KEY: secretsKey, LOG_LEVEL: 'silent', ...env });

  it('creates team default with an admin key on the first start of an empty database only', async () => {
    t = await kind.create({ migrate: false });
    const first = await startServer(settingsFor(), { engine: false });
    try {
      expect(first.generatedAdminKey).toMatch(/^ar_live_[A-Za-z0-9_-]{43}$/);
      const api = apiClient(`${first.url}/api/v1`, first.generatedAdminKey);
      expect((await api.get('/api-keys')).status).toBe(200);
    } finally {
      await first.close();
    }
    const second = await startServer(settingsFor(), { engine: false });
    try {
      expect(second.generatedAdminKey).toBeUndefined();
      const teams = await second.ctx.db.selectFrom('teams').select('name').execute();
      expect(teams).toEqual([{ name: 'default' }]);
      expect(await second.ctx.db.selectFrom('api_keys').select('id').execute()).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('a start that cannot listen (port taken) creates no admin key; the next start creates and returns it', async () => {
    t = await kind.create({ migrate: false });
    const busy = await occupyPort();
    try {
      const rest = startServer(settingsFor({ PORT: String(busy.port) }), { engine: false });
      await expect(rest).rejects.toThrow(ListenError);
      await expect(rest).rejects.toThrow(/already in use\. Set PORT to a free port/);
      const ingress = startServer(settingsFor({ INGRESS_PORT: String(busy.port) }), { engine: false });
      await expect(ingress).rejects.toThrow(/webhook ingress .* already in use\. Set INGRESS_PORT to a free port/);
    } finally {
      await busy.release();
    }
    expect(await t.db.selectFrom('api_keys').select('id').execute()).toEqual([]);
    expect(await t.db.selectFrom('teams').select('id').execute()).toEqual([]);
    const started = await startServer(settingsFor(), { engine: false });
    try {
      expect(started.generatedAdminKey).toMatch(/^ar_live_/);
      expect((await apiClient(`${started.url}/api/v1`, started.generatedAdminKey).get('/api-keys')).status).toBe(200);
    } finally {
      await started.close();
    }
  });

  it('BOOTSTRAP_ADMIN_KEY ensures an admin key of exactly that value in team default, also after it was deleted', async () => {
    t = await kind.create({ migrate: false });
    const key = newApiKeyValue();
    const first = await startServer(settingsFor({ BOOTSTRAP_ADMIN_KEY: key }), { engine: false });
    let keyId: string;
    try {
      expect(first.generatedAdminKey).toBeUndefined();
      const api = apiClient(`${first.url}/api/v1`, key);
      const keys = await api.get('/api-keys');
      expect(keys.status).toBe(200);
      expect(keys.body.api_keys).toHaveLength(1);
      keyId = keys.body.api_keys[0].key_id;
      // The team's last admin key cannot go (409): another admin key first.
      expect((await api.post('/api-keys', { name: 'second admin', role: 'admin' })).status).toBe(201);
      expect((await api.delete(`/api-keys/${keyId}`)).status).toBe(204);
      expect((await api.get('/api-keys')).status).toBe(401);
    } finally {
      await first.close();
    }
    const second = await startServer(settingsFor({ BOOTSTRAP_ADMIN_KEY: key }), { engine: false });
    try {
      const api = apiClient(`${second.url}/api/v1`, key);
      const keys = await api.get('/api-keys');
      expect(keys.status).toBe(200);
      expect(keys.body.api_keys.map((k: { key_id: string; role: string }) => [k.key_id, k.role])).toContainEqual([keyId, 'admin']);
    } finally {
      await second.close();
    }
  });
});

// The child compiles the server's TypeScript (tsx) as it starts: on a busy machine that alone can pass 30 s.
describe('the server as a process (src/main.ts)', { timeout: 120_000 }, () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.close();
  });

  function start(env: Record<string, string>) {
    // node with tsx's loader, not the tsx CLI: the CLI relays a signal to its child and, when the child has not
    // acknowledged it within 30 ms (a busy machine), sends it again — a second SIGTERM, which ends the server at once.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const listening = new Promise<number>((resolve, reject) => {
      const check = () => {
        for (const line of stdout.split('\n')) {
          if (!line.startsWith('{')) continue;
          const entry = JSON.parse(line) as { msg?: string; port?: number };
          if (entry.msg === 'listening' && entry.port) return resolve(entry.port);
        }
      };
      child.stdout.on('data', check);
      void exited.then(() => reject(new Error(`exited before listening: ${stdout}\n${stderr}`)));
    });
    return { child, exited, listening, output: () => ({ stdout, stderr }) };
  }

  it('prints a generated admin key once, serves, warns about the echo runner and stops cleanly on SIGTERM', async () => {
    t = await sqliteKind.create({ migrate: false });
    const env = { PORT: '0', DATABASE_URL: t.databaseUrl, DATA_DIR: t.dataDir, RUNNER: 'echo', LOG_LEVEL: 'info' };

    const first = start(env);
    const port = await first.listening;
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const { stdout } = first.output();
    const keys = stdout.match(/ar_live_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(keys).toHaveLength(1);
    expect(stdout).toContain('shown ONLY THIS ONCE');
    const logs = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; msg: string; [k: string]: unknown });
    // The listening line gives URLs to click: the listener, the API root and the dashboard-to-be.
    expect(logs.find((l) => l.msg === 'listening')).toMatchObject({
      url: `http://127.0.0.1:${port}`,
      api_url: `http://127.0.0.1:${port}/api/v1`,
      dashboard_url: `http://127.0.0.1:${port}/`,
    });
    // The key comes after the listening line (it is created only once the server listens).
    expect(stdout.indexOf('"msg":"listening"')).toBeLessThan(stdout.indexOf('shown ONLY THIS ONCE'));
    expect(stdout).toContain(`curl -H "Authorization: Bearer <key>" http://127.0.0.1:${port}/api/v1/agent/runs`);
    expect(logs.some((l) => l.level === 'warn' && /echo/i.test(l.msg))).toBe(true);
    expect(logs.some((l) => l.msg === 'stopped')).toBe(true);
    const ready = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    expect(ready).toBeUndefined();

    // The key works on the next start, which prints none.
    const second = start(env);
    const port2 = await second.listening;
    const runs = await fetch(`http://127.0.0.1:${port2}/api/v1/agent/runs`, { headers: { authorization: `Bearer ${keys[0]}` } });
    expect(runs.status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(second.output().stdout).not.toMatch(/ar_live_/);
  });

  it('a busy port: one line naming the setting, exit 1, no stack trace, no key lost', async () => {
    t = await sqliteKind.create({ migrate: false });
    const env = { DATABASE_URL: t.databaseUrl, DATA_DIR: t.dataDir, RUNNER: 'echo', LOG_LEVEL: 'info', HOST: '127.0.0.1' };
    const busy = await occupyPort();
    try {
      for (const [setting, extra] of [
        ['PORT', { PORT: String(busy.port) }],
        ['INGRESS_PORT', { PORT: '0', INGRESS_PORT: String(busy.port) }],
      ] as const) {
        const failed = start({ ...env, ...extra });
        expect(await failed.exited).toBe(1);
        await failed.listening.catch(() => undefined);
        const { stdout, stderr } = failed.output();
        expect(stderr.trim().split('\n'), stderr).toEqual([expect.stringContaining(`already in use. Set ${setting} to a free port`)]);
        expect(stderr).toContain(`127.0.0.1:${busy.port}`);
        expect(stderr).not.toMatch(/^\s+at /m);
        expect(stdout).not.toMatch(/ar_live_/);
      }
    } finally {
      await busy.release();
    }
    // The key nobody saw was never made: this start creates and prints it.
    const next = start({ ...env, PORT: '0' });
    const port = await next.listening;
    // Printed just after the listening line.
    const key = await vi.waitFor(() => next.output().stdout.match(/ar_live_[A-Za-z0-9_-]{43}/)![0]);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/agent/runs`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  it('refuses to start with an invalid setting, saying which', async () => {
    const child = start({ PORT: 'eighty', DATABASE_URL: 'sqlite::memory:' });
    expect(await child.exited).toBe(1);
    expect(child.output().stderr).toContain('PORT');
    await child.listening.catch(() => undefined);
  });
});
