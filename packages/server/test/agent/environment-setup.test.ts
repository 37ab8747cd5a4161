/**
 * Cloud environment preparation (engine/environment-setup.ts) on every test database: setup commands run
 * in the working directory with the environment's variables (which the agent does not get), failures
 * carry environment_setup_failed without the command's output (that goes to the setup log, secrets
 * scrubbed), cancel stops the command.
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
import {
  EnvironmentSetupError,
  prepareEnvironment,
  prepareEnvironmentForRun,
  SETUP_LOG_OUTPUT_BYTES,
  type SetupCommandRecord,
} from '../../src/engine/environment-setup';
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

  it('runs the setup commands in the working directory with the variables, and gives the agent the plain ones only', async () => {
    const env = await createEnvironment(
      deps,
      admin(teamId),
      {
        name: 'node',
        setup_commands: ['printf "%s" "$GREETING" > greeting.txt', 'mkdir -p build && touch build/ready', 'pwd > where.txt'],
        env_vars: { NPM_TOKEN: 'npm_secret_value' },
        plain_env_vars: { GREETING: 'hello-from-env' },
      },
      directCallAudit(teamId, 'environment', 'created'),
    );
    const result = await prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal);
    expect(result).toEqual({ env: { GREETING: 'hello-from-env' } });
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
      const env = await createEnvironment(
        deps,
        admin(teamId),
        { name: 'plain', setup_commands: ['printf "%s" "${AGENT_RUNS_TEST_SERVER_SECRET:-unset}" > out.txt; test -n "$PATH"'] },
        directCallAudit(teamId, 'environment', 'created'),
      );
      await prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal);
      expect(fs.readFileSync(path.join(workDir, 'out.txt'), 'utf8')).toBe('unset');
    } finally {
      delete process.env.AGENT_RUNS_TEST_SERVER_SECRET;
    }
  });

  it('fails with environment_setup_failed naming the command and its exit code only; its output goes to the setup log, scrubbed', async () => {
    const env = await createEnvironment(
      deps,
      admin(teamId),
      {
        name: 'broken',
        setup_commands: ['true', 'echo "token is $TOKEN, base64 $(printf %s "$TOKEN" | base64)" >&2; exit 7', 'touch never.txt'],
        env_vars: { TOKEN: 'tok_very_secret' },
      },
      directCallAudit(teamId, 'environment', 'created'),
    );
    const records: SetupCommandRecord[] = [];
    const recordCommand = async (record: SetupCommandRecord) => void records.push(record);
    const err = await prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal, { recordCommand }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EnvironmentSetupError);
    const { statusMessage } = err as EnvironmentSetupError;
    expect(statusMessage).toEqual({ message: expect.any(String), error_code: 'environment_setup_failed', retryable: false });
    expect(statusMessage.message).toContain('setup command 2 of 3 exited with code 7');
    expect(statusMessage.message).not.toContain('token is');
    expect(fs.existsSync(path.join(workDir, 'never.txt'))).toBe(false);
    expect(records.map((r) => [r.command_position, r.command_count, r.exit_code, r.result])).toEqual([
      [1, 3, 0, 'exited with code 0'],
      [2, 3, 7, 'exited with code 7'],
    ]);
    expect(records[1]!.output).toBe('token is ***, base64 ***\n');
  });

  it('keeps the tail of a long output in the setup log, scrubbing a secret that straddles the cut', async () => {
    const secret = 'straddling-secret-value';
    // 70 000 bytes of filler, the secret, then exactly as much as the log keeps minus part of the secret.
    const env = await createEnvironment(
      deps,
      admin(teamId),
      {
        name: 'long',
        setup_commands: [`head -c 70000 /dev/zero | tr '\\0' a; printf %s "$S"; head -c ${SETUP_LOG_OUTPUT_BYTES - 10} /dev/zero | tr '\\0' b`],
        env_vars: { S: secret },
      },
      directCallAudit(teamId, 'environment', 'created'),
    );
    const records: SetupCommandRecord[] = [];
    await prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal, {
      recordCommand: async (r) => void records.push(r),
    });
    expect(records[0]!.output_truncated).toBe(1);
    expect(records[0]!.output.length).toBe(SETUP_LOG_OUTPUT_BYTES);
    expect(records[0]!.output).not.toContain(secret.slice(-10));
    expect(records[0]!.output.endsWith('b'.repeat(SETUP_LOG_OUTPUT_BYTES - 10))).toBe(true);
  });

  it('fails when a command outlasts its time limit', async () => {
    // The command outlasts the test's own time limit: only being stopped at its limit lets the test end.
    const env = await createEnvironment(
      deps,
      admin(teamId),
      { name: 'slow', setup_commands: ['sleep 600'] },
      directCallAudit(teamId, 'environment', 'created'),
    );
    await expect(
      prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal, { commandTimeoutMs: 200 }),
    ).rejects.toMatchObject({ statusMessage: { error_code: 'environment_setup_failed', message: expect.stringContaining('did not finish within') } });
  });

  it('stops the running command on cancel', async () => {
    const marker = randomBytes(8).toString('hex');
    const env = await createEnvironment(
      deps,
      admin(teamId),
      { name: 'cancel', setup_commands: ['sleep 30 & wait'], env_vars: { SETUP_MARKER: marker } },
      directCallAudit(teamId, 'environment', 'created'),
    );
    const controller = new AbortController();
    const pending = prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, controller.signal);
    let pids: number[] = [];
    while ((pids = processesWithEnv('SETUP_MARKER', marker)).length < 2) await delay(20);
    controller.abort();
    // prepareEnvironment stops the sandbox's processes before it settles: nothing of them is left by now.
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
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
    const env = await createEnvironment(
      deps,
      admin(teamId),
      { name: 'row', env_vars: { A: 'b' }, plain_env_vars: { C: 'd' } },
      directCallAudit(teamId, 'environment', 'created'),
    );
    const signal = new AbortController().signal;
    const row = { id: randomBytes(8).toString('hex'), team_id: teamId, config: null };
    expect(await prepareEnvironmentForRun(deps, { ...row, resolved_config: JSON.stringify({ environment_id: env.uid }) }, sandbox, signal)).toEqual({
      env: { C: 'd' },
    });
    expect(await prepareEnvironmentForRun(deps, { ...row, resolved_config: '{}' }, sandbox, signal)).toEqual({ env: {} });
  });

  it("never reads another team's environment", async () => {
    const other = (await createTeam(t.db, systemClock, `other-${randomBytes(3).toString('hex')}`)).id;
    const env = await createEnvironment(deps, admin(other), { name: 'theirs', env_vars: { X: 'y' } }, directCallAudit(other, 'environment', 'created'));
    await expect(prepareEnvironment(deps, { teamId, environmentId: env.uid }, sandbox, new AbortController().signal)).rejects.toBeInstanceOf(
      EnvironmentSetupError,
    );
  });
});
