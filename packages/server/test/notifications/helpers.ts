/**
 * The notification tests' world: real receivers on 127.0.0.1 (node:http servers that record every request
 * and answer what the test scripts), a verifier that checks each delivery with the `standardwebhooks`
 * reference library as a subscriber would, and a server (no run workers unless asked, a ManualClock, the
 * receiver's address allowed) with admin and member clients.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { expect, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createApiKey } from '../../src/api-keys/service';
import { ManualClock, type Clock } from '../../src/clock';
import type { TestDatabaseKind } from '../support/databases';
import { apiClient, type ApiClient, type HttpResponse } from '../support/http';
import { startTestServer, type TestServer, type TestServerOverrides } from '../support/server';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Real time the request arrived and was answered (performance.now()). */
  arrivedAt: number;
  answeredAt: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Real milliseconds to wait before answering. */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** What to answer the next requests (one entry each, in order); then `fallback`. */
  script(...answers: Answer[]): void;
  fallback: Answer;
  /** Resolves once `count` requests were answered (rejects after timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const scripted: Answer[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const arrivedAt = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = scripted.shift() ?? receiver.fallback;
      const respond = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
        received.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          arrivedAt,
          answeredAt: performance.now(),
        });
        for (const w of [...waiters]) w();
      };
      if (answer.delayMs) setTimeout(respond, answer.delayMs);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    received,
    fallback: { status: 204 },
    script: (...answers) => void scripted.push(...answers),
    waitFor(count, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(received.slice(0, count));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${received.length} of ${count} requests`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/**
 * Verifies `request` with the Standard Webhooks reference library as a subscriber holding `secret` would,
 * its clock agreeing with the server's (`clock`; the library reads Date.now() for the timestamp tolerance).
 * Returns the parsed body; throws WebhookVerificationError when the signature does not verify.
 */
export function verifyDelivery(request: ReceivedRequest, secret: string, clock: Clock): any {
  vi.spyOn(Date, 'now').mockReturnValue(clock.now().getTime());
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    vi.mocked(Date.now).mockRestore();
  }
}

// ---------------------------------------------------------------------------------------------------
// A server with notifications, its clients and a receiver

export interface NotificationWorld {
  server: TestServer;
  clock: ManualClock;
  receiver: Receiver;
  admin: ApiClient;
  member: ApiClient;
  /** Creates a subscription (201 expected) to the receiver unless `url` says otherwise. */
  subscribe(body: Record<string, unknown>): Promise<{ uid: string; secret: string; view: any }>;
  /** The subscription's attempts log, newest first (every page). */
  attempts(uid: string, query?: string): Promise<any[]>;
  /** Wakes the delivery workers and waits until the log holds `count` attempts (real time, short polls). */
  waitForAttempts(uid: string, count: number, timeoutMs?: number): Promise<any[]>;
  /** Wakes the delivery workers and waits until `done` holds for the log (newest first). */
  waitForLog(uid: string, done: (attempts: any[]) => boolean, timeoutMs?: number): Promise<any[]>;
  /** The subscription's outbox rows, oldest first (the database, as a subscriber cannot see it). */
  messages(uid: string): Promise<Array<{ event_id: string; event_type: string; run_id: string; status: string; attempts: number }>>;
  close(): Promise<void>;
}

/** Jitter fixed at the middle of its range: each retry delay is three quarters of the doubled base. */
export const MIDDLE_JITTER = () => 0.5;

/**
 * `allowedHosts` is NOTIFICATIONS_ALLOWED_HOSTS, given the receiver (default: `127.0.0.1`, the receivers'
 * address: internal, so only an operator's exact IP opens it).
 */
export async function startNotificationWorld(
  kind: TestDatabaseKind,
  overrides: TestServerOverrides = {},
  { allowedHosts = () => '127.0.0.1' }: { allowedHosts?: (receiver: Receiver) => string } = {},
): Promise<NotificationWorld> {
  const clock = new ManualClock(new Date());
  const receiver = await startReceiver();
  const server = await startTestServer({
    database: kind,
    clock,
    engine: false,
    notificationDelivery: { random: MIDDLE_JITTER },
    ...overrides,
    env: { NOTIFICATIONS_ALLOWED_HOSTS: allowedHosts(receiver), ...overrides.env },
  });
  const team = await server.ctx.db.selectFrom('teams').select('id').where('name', '=', 'default').executeTakeFirstOrThrow();
  const memberKey = await createApiKey(server.ctx.db, clock, { teamId: team.id, name: 'member', role: 'member', createdBy: 'operator' });
  const admin = apiClient(server.apiUrl, server.adminKey);
  const attempts = async (uid: string, query = '') => {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const res: HttpResponse = await admin.get(`/notifications/subscriptions/${uid}/attempts?limit=500${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status, res.text).toBe(200);
      all.push(...res.body.attempts);
      cursor = res.body.page_info.next_cursor;
    } while (cursor);
    return all;
  };
  const waitForLog = async (uid: string, done: (attempts: any[]) => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      server.notificationDelivery?.wake();
      const found = await attempts(uid);
      if (done(found)) return found;
      if (Date.now() > deadline)
        throw new Error(`subscription ${uid}: the attempts log never got there (${found.length} attempts: ${JSON.stringify(found.slice(0, 3))})`);
      await delay(15);
    }
  };
  return {
    server,
    clock,
    receiver,
    admin,
    member: apiClient(server.apiUrl, memberKey.api_key),
    async subscribe(body) {
      const res = await admin.post('/notifications/subscriptions', { url: receiver.url, ...body });
      expect(res.status, res.text).toBe(201);
      return { uid: res.body.uid, secret: res.body.secret, view: res.body };
    },
    attempts,
    waitForAttempts: (uid, count, timeoutMs) => waitForLog(uid, (found) => found.length >= count, timeoutMs),
    waitForLog,
    async messages(uid) {
      const rows = await server.ctx.db
        .selectFrom('notification_messages')
        .select(['event_id', 'event_type', 'run_id', 'status', 'attempts', 'order_key'])
        .where('subscription_id', '=', uid)
        .orderBy('order_key')
        .execute();
      return rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
    },
    async close() {
      await server.close();
      await receiver.close();
    },
  };
}

/** Creates a run over the API (200 expected); answers its id. */
export async function createRun(client: ApiClient, body: Record<string, unknown> = { prompt: 'Say hello' }): Promise<string> {
  const res = await client.post('/agent/runs', body);
  expect(res.status, res.text).toBe(200);
  return res.body.run_id as string;
}
