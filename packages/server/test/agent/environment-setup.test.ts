/**
 * Cloud environment preparation (engine/environment-setup.ts) on every test database: setup commands run
 * in the working directory with the environment's variables, failures carry environment_setup_failed
 * with secrets redacted, cancel stops the command.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/api-keys/service';
import { createEnvironment, deleteEnvironment } from '../../src/environments/service';
import { createTeam } from '../../src/teams/service';
import { systemClock } from '../../src/clock';
import { SecretBox } from '../../src/crypto/secret-box';
import { EnvironmentSetupError, prepareEnvironment, prepareEnvironmentForRun } from '../../src/engine/environment-setup';
import { createSandbox, type RunSandbox } from '../../src/engine/sandbox';
import { loadSettings } from '../../src/settings';
import { makeTempDir, testDatabases, type TestDatabase } from '../support/databases';
import { isAlive, processesWithEnv } from '../support/processes';
import { testSandboxMode } from '../support/sandbox';
import { directCallAudit } from '../support/audit';

/** A principal of the team, as the environments service is called by the API. */
const admin = (teamId: string): Principal => ({ teamId, keyId: 'key_env_setup_test', role: 'admin', displayName: 'admin' });

describe.each(testDatabases())('environment setup (%s)', (kind) => {
  let t: TestDatabase;
  let deps: { db: TestDatabase['db']; clock: typeof systemClock; secrets: SecretBox; log: pino.Logger; settings: ReturnType<typeof loadSettings> };
  let teamId: string;
  let workDir: string;
  let sandbox: RunSandbox;

  beforeEach(async () => {
    t = await kind.create();
    const settings = loadSettings({ DATA_DIR: t.dataDir, SANDBOX: testSandboxMode });
    deps = { db: t.db, clock: systemClock, secrets: new SecretBox(randomBytes(32)), log: pino({ level: 'silent' }), settings };
    teamId = (await createTeam(t.db, systemClock, `team-${randomBytes(3).toString('hex')}`)).id;
    workDir = makeTempDir('env-setup-');
    sandbox = createSandbox(settings, deps.log).forRun(randomBytes(8).toString('hex'), workDir);
  });
  afterEach(async () => {
    await sandbox.close();
    fs.rmSync(workDir, { recursive: true, force: true });
    await t.close();
  });

  it('runs the setup commands in the working directory with the variables and returns them', async () => {
    const env = await createEnvironment(deps, admin(teamId), {
      name: 'node',
      setup_commands: ['printf "%s" "$GREETING" > greeting.txt', 'mkdir -p build && touch build/ready', 'pwd > where.txt'],
      env_vars: { GREETING: 'hello-from-env', NPM_TOKEN: 'npm_secret_value' },
    }, directCallAudit(teamId, 'environment', 'created'));
    const result = await prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal);
    expect(result).toEqual({ env: { GREETING: 'hello-from-env', NPM_TOKEN: 'npm_secret_value' } });
    expect(fs.readFileSync(path.join(workDir, 'greeting.txt'), 'utf8')).toBe('hello-from-env');
    expect(fs.existsSync(path.join(workDir, 'build', 'ready'))).toBe(true);
    expect(fs.readFileSync(path.join(workDir, 'where.txt'), 'utf8').trim()).toBe(sandbox.workspacePath); // the workspace, as the sandbox shows it

    // The values are encrypted at rest.
    const row = await t.db.selectFrom('environments').selectAll().where('id', '=', env.uid).executeTakeFirstOrThrow();
    expect(row.env_vars).not.toContain('npm_secret_value');
    expect(row.env_vars).toMatch(/^v1\./);
  });

  it('does not hand the server process environment to setup commands', async () => {
    process.env.AGENT_RUNS_TEST_SERVER_SECRET = 'do-not-leak';
    try {
      const env = await createEnvironment(deps, admin(teamId), { name: 'plain', setup_commands: ['printf "%s" "${AGENT_RUNS_TEST_SERVER_SECRET:-unset}" > out.txt; test -n "$PATH"'] }, directCallAudit(teamId, 'environment', 'created'));
      await prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal);
      expect(fs.readFileSync(path.join(workDir, 'out.txt'), 'utf8')).toBe('unset');
    } finally {
      delete process.env.AGENT_RUNS_TEST_SERVER_SECRET;
    }
  });

  it('fails with environment_setup_failed naming the command, with its output and the secrets redacted, and stops there', async () => {
    const env = await createEnvironment(deps, admin(teamId), {
      name: 'broken',
      setup_commands: ['true', 'echo "token is $TOKEN" >&2; exit 7', 'touch never.txt'],
      env_vars: { TOKEN: 'tok_very_secret' },
    }, directCallAudit(teamId, 'environment', 'created'));
    const err = await prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnvironmentSetupError);
    const { statusMessage } = err as EnvironmentSetupError;
    expect(statusMessage).toEqual({ message: expect.any(String), error_code: 'environment_setup_failed', retryable: false });
    expect(statusMessage.message).toContain('setup command 2 of 3');
    expect(statusMessage.message).toContain('exited with code 7');
    expect(statusMessage.message).toContain('token is [redacted]');
    expect(statusMessage.message).not.toContain('tok_very_secret');
    expect(fs.existsSync(path.join(workDir, 'never.txt'))).toBe(false);
  });

  it('fails when a command outlasts its time limit', async () => {
    const env = await createEnvironment(deps, admin(teamId), { name: 'slow', setup_commands: ['sleep 5'] }, directCallAudit(teamId, 'environment', 'created'));
    const started = Date.now();
    await expect(
      prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal, { commandTimeoutMs: 200 }),
    ).rejects.toMatchObject({ statusMessage: { error_code: 'environment_setup_failed', message: expect.stringContaining('did not finish within') } });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops the running command on cancel', async () => {
    const marker = randomBytes(8).toString('hex');
    const env = await createEnvironment(deps, admin(teamId), { name: 'cancel', setup_commands: ['sleep 30 & wait'], env_vars: { SETUP_MARKER: marker } }, directCallAudit(teamId, 'environment', 'created'));
    const controller = new AbortController();
    const pending = prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, controller.signal);
    let pids: number[] = [];
    while ((pids = processesWithEnv('SETUP_MARKER', marker)).length < 2) await delay(20);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await delay(100);
    expect(pids.filter(isAlive)).toEqual([]); // the shell and its background sleep are gone
  });

  it('fails clearly when the environment was deleted after the run was created', async () => {
    const env = await createEnvironment(deps, admin(teamId), { name: 'gone' }, directCallAudit(teamId, 'environment', 'created'));
    await deleteEnvironment(deps, teamId, env.uid, directCallAudit(teamId, 'environment', 'deleted'));
    await expect(prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal)).rejects.toMatchObject({
      statusMessage: { error_code: 'environment_setup_failed', retryable: false, message: expect.stringContaining('no longer exists') },
    });
  });

  it('prepares from a run row: its resolved environment_id, or nothing without one', async () => {
    const env = await createEnvironment(deps, admin(teamId), { name: 'row', env_vars: { A: 'b' } }, directCallAudit(teamId, 'environment', 'created'));
    const signal = new AbortController().signal;
    expect(await prepareEnvironmentForRun(deps, { team_id: teamId, resolved_config: JSON.stringify({ environment_id: env.uid }), config: null }, sandbox, signal)).toEqual({
      env: { A: 'b' },
    });
    expect(await prepareEnvironmentForRun(deps, { team_id: teamId, resolved_config: '{}', config: null }, sandbox, signal)).toEqual({ env: {} });
  });

  it('never reads another team\'s environment', async () => {
    const other = (await createTeam(t.db, systemClock, `other-${randomBytes(3).toString('hex')}`)).id;
    const env = await createEnvironment(deps, admin(other), { name: 'theirs', env_vars: { X: 'y' } }, directCallAudit(other, 'environment', 'created'));
    await expect(prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal)).rejects.toBeInstanceOf(
      EnvironmentSetupError,
    );
  });
});
