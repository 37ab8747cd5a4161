/** Builds ServerContexts over the shared test databases and seeds teams and runs as the runs API would. */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { ManualClock, toTimestamp, type Clock } from '../../src/clock';
import type { ServerContext } from '../../src/context';
import type { SecretBox } from '../../src/crypto/secret-box';
import type { RunsTable } from '../../src/db/tables';
import type { Selectable } from 'kysely';
import { findRun, type RunRow } from '../../src/runs/repository';
import { RunSignals } from '../../src/runs/signals';
import { NotificationOutbox } from '../../src/notifications/outbox';
import { recordRunCreated } from '../../src/runs/transitions';
import { createImageCache } from '../../src/engine/images/cache';
import { createModelGateway } from '../../src/engine/gateway/gateway';
import { createSandbox } from '../../src/engine/sandbox';
import { loadSettings, type Settings } from '../../src/settings';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { MatcherCache } from '../../src/automations/matcher-cache';
import { ModelCatalog } from '../../src/engine/runners/model-list';
import { WebhookSecretCache } from '../../src/webhooks/secret-cache';
import type { TestDatabase, TestDatabaseKind } from '../support/databases';
import { testSandboxMode } from '../support/sandbox';

export interface EngineTestContext extends ServerContext {
  queuedNotifications: number;
}

export function makeContext(t: TestDatabase, options: { clock?: Clock; env?: Record<string, string>; settings?: Partial<Settings> } = {}): EngineTestContext {
  const base = loadSettings({
    DATABASE_URL: t.databaseUrl,
    DATA_DIR: t.dataDir,
    SECRETS_KEY: Buffer.alloc(32).toString('base64'),
    SANDBOX: testSandboxMode,
    ...options.env,
  });
  const settings = { ...base, ...options.settings };
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const secrets = {} as SecretBox;
  const runSignals = new RunSignals();
  const modelGateway = createModelGateway(settings, log);
  const clock = options.clock ?? new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
  const ctx: EngineTestContext = {
    settings,
    db: t.db,
    dialect: t.dialect,
    clock,
    log,
    secrets,
    webhookSecretCache: new WebhookSecretCache(secrets),
    matcherCache: new MatcherCache(),
    modelCatalog: new ModelCatalog(settings, clock, log),
    modelGateway,
    sandbox: createSandbox(settings, log, modelGateway),
    images: createImageCache(settings),
    runSignals,
    notificationOutbox: new NotificationOutbox(settings, runSignals),
    queuedNotifications: 0,
    notifyRunQueued() {
      ctx.queuedNotifications++;
    },
    notifyScheduleChanged() {},
  };
  return ctx;
}

export async function createTeam(ctx: ServerContext, name = `team-${randomUUID().slice(0, 8)}`): Promise<string> {
  const id = `team_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
  await ctx.db
    .insertInto('teams')
    .values({ id, name, created_at: toTimestamp(ctx.clock.now()) })
    .execute();
  return id;
}

/** Inserts a QUEUED run the way the runs API does (row + first state event + turn 1 with the prompt). */
export async function createRun(
  ctx: ServerContext,
  teamId: string,
  overrides: Partial<Selectable<RunsTable>> & { attachments?: Array<{ file_name: string; mime_type: string; data: Buffer }> } = {},
): Promise<RunRow> {
  const { attachments = [], ...columns } = overrides;
  const now = toTimestamp(ctx.clock.now());
  const row: Selectable<RunsTable> = {
    id: randomUUID(),
    team_id: teamId,
    title: 'test run',
    prompt: 'say hello',
    state: 'QUEUED',
    source: 'API',
    creator_type: 'service_account',
    creator_uid: 'key_test',
    creator_display_name: 'test key',
    creator_email: null,
    status_message: null,
    image_digest: null,
    session_id: randomUUID(),
    config: null,
    resolved_config: null,
    runner: null,
    factory_id: null,
    automation_id: null,
    delivery_id: null,
    metadata: null,
    parent_run_id: null,
    schedule_id: null,
    schedule: null,
    usage: null,
    event_seq: 0,
    output_bytes: 0,
    trace_context: null,
    lease_owner: null,
    lease_expires_at: null,
    claim_count: 0,
    cancel_requested_at: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    completed_at: null,
    ...columns,
  };
  await ctx.db.transaction().execute(async (tx) => {
    await tx.insertInto('runs').values(row).execute();
    for (const a of attachments) {
      await tx
        .insertInto('run_attachments')
        .values({ run_id: row.id, team_id: teamId, file_name: a.file_name, mime_type: a.mime_type, size: a.data.length, data: a.data, created_at: now })
        .execute();
    }
    await recordRunCreated(tx, ctx.notificationOutbox, row);
  });
  return (await findRun(ctx, teamId, row.id))!;
}

export async function getRun(ctx: ServerContext, run: { id: string; team_id: string }): Promise<RunRow> {
  const found = await findRun(ctx, run.team_id, run.id);
  if (!found) throw new Error(`run ${run.id} not found`);
  return found;
}

/**
 * Polls (real time, short interval) until `check` returns a value; for asynchronous worker progress. The
 * deadline only bounds a failure: on a loaded 2-vCPU machine a second execution (claim, workspace mount,
 * sandbox start) has taken over 5 s, so it is generous.
 */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, { timeoutMs = 15_000, intervalMs = 10 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await delay(intervalMs);
  }
}

export async function waitForState(ctx: ServerContext, run: { id: string; team_id: string }, states: string[], timeoutMs = 15_000): Promise<RunRow> {
  return waitFor(
    async () => {
      const current = await getRun(ctx, run);
      return states.includes(current.state) ? current : undefined;
    },
    { timeoutMs },
  );
}

export const advance = (ctx: ServerContext, ms: number): void => (ctx.clock as ManualClock).advance(ms);

/**
 * One database per test file and dialect (creating a PostgreSQL database per test costs ~1 s); every test
 * starts with no runs, a fresh ManualClock and a fresh team. The claim is service-wide, so runs of earlier
 * tests must not linger.
 */
export function useEngineDatabase(
  kind: TestDatabaseKind,
  options: { clock?: () => Clock; env?: Record<string, string>; settings?: Partial<Settings> } = {},
): { readonly t: TestDatabase; readonly ctx: EngineTestContext; readonly team: string } {
  let t: TestDatabase | undefined;
  let ctx: EngineTestContext | undefined;
  let team: string | undefined;
  beforeAll(async () => {
    t = await kind.create();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t!.db.deleteFrom('runs').execute();
    ctx = makeContext(t!, { clock: options.clock?.(), env: options.env, settings: options.settings });
    team = await createTeam(ctx);
  });
  return {
    get t() {
      return t!;
    },
    get ctx() {
      return ctx!;
    },
    get team() {
      return team!;
    },
  };
}
