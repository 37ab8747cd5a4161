import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../src/api-keys/service';
import { systemClock } from '../../src/clock';
import { createFirstAdminKey } from '../../src/api-keys/bootstrap';
import { sqliteKind, testDatabases, type TestDatabase } from '../support/databases';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function admin(env: Record<string, string>, ...args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['src/admin.ts', ...args], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(testDatabases())('pnpm admin (%s)', (kind) => {
  let t: TestDatabase;
  afterEach(async () => {
    await t?.close();
  });

  const envFor = (db: TestDatabase) => ({ DATABASE_URL: db.databaseUrl, DATA_DIR: db.dataDir, SECRETS_KEY: randomBytes(32).toString('base64') });

  it('create-team prints {"team_uid","api_key"} and the key is the new team\'s admin key', async () => {
    t = await kind.create({ migrate: false });
    const res = await admin(envFor(t), 'create-team', 'acme');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(out).toEqual({ team_uid: expect.stringMatching(/^team_[0-9a-z]{26}$/), api_key: expect.stringMatching(/^ar_live_[A-Za-z0-9_-]{43}$/) });

    const principal = await authenticateApiKey(t.db, systemClock, out.api_key);
    expect(principal).toMatchObject({ teamId: out.team_uid, role: 'admin' });
  });

  it('create-key prints {"team_uid","api_key","key_id"} with the role and name asked for', async () => {
    t = await kind.create();
    const env = envFor(t);
    const team = JSON.parse((await admin(env, 'create-team', 'beta')).stdout);
    const res = await admin(env, 'create-key', '--team', 'beta', '--role', 'member', '--name', 'ci bot');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toEqual({ team_uid: team.team_uid, api_key: expect.stringMatching(/^ar_live_/), key_id: expect.stringMatching(/^key_/) });
    const principal = await authenticateApiKey(t.db, systemClock, out.api_key);
    expect(principal).toEqual({ teamId: team.team_uid, keyId: out.key_id, role: 'member', displayName: 'ci bot' });
  });

  it('a lost first admin key is replaced as README says: create-key --team default --role admin', async () => {
    t = await kind.create();
    const lost = await createFirstAdminKey(t.db, systemClock);
    expect(lost).toBeDefined();
    const res = await admin(envFor(t), 'create-key', '--team', 'default', '--role', 'admin', '--name', 'recovery');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    const principal = await authenticateApiKey(t.db, systemClock, out.api_key);
    const first = await authenticateApiKey(t.db, systemClock, lost!);
    expect(principal).toEqual({ teamId: first!.teamId, keyId: out.key_id, role: 'admin', displayName: 'recovery' });
  });
});

describe('pnpm admin errors', () => {
  it('reports each error on stderr with exit status 1 and nothing on stdout', async () => {
    const t = await sqliteKind.create();
    try {
      const env = { DATABASE_URL: t.databaseUrl, DATA_DIR: t.dataDir };
      expect((await admin(env, 'create-team', 'gamma')).code).toBe(0);
      const cases: string[][] = [
        ['create-team', 'gamma'],
        ['create-team', 'bad name!'],
        ['create-key', '--team', 'nobody', '--role', 'admin'],
        ['create-key', '--team', 'gamma', '--role', 'owner'],
      ];
      const results = await Promise.all(cases.map((args) => admin(env, ...args)));
      results.forEach((res, i) => {
        expect({ args: cases[i], code: res.code, stdout: res.stdout }).toEqual({ args: cases[i], code: 1, stdout: '' });
        expect(res.stderr).toMatch(/^error: /);
      });
      expect(results[0]!.stderr).toContain('already exists');
      expect(results[2]!.stderr).toContain('no team named "nobody"');
      expect(results[3]!.stderr).toContain('usage:');
    } finally {
      await t.close();
    }
  });

  it('prints the usage for --help (exit 0), and for a missing or unknown command on stderr (exit 2)', async () => {
    // Neither opens the database: the DATA_DIR given is never created.
    const dataDir = path.join(tmpdir(), `admin-help-${randomBytes(6).toString('hex')}`);
    const env = { DATA_DIR: dataDir };
    const [help, helpWord, unknown, missing] = await Promise.all([admin(env, '--help'), admin(env, 'help'), admin(env, 'rotate-everything'), admin(env)]);
    for (const res of [help, helpWord]) {
      expect(res).toMatchObject({ code: 0, stderr: '' });
      expect(res.stdout).toMatch(/^usage: pnpm --silent admin <command>/);
      expect(res.stdout).toContain('create-team <name>');
      expect(res.stdout).toContain('create-key --team <name> --role admin|member');
    }
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^error: unknown command: rotate-everything\nusage: /);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^error: missing command\nusage: /);
    expect(existsSync(dataDir)).toBe(false);
  });
});
