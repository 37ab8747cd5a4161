/**
 * The egress proxy of a sandboxed run: its only way out of a network namespace that has no network.
 * The sandbox reaches it through a unix socket (bridged to 127.0.0.1:3128 inside, HTTP(S)_PROXY set).
 *
 * Supports what HTTP_PROXY/HTTPS_PROXY clients send:
 *  - `CONNECT host:port` → a raw TCP tunnel (HTTPS and anything else over TLS);
 *  - absolute-form plain HTTP (`GET http://host:port/path`) → forwarded, hop-by-hop and Proxy-* headers removed.
 *
 * Both apply the policy twice: to the requested name, then to the resolved address, and dial THAT
 * vetted address — there is no second DNS lookup a rebinding name could answer differently.
 * Nothing a client or an upstream does may throw out of here: this runs in the server process.
 */
import type { LookupAddress } from 'node:dns';
import dns from 'node:dns/promises';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { GatewayEntrance } from '../gateway/gateway';
import { formatHostPort, type EgressPolicy } from './policy';

export interface EgressDenial {
  host: string;
  port: number;
  reason: string;
}

export interface EgressProxyOptions {
  policy: EgressPolicy;
  /** Path of the unix socket to listen on; its directory should be private (0700), see below. */
  socketPath: string;
  /** Called once per denied request (CONNECT or plain HTTP). */
  onDenied?: (denial: EgressDenial) => void;
  /** Time allowed to open the upstream TCP connection before answering 502 (default 10 s). */
  connectTimeoutMs?: number;
  /** The in-process model gateway, served at its reserved host name (port 80) instead of any network (engine/gateway). */
  modelGateway?: GatewayEntrance;
}

export interface EgressProxy {
  /** Stop listening, destroy every open connection and tunnel, remove the socket file. */
  close(): Promise<void>;
}

// RFC 9110 §7.6.1 hop-by-hop headers, plus the Proxy-* family which is meant for this proxy only.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-connection']);

function forwardableHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  // Headers named in Connection are hop-by-hop too.
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || name.startsWith('proxy-')) continue;
    out[name] = value;
  }
  return out;
}

type Vetted = { ok: true; address: string } | { ok: false; status: 403 | 502; reason: string };

/** Apply the policy to the name, resolve it once, and return the first address the policy accepts. */
async function vet(policy: EgressPolicy, host: string, port: number): Promise<Vetted> {
  const byName = policy.checkHost(host, port);
  if (!byName.allowed) return { ok: false, status: 403, reason: byName.reason };
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (net.isIP(bare)) return { ok: true, address: bare }; // checkHost already judged the literal as an address
  let addresses: LookupAddress[];
  try {
    addresses = await dns.lookup(bare, { all: true });
  } catch (err) {
    return { ok: false, status: 502, reason: `cannot resolve ${bare}: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
  }
  let firstRefusal: string | undefined;
  for (const { address } of addresses) {
    const decision = policy.checkAddress(address, port);
    if (decision.allowed) return { ok: true, address };
    firstRefusal ??= decision.reason;
  }
  return { ok: false, status: 403, reason: firstRefusal ?? `${bare} has no address` };
}

/** `host:port` or `[v6]:port` of a CONNECT request; undefined when malformed. */
function parseAuthority(target: string | undefined): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:/?#@[\]]+)):(\d{1,5})$/.exec(target ?? '');
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return undefined;
  return { host: (match[1] ?? match[2])!, port };
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/** A complete HTTP/1.1 answer written on a raw socket (CONNECT and clientError have no ServerResponse). */
function rawAnswer(socket: Duplex, status: number, body: string): void {
  const text = `${oneLine(body)}\n`;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { policy, socketPath, onDenied, modelGateway } = options;
  const isGateway = (host: string, port: number) => modelGateway !== undefined && port === 80 && host.toLowerCase() === modelGateway.host;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const sockets = new Set<Duplex>();
  let closing = false;

  // Every socket gets an error handler (an unhandled 'error' would crash the server) and is tracked for close().
  function track<T extends Duplex>(socket: T): T {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.once('close', () => sockets.delete(socket));
    if (closing) socket.destroy();
    return socket;
  }

  function denied(host: string, port: number, reason: string): string {
    try {
      onDenied?.({ host, port, reason });
    } catch {
      // A faulty listener must not turn a denial into a crash or a hung client.
    }
    return `egress to ${formatHostPort(host.replace(/^\[|\]$/g, ''), port)} denied: ${reason}`;
  }

  /** Open a TCP connection to a vetted address; a connect that takes too long fails like a refused one. */
  function dial(address: string, port: number): net.Socket {
    const upstream = track(net.connect({ host: address, port }));
    upstream.setTimeout(connectTimeoutMs, () => upstream.destroy(new Error('connect timeout')));
    upstream.once('connect', () => upstream.setTimeout(0));
    return upstream;
  }

  const server = http.createServer();
  server.on('connection', (socket) => track(socket));
  server.on('error', () => {}); // after listen() succeeded, nothing a peer does should take the process down
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) socket.destroy();
    else rawAnswer(socket, 400, `malformed request (${err.code ?? 'parse error'})`);
  });

  // CONNECT: node hands the raw socket over with its own error handler removed; ours (from 'connection') stays.
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    const target = parseAuthority(req.url);
    if (!target) return rawAnswer(client, 400, 'CONNECT needs host:port');
    if (isGateway(target.host, target.port)) {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      return modelGateway!.accept(client, head);
    }
    void vet(policy, target.host, target.port).then((verdict) => {
      if (client.destroyed) return;
      if (!verdict.ok) {
        const body = verdict.status === 403 ? denied(target.host, target.port, verdict.reason) : verdict.reason;
        return rawAnswer(client, verdict.status, body);
      }
      const upstream = dial(verdict.address, target.port);
      let established = false;
      upstream.once('connect', () => {
        established = true;
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      // Before the tunnel is up the client gets a 502; after, either side closing tears down both.
      upstream.once('error', (err: NodeJS.ErrnoException) => {
        if (!established) rawAnswer(client, 502, `cannot connect to ${formatHostPort(target.host, target.port)}: ${err.code ?? err.message}`);
      });
      upstream.once('close', () => {
        if (established) client.destroy();
      });
      client.once('close', () => upstream.destroy());
    });
  });

  // Absolute-form plain HTTP.
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const answer = (status: number, body: string) => {
      if (res.destroyed || res.writableEnded) return;
      if (res.headersSent) return void res.destroy();
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(`${oneLine(body)}\n`);
    };
    let url: URL;
    try {
      if (!/^http:\/\//i.test(req.url ?? '')) throw new Error('not absolute-form http');
      url = new URL(req.url!);
    } catch {
      // HTTPS goes through CONNECT; origin-form (`GET /x`) means the client did not treat us as a proxy.
      return answer(400, 'expected an absolute http:// URL (use CONNECT for https)');
    }
    const host = url.hostname.replace(/^\[|\]$/g, ''); // same bare form as CONNECT's, for onDenied
    const port = Number(url.port) || 80;
    if (isGateway(host, port)) return modelGateway!.handle(req, res);
    void vet(policy, host, port).then((verdict) => {
      if (res.destroyed) return;
      if (!verdict.ok) return answer(verdict.status, verdict.status === 403 ? denied(host, port, verdict.reason) : verdict.reason);
      const headers = forwardableHeaders(req.headers);
      headers.host = url.host; // RFC 9112 §3.2.2: a proxy sets Host from the absolute URI
      const upstreamReq = http.request({
        host: verdict.address, // an IP literal: http.request does no DNS lookup of its own
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        agent: false,
        createConnection: () => dial(verdict.address, port),
      });
      upstreamReq.on('error', (err: NodeJS.ErrnoException) => {
        answer(502, `cannot reach ${formatHostPort(host, port)}: ${err.code ?? err.message}`);
      });
      upstreamReq.on('response', (upstreamRes) => {
        upstreamRes.on('error', () => res.destroy());
        res.writeHead(upstreamRes.statusCode ?? 502, forwardableHeaders(upstreamRes.headers));
        upstreamRes.pipe(res);
      });
      // The client leaving early (or the exchange ending) releases the upstream connection.
      res.once('close', () => upstreamReq.destroy());
      req.pipe(upstreamReq);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Between listen() and chmod() the file has umask permissions: a private (0700) parent directory closes that window.
  try {
    await fs.chmod(socketPath, 0o600);
  } catch (err) {
    server.close();
    throw err;
  }

  return {
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      await fs.rm(socketPath, { force: true }); // node unlinks it on close; this makes sure
    },
  };
}
