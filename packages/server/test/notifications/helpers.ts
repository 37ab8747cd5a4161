/**
 * Real receivers of outbound notifications for the tests: node:http servers on 127.0.0.1 that record every
 * request and answer what the test scripts, and a verifier that checks each delivery with the
 * `standardwebhooks` reference library, as a subscriber would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../../src/clock';

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
        received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), arrivedAt, answeredAt: performance.now() });
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
    waitFor(count, timeoutMs = 10_000) {
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
