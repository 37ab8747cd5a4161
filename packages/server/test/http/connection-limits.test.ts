/**
 * Listener protection (src/http/connection-limits.ts) over raw sockets on 127.0.0.1, on the REST listener
 * and the INGRESS_PORT one: header and request timeouts cut slow clients, and each remote address holds at
 * most MAX_CONNECTIONS_PER_ADDRESS connections per listener.
 */
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { restClient } from '../webhooks/helpers';

const GIVE_UP_MS = 8_000;

/**
 * Connects to `url`, writes `head`, then writes `drip` every 200 ms (a client that is sending, just slowly).
 * Resolves with how long the server took to close the connection (Infinity: it did not within GIVE_UP_MS)
 * and what it answered.
 */
function slowClient(url: string, head: string, drip: string): Promise<{ ms: number; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    const dripping = setInterval(() => socket.writable && socket.write(drip), 200);
    const giveUp = setTimeout(() => finish(Infinity), GIVE_UP_MS);
    const finish = (ms: number) => {
      clearInterval(dripping);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ ms, answer });
    };
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => finish(Date.now() - started));
  });
}

/**
 * Opens a connection and sends one keep-alive `GET /healthz`. Resolves with the socket once the server has
 * answered on it, or with `answered: false` when the server closed the connection without an answer.
 */
function connectAndRequest(url: string, localAddress?: string): Promise<{ socket: net.Socket; answered: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(port), host: hostname, ...(localAddress ? { localAddress } : {}) }, () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n'),
    );
    socket.once('data', () => resolve({ socket, answered: true }));
    socket.on('error', () => {});
    socket.once('close', () => resolve({ socket, answered: false }));
  });
}

describe('header and request timeouts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      engine: false,
      env: { INGRESS_PORT: '0', HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2' },
    });
  });
  afterAll(() => server?.close());

  it('headers that never finish are cut after HTTP_HEADERS_TIMEOUT_SECONDS, on both listeners', async () => {
    const cut = await Promise.all(
      [server.baseUrl, server.ingressUrl].map((url) => slowClient(url, 'POST /webhooks/w/wh_x HTTP/1.1\r\nHost: test\r\n', 'X-Slow: 1\r\n')),
    );
    for (const { ms, answer } of cut) {
      expect(ms).toBeLessThan(3_500); // 1 s, plus up to 1 s until node:http checks
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    }
  });

  it('a slow body is cut after HTTP_REQUEST_TIMEOUT_SECONDS: to the ingress, and to the REST API', async () => {
    const api = restClient(server, server.adminKey);
    const wh = await api.createWebhook(await api.createFactory('slow'), { name: 'slow' });
    const ingressPath = new URL(wh.ingress_url).pathname;
    const head = (path: string, auth: string) =>
      `POST ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${auth}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":"`;
    const cut = await Promise.all([
      slowClient(server.ingressUrl, head(ingressPath, wh.secret as string), 'x'),
      slowClient(server.baseUrl, head('/api/v1/agent/runs', server.adminKey), 'x'),
    ]);
    for (const { ms, answer } of cut) {
      expect(ms).toBeGreaterThanOrEqual(1_900);
      expect(ms).toBeLessThan(4_500); // 2 s, plus up to 1 s until node:http checks
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    }
    expect((await api.deliveries(wh.factory_uid, wh.uid)).length).toBe(0);
  });
});

describe('connections per address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine: false, env: { INGRESS_PORT: '0', MAX_CONNECTIONS_PER_ADDRESS: '3' } });
  });
  afterAll(() => server?.close());

  it.each([
    ['REST', () => server.baseUrl],
    ['ingress', () => server.ingressUrl],
  ])('the %s listener closes a connection over MAX_CONNECTIONS_PER_ADDRESS at once; other addresses and freed slots are served', async (_name, urlOf) => {
    const url = urlOf();
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const { socket, answered } = await connectAndRequest(url);
        held.push(socket);
        expect(answered).toBe(true);
      }
      const excess = await connectAndRequest(url);
      expect(excess.answered).toBe(false);
      // Another address (127.0.0.2 on the loopback network) has its own count.
      const other = await connectAndRequest(url, '127.0.0.2');
      expect(other.answered).toBe(true);
      other.socket.destroy();
      // A closed connection frees its place (the server sees the close a moment later).
      held.pop()!.destroy();
      const deadline = Date.now() + 2_000;
      let again = await connectAndRequest(url);
      while (!again.answered && Date.now() < deadline) {
        await delay(50);
        again = await connectAndRequest(url);
      }
      expect(again.answered).toBe(true);
      held.push(again.socket);
    } finally {
      held.forEach((s) => s.destroy());
    }
  });
});
