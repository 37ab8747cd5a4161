/**
 * Listener protection against slow and greedy clients (`settings.connections`), for every listener (REST,
 * and the INGRESS_PORT one when set): `listenerOptions` when it is created, `limitConnectionsPerAddress` after.
 *
 * - `headersTimeout` / `requestTimeout`: a client that has not sent a request's headers, or the whole
 *   request with its body, in time is answered 408 by node:http and its connection closed (a slow body to
 *   the ingress cannot hold a connection open). Once a request is complete neither applies, so SSE responses
 *   are not cut.
 * - at most `maxPerAddress` concurrent connections per remote address (IPv6 by /64, http/remote-address.ts);
 *   a connection over the cap is closed at once, before a byte of it is read.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';
import type { Settings } from '../settings';
import { remoteAddressKey } from './remote-address';

/** node:http looks for expired requests only this often (its default, 30 s, would stretch a 10 s timeout to 40 s). */
const CHECK_INTERVAL_MS = 1_000;

/** node:http options of every listener: the header and request timeouts, checked every second. */
export function listenerOptions(connections: Settings['connections']): http.ServerOptions {
  const requestTimeout = connections.requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    // node:http refuses a headers timeout longer than the request timeout.
    headersTimeout: Math.min(connections.headersTimeoutSeconds * 1000, requestTimeout),
    connectionsCheckingInterval: CHECK_INTERVAL_MS,
  };
}

/** Closes at once any connection that would give its remote address more than `maxPerAddress` on `server`. */
export function limitConnectionsPerAddress(server: http.Server, maxPerAddress: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = remoteAddressKey(socket.remoteAddress);
    const count = open.get(address) ?? 0;
    if (count >= maxPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
