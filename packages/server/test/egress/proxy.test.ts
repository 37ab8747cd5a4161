import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEgressPolicy } from '../../src/engine/egress/policy';
import { startEgressProxy, type EgressDenial, type EgressProxy } from '../../src/engine/egress/proxy';
import { closedPort, startTarget, type Target } from './helpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function target(): Promise<Target> {
  const t = await startTarget((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', connection: 'close, x-upstream-hop', 'x-upstream-hop': 'dropped', 'x-upstream': 'yes' });
    res.end(`hello ${req.method} ${req.url}`);
  });
  cleanups.push(() => t.close());
  return t;
}

interface Started {
  proxy: EgressProxy;
  socketPath: string;
  denials: EgressDenial[];
}

async function proxy(network: 'none' | 'allowlist' | 'open', allowedHosts: string[]): Promise<Started> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'egress-'));
  fs.chmodSync(dir, 0o700);
  const socketPath = path.join(dir, 'proxy.sock');
  const denials: EgressDenial[] = [];
  const started = await startEgressProxy({
    policy: createEgressPolicy({ network, allowedHosts }),
    socketPath,
    onDenied: (denial) => denials.push(denial),
  });
  cleanups.push(async () => {
    await started.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { proxy: started, socketPath, denials };
}

interface ConnectResult {
  status: number;
  socket: net.Socket;
  /** Bytes the proxy sent after its response head (the 403/502 body), read until the proxy closes. */
  rest: () => Promise<string>;
}

/** Send `CONNECT authority` through the proxy's unix socket with node's http client. */
function connectThrough(socketPath: string, authority: string): Promise<ConnectResult> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'CONNECT', path: authority, headers: { host: authority } });
    req.on('error', reject);
    req.on('connect', (res: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      const rest = () =>
        new Promise<string>((done) => {
          const chunks: Buffer[] = [head];
          socket.on('data', (chunk: Buffer) => chunks.push(chunk));
          socket.on('close', () => done(Buffer.concat(chunks).toString('utf8')));
        });
      resolve({ status: res.statusCode ?? 0, socket, rest });
    });
    req.end();
  });
}

/** Send one request through the proxy (absolute-form `path`), return status, headers and body. */
function requestThrough(
  socketPath: string,
  requestPath: string,
  headers: http.OutgoingHttpHeaders = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method, path: requestPath, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? 'payload' : undefined);
  });
}

/** Raw HTTP/1.1 GET over an established tunnel; resolves with everything the target sent. */
function getOverTunnel(socket: net.Socket, host: string): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(`GET /through-tunnel HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

describe('startEgressProxy', () => {
  it('listens on a unix socket only its owner may use', async () => {
    const { socketPath } = await proxy('allowlist', []);
    const stat = fs.statSync(socketPath);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('CONNECT to a listed local server tunnels end to end', async () => {
    const t = await target();
    const { socketPath, denials } = await proxy('allowlist', [`127.0.0.1:${t.port}`]);
    const { status, socket } = await connectThrough(socketPath, `127.0.0.1:${t.port}`);
    expect(status).toBe(200);
    const answer = await getOverTunnel(socket, `127.0.0.1:${t.port}`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toContain('hello GET /through-tunnel');
    expect(t.requests).toMatchObject([{ method: 'GET', url: '/through-tunnel' }]);
    expect(denials).toEqual([]);
  });

  it('CONNECT to a port that is not listed answers 403, reports the denial once and never dials', async () => {
    const t = await target();
    const other = await target();
    const { socketPath, denials } = await proxy('allowlist', [`127.0.0.1:${other.port}`]);
    const result = await connectThrough(socketPath, `127.0.0.1:${t.port}`);
    expect(result.status).toBe(403);
    const body = await result.rest();
    expect(body).toBe(`egress to 127.0.0.1:${t.port} denied: port ${t.port} of 127.0.0.1 is not in SANDBOX_ALLOWED_HOSTS\n`);
    expect(denials).toEqual([{ host: '127.0.0.1', port: t.port, reason: `port ${t.port} of 127.0.0.1 is not in SANDBOX_ALLOWED_HOSTS` }]);
    expect(t.connections).toBe(0);
  });

  it('CONNECT to a listed NAME that resolves to loopback is refused by the address check', async () => {
    const t = await target();
    const { socketPath, denials } = await proxy('allowlist', ['localhost']);
    const result = await connectThrough(socketPath, `localhost:${t.port}`);
    expect(result.status).toBe(403);
    expect(await result.rest()).toMatch(/denied: (127\.0\.0\.1|::1) is a loopback address\n$/);
    expect(denials).toHaveLength(1);
    expect(t.connections).toBe(0);
  });

  it('absolute-form GET is forwarded without hop-by-hop and Proxy-* headers, and answered', async () => {
    const t = await target();
    const { socketPath, denials } = await proxy('allowlist', [`127.0.0.1:${t.port}`]);
    const response = await requestThrough(
      socketPath,
      `http://127.0.0.1:${t.port}/hello?x=1`,
      {
        host: `127.0.0.1:${t.port}`,
        'proxy-authorization': 'Basic c2VjcmV0',
        'proxy-connection': 'keep-alive',
        connection: 'x-hop',
        'x-hop': 'dropped',
        'x-keep': 'kept',
      },
      'POST',
    );
    expect(response.status).toBe(200);
    expect(response.body).toBe('hello POST /hello?x=1');
    expect(response.headers['x-upstream']).toBe('yes');
    expect(response.headers['x-upstream-hop']).toBeUndefined();
    expect(t.requests).toHaveLength(1);
    const seen = t.requests[0]!.headers;
    expect(seen.host).toBe(`127.0.0.1:${t.port}`);
    expect(seen['x-keep']).toBe('kept');
    expect(seen['x-hop']).toBeUndefined();
    expect(seen['proxy-authorization']).toBeUndefined();
    expect(seen['proxy-connection']).toBeUndefined();
    expect(denials).toEqual([]);
  });

  it('a denied GET answers 403 with a one-line body and the target sees nothing', async () => {
    const t = await target();
    const { socketPath, denials } = await proxy('open', []);
    const response = await requestThrough(socketPath, `http://127.0.0.1:${t.port}/secret`);
    expect(response.status).toBe(403);
    expect(response.body).toBe(`egress to 127.0.0.1:${t.port} denied: 127.0.0.1 is a loopback address\n`);
    expect(denials).toEqual([{ host: '127.0.0.1', port: t.port, reason: '127.0.0.1 is a loopback address' }]);
    expect(t.connections).toBe(0);
    expect(t.requests).toEqual([]);
  });

  it('network none refuses even a listed target', async () => {
    const t = await target();
    const { socketPath, denials } = await proxy('none', [`127.0.0.1:${t.port}`]);
    expect((await requestThrough(socketPath, `http://127.0.0.1:${t.port}/`)).status).toBe(403);
    expect((await connectThrough(socketPath, `127.0.0.1:${t.port}`)).status).toBe(403);
    expect(denials).toHaveLength(2);
    expect(t.connections).toBe(0);
  });

  it('malformed requests get 400 and no denial', async () => {
    const { socketPath, denials } = await proxy('open', []);
    expect((await requestThrough(socketPath, '/origin-form')).status).toBe(400);
    expect((await requestThrough(socketPath, 'https://example.com/')).status).toBe(400);
    expect((await connectThrough(socketPath, 'no-port-here')).status).toBe(400);
    expect((await connectThrough(socketPath, 'host:99999')).status).toBe(400);
    const raw = await new Promise<string>((resolve) => {
      const socket = net.connect(socketPath);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write('NOT HTTP AT ALL\r\n\r\n');
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(denials).toEqual([]);
  });

  it('an upstream that refuses the connection gives 502', async () => {
    const port = await closedPort();
    const { socketPath, denials } = await proxy('allowlist', [`127.0.0.1:${port}`]);
    const tunnel = await connectThrough(socketPath, `127.0.0.1:${port}`);
    expect(tunnel.status).toBe(502);
    expect(await tunnel.rest()).toContain('ECONNREFUSED');
    const plain = await requestThrough(socketPath, `http://127.0.0.1:${port}/`);
    expect(plain.status).toBe(502);
    expect(denials).toEqual([]);
  });

  it('survives clients that vanish mid-tunnel and mid-request', async () => {
    const t = await target();
    const { socketPath } = await proxy('allowlist', [`127.0.0.1:${t.port}`]);
    const { socket } = await connectThrough(socketPath, `127.0.0.1:${t.port}`);
    socket.destroy();
    const half = net.connect(socketPath);
    await new Promise((resolve) => half.once('connect', resolve));
    half.write(`GET http://127.0.0.1:${t.port}/ HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nContent-Length: 100\r\n\r\npart`);
    // The target answers at the headers: its answer coming back shows the proxy is mid-request.
    await new Promise((resolve) => half.once('data', resolve));
    half.destroy();
    // Still serving: a fresh request goes through.
    const { status, socket: again } = await connectThrough(socketPath, `127.0.0.1:${t.port}`);
    expect(status).toBe(200);
    expect(await getOverTunnel(again, `127.0.0.1:${t.port}`)).toContain('hello GET');
  });

  it('close() ends open tunnels and removes the socket file', async () => {
    const t = await target();
    const { proxy: started, socketPath } = await proxy('allowlist', [`127.0.0.1:${t.port}`]);
    const { status, socket } = await connectThrough(socketPath, `127.0.0.1:${t.port}`);
    expect(status).toBe(200);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await started.close();
    await closed;
    expect(fs.existsSync(socketPath)).toBe(false);
    await expect(connectThrough(socketPath, `127.0.0.1:${t.port}`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
