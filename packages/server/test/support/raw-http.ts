/**
 * HTTP/1.1 over a raw node:net socket, for what fetch and node:http will not send (malformed requests,
 * oversized or slow headers, made-up methods): the bytes go out exactly as written and the answer is read
 * until the server closes the connection.
 */
import net from 'node:net';
import type { HttpResponse } from './http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the server closed the connection. */
  ms: number;
}

/**
 * Writes `bytes` on a raw socket (nothing is normalised) and reads until the server closes the connection;
 * `drip` then keeps writing it every 200 ms (a slow sender). Rejects when the server neither answers nor
 * closes within `giveUpMs`.
 */
export function raw(url: string, bytes: string | Buffer, options: { drip?: string; giveUpMs?: number } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    const dripping = options.drip ? setInterval(() => socket.writable && socket.write(options.drip!), 200) : undefined;
    const giveUp = setTimeout(() => {
      clearInterval(dripping);
      socket.destroy();
      reject(new Error(`no answer within ${options.giveUpMs ?? 8_000} ms: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
    }, options.giveUpMs ?? 8_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {}); // EPIPE / ECONNRESET after an early answer
    socket.on('close', () => {
      clearInterval(dripping);
      clearTimeout(giveUp);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, end < 0 ? text.length : end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0),
        headers,
        body: end < 0 ? '' : text.slice(end + 4),
        ms: Date.now() - started,
      });
    });
  });
}

/** A raw answer as support/http's HttpResponse (JSON body parsed), for its expectProblem. */
export function asHttpResponse(res: RawAnswer): HttpResponse {
  const headers = new Headers(res.headers);
  const json = /json/.test(headers.get('content-type') ?? '') && res.body !== '';
  return { status: res.status, headers, body: json ? JSON.parse(res.body) : undefined, text: res.body };
}
