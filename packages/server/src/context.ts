/**
 * What every route, service and background job is given: built once in app start-up (main.ts) or by the
 * test harness, never reached through module-level singletons.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { MatcherCache } from './automations/matcher-cache';
import type { Clock } from './clock';
import type { Database } from './db/tables';
import type { Dialect } from './db/dialect';
import type { SecretBox } from './crypto/secret-box';
import type { ModelGateway } from './engine/gateway/gateway';
import type { ModelCatalog } from './engine/runners/model-list';
import type { ImageCache } from './engine/images/cache';
import type { Sandbox } from './engine/sandbox';
import type { NotificationOutbox } from './notifications/outbox';
import type { RunSignals } from './runs/signals';
import type { Settings } from './settings';
import type { WebhookSecretCache } from './webhooks/secret-cache';

export interface ServerContext {
  settings: Settings;
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  log: Logger;
  secrets: SecretBox;
  /** The ingress's decrypted webhook secrets (webhooks/secret-cache.ts). */
  webhookSecretCache: WebhookSecretCache;
  /** Compiled automation filters per webhook, by automation version (automations/matcher-cache.ts). */
  matcherCache: MatcherCache;
  /** The models GET /agent/models lists, the provider's list kept between requests (engine/runners/model-list.ts). */
  modelCatalog: ModelCatalog;
  /** The model gateway the run's processes and the built-in agent reach models through (engine/gateway). */
  modelGateway: ModelGateway;
  /** Where every process a run causes is started (engine/sandbox). */
  sandbox: Sandbox;
  /** The unpacked environment images of this server, pulled once per digest (engine/images/cache.ts). */
  images: ImageCache;
  /** Run-event listeners (SSE), in-flight executions (cancel) and run notices between processes (runs/signals.ts). */
  runSignals: RunSignals;
  /** Records the outbound notifications of every run state change in its transaction (notifications/outbox.ts). */
  notificationOutbox: NotificationOutbox;
  /** Wakes idle workers when a run is queued, so claims do not wait for the next poll. */
  notifyRunQueued(): void;
  /** Wakes this process's scheduled-agent firing loop after a schedule changed here (engine/scheduler.ts). */
  notifyScheduleChanged(): void;
}
