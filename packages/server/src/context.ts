/**
 * What every route, service and background job is given: built once in app start-up (main.ts) or by the
 * test harness, never reached through module-level singletons.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from './clock';
import type { Database } from './db/tables';
import type { Dialect } from './db/dialect';
import type { SecretBox } from './crypto/secret-box';
import type { Sandbox } from './engine/sandbox';
import type { Settings } from './settings';

export interface ServerContext {
  settings: Settings;
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  log: Logger;
  secrets: SecretBox;
  /** Where every process a run causes is started (engine/sandbox). */
  sandbox: Sandbox;
  /** Wakes idle workers when a run is queued, so claims do not wait for the next poll. */
  notifyRunQueued(): void;
}
