/**
 * The full server on 127.0.0.1:<random port> with a fresh database, for HTTP tests:
 *
 *   const server = await startTestServer();              // SQLite; or { database: kind } from testDatabases()
 *   const worker = await startTestServer({ sharing: server, env: { ROLE: 'worker' } }); // a second process on its database
 *   const { apiKey } = await server.createTeamWithKey('acme', 'member');
 *   await fetch(`${server.apiUrl}/agent/runs`, { headers: { authorization: `Bearer ${apiKey}` } });
 *   await server.close();
 *
 * Responses are validated against openapi/v1.yaml (a response that breaks the contract answers 500), the
 * team `default` has the admin key `adminKey` (BOOTSTRAP_ADMIN_KEY), the runner is `echo` unless `env`
 * says otherwise, and logs are silent unless TEST_LOG_LEVEL is set.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../src/clock';
import type { ServerContext } from '../../src/context';
import { createApiKey, type Role } from '../../src/api-keys/service';
import { createTeam } from '../../src/teams/service';
import { newApiKeyValue } from '../../src/crypto/ids';
import type { NotificationListener } from '../../src/db/notifications';
import { fireDueSchedules, type Engine, type EngineOptions } from '../../src/engine/index';
import type { FiringReport } from '../../src/engine/scheduler';
import type { NotificationDelivery, NotificationDeliveryOptions } from '../../src/notifications/delivery';
import { startServer } from '../../src/main';
import { loadSettings } from '../../src/settings';
import { sqliteKind, type TestDatabase, type TestDatabaseKind } from './databases';
import { testSandboxMode } from './sandbox';

export interface TestServerOverrides {
  /** Extra environment (settings) — e.g. { RUNNER: 'command', AGENT_COMMAND: '…' }. */
  env?: Record<string, string>;
  clock?: Clock;
  /** Which database kind (from testDatabases()); default: a fresh SQLite file. */
  database?: TestDatabaseKind;
  /**
   * Another test server whose database, data directory, secrets key and admin key this one shares, as
   * several processes on one database do (`database` is then ignored). Closing this server leaves the
   * database to the other.
   */
  sharing?: TestServer;
  /** Run-engine options (a test runner, `sweeper: false`, …), or false for no workers. Default: echo runner. */
  engine?: false | EngineOptions;
  /** Notification delivery options (the jitter, a poll interval), or false for no delivery workers. */
  notificationDelivery?: false | NotificationDeliveryOptions;
  /** The server's logger (e.g. pino writing into a buffer the test searches for secrets). */
  log?: Logger;
}

export interface TeamWithKey {
  teamId: string;
  teamName: string;
  apiKey: string;
  keyId: string;
}

export interface TestServer {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** http://127.0.0.1:<port>/api/v1 */
  apiUrl: string;
  /** Where the webhook ingress listens: baseUrl, or the INGRESS_PORT listener when env sets it. */
  ingressUrl: string;
  /** Admin key of team `default`. */
  adminKey: string;
  ctx: ServerContext;
  database: TestDatabase;
  /** The run engine (undefined with `engine: false` or without the worker role). */
  engine: Engine | undefined;
  /** The notification delivery workers (undefined with `notificationDelivery: false` or without the worker role). */
  notificationDelivery: NotificationDelivery | undefined;
  /** The LISTEN connection for other servers' run notices (PostgreSQL only). */
  notifications: NotificationListener | undefined;
  createTeamWithKey(name: string, role?: Role): Promise<TeamWithKey>;
  /**
   * One pass of the scheduled agents' firing loop at the server's clock (a test that moves its clock fires
   * the due slots with it; pass `engine: { scheduler: false }` so the loop does not race the test).
   */
  fireDueSchedules(): Promise<FiringReport>;
  close(): Promise<void>;
}

/** A member key of the team `default` (the one `adminKey` administers): a tenant's user next to its admin. */
export async function defaultTeamMemberKey(server: TestServer): Promise<string> {
  const team = await server.ctx.db.selectFrom('teams').select('id').where('name', '=', 'default').executeTakeFirstOrThrow();
  return (await createApiKey(server.ctx.db, server.ctx.clock, { teamId: team.id, name: 'member', role: 'member', createdBy: 'operator' })).api_key;
}

export async function startTestServer(overrides: TestServerOverrides = {}): Promise<TestServer> {
  const { sharing } = overrides;
  // A copy of the migrated template (support/databases.ts): the server's start-up migration, as in
  // production, then finds every migration applied.
  const database = sharing ? sharing.database : await (overrides.database ?? sqliteKind).create();
  const closeDatabase = sharing ? async () => {} : () => database.close();
  const adminKey = sharing ? sharing.adminKey : newApiKeyValue();
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.databaseUrl,
    DATA_DIR: database.dataDir,
    SECRETS_KEY: sharing?.ctx.settings.secretsKey ?? randomBytes(32).toString('base64'),
    BOOTSTRAP_ADMIN_KEY: adminKey,
    RUNNER: 'echo',
    ECHO_DELAY_MS: '50',
    WORKER_CONCURRENCY: '2',
    SANDBOX: testSandboxMode,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...overrides.env,
  };
  const settings = loadSettings(env);
  let running;
  try {
    running = await startServer(settings, {
      validateResponses: true,
      engine: overrides.engine ?? {},
      ...(overrides.notificationDelivery !== undefined ? { notificationDelivery: overrides.notificationDelivery } : {}),
      ...(overrides.clock ? { clock: overrides.clock } : {}),
      ...(overrides.log ? { log: overrides.log } : {}),
    });
  } catch (err) {
    await closeDatabase();
    throw err;
  }
  // Links the server renders (session_link, ingress_url) point at this listener unless the test set them.
  if (!overrides.env?.PUBLIC_BASE_URL) settings.publicBaseUrl = running.url;
  if (!overrides.env?.PUBLIC_INGRESS_URL && !overrides.env?.PUBLIC_BASE_URL) settings.publicIngressUrl = running.ingressUrl;

  const { ctx } = running;
  return {
    baseUrl: running.url,
    apiUrl: `${running.url}/api/v1`,
    ingressUrl: running.ingressUrl,
    adminKey,
    ctx,
    database,
    engine: running.engine,
    notificationDelivery: running.notificationDelivery,
    notifications: running.notifications,
    async createTeamWithKey(name, role = 'admin') {
      const team = await createTeam(ctx.db, ctx.clock, name);
      const key = await createApiKey(ctx.db, ctx.clock, { teamId: team.id, name: `${name}-${role}`, role, createdBy: 'operator' });
      return { teamId: team.id, teamName: team.name, apiKey: key.api_key, keyId: key.key_id };
    },
    fireDueSchedules: () => fireDueSchedules(ctx),
    async close() {
      try {
        await running.close();
      } finally {
        await closeDatabase();
      }
    },
  };
}
