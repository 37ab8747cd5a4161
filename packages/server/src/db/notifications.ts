/**
 * PostgreSQL LISTEN/NOTIFY between the processes that share one database (docs/architecture.md §Several
 * processes). A notification is queued inside the writer's transaction and PostgreSQL delivers it only if
 * that transaction commits; each process LISTENs on one dedicated connection, outside the query pool.
 * Delivery is best effort (a listener that is reconnecting misses what was sent meanwhile), so every
 * consumer keeps its polling as the safety net. SQLite has no notifications: there polling is the only way.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { dialectOfDb } from './dialect';

/**
 * Queues `payload` on `channel` in the transaction `tx`; delivered to every listener when it commits.
 * Nothing on SQLite. Keep payloads small: PostgreSQL refuses 8000 bytes and more.
 */
export async function notifyOnCommit(tx: Kysely<any>, channel: string, payload: string): Promise<void> {
  if (dialectOfDb(tx) !== 'postgres') return;
  await tx.executeQuery(CompiledQuery.raw('select pg_notify($1, $2)', [channel, payload]));
}

export interface NotificationListener {
  /** Whether the LISTEN connection is up right now. */
  readonly listening: boolean;
  stop(): Promise<void>;
}

export interface ListenOptions {
  databaseUrl: string;
  channel: string;
  log: Logger;
  onNotification(payload: string): void;
  /** Each time LISTEN is (re-)established: what was sent while it was down is lost, so consumers catch up. */
  onListening?(): void;
  /** First reconnect delay; it doubles up to `maxBackoffMs` while connecting fails (default 250 ms and 10 s). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * LISTENs on `channel` over a connection of its own and keeps doing so: when the connection drops (the
 * database restarted, a network cut) it reconnects with exponential backoff.
 */
export function listenForNotifications(options: ListenOptions): NotificationListener {
  const initialBackoffMs = options.initialBackoffMs ?? 250;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const log = options.log.child({ component: 'notifications', channel: options.channel });
  let stopped = false;
  let client: pg.Client | undefined;
  let listening = false;
  let backoffMs = initialBackoffMs;
  let retryTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;

  const scheduleReconnect = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connecting = connect();
    }, backoffMs);
    retryTimer.unref();
    backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
  };

  const connect = async (): Promise<void> => {
    const candidate = new pg.Client({ connectionString: options.databaseUrl });
    // A dropped connection emits 'error' (and then 'end'); either way: forget it and reconnect.
    const lost = (err?: Error) => {
      if (client !== candidate) return;
      client = undefined;
      if (listening) log.warn({ err }, 'notification connection lost; polling covers the gap until it is back');
      listening = false;
      candidate.removeAllListeners('notification');
      void candidate.end().catch(() => {});
      scheduleReconnect();
    };
    candidate.on('error', lost);
    candidate.on('end', () => lost());
    candidate.on('notification', (message) => {
      if (message.channel === options.channel && message.payload !== undefined) options.onNotification(message.payload);
    });
    client = candidate;
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
    } catch (err) {
      if (client === candidate) {
        client = undefined;
        log.warn({ err, retry_in_ms: backoffMs }, 'cannot LISTEN for notifications yet');
        void candidate.end().catch(() => {});
        scheduleReconnect();
      }
      return;
    }
    if (stopped || client !== candidate) {
      await candidate.end().catch(() => {});
      return;
    }
    listening = true;
    backoffMs = initialBackoffMs;
    options.onListening?.();
  };

  connecting = connect();
  return {
    get listening() {
      return listening;
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      await connecting;
      const current = client;
      client = undefined;
      listening = false;
      await current?.end().catch(() => {});
    },
  };
}
