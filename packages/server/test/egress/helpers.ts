import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

export interface Target {
  port: number;
  /** Requests the target answered (method, url, headers). */
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  /** TCP connections the target accepted (a denied request must leave this at 0). */
  connections: number;
  close(): Promise<void>;
}

/** A plain HTTP server on 127.0.0.1 that records what reaches it; `handler` may answer differently. */
export async function startTarget(handler?: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Target> {
  const target: Target = { port: 0, requests: [], connections: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    target.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (handler) return handler(req, res);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`hello from ${target.port}`);
  });
  server.on('connection', () => {
    target.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target.port = (server.address() as AddressInfo).port;
  target.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return target;
}

/** A port on 127.0.0.1 that nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
