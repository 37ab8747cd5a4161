/**
 * The sender address the failed-authentication budget is kept for.
 *
 * It is the TCP peer address of the socket. `X-Forwarded-For` and similar headers are NOT trusted: any
 * sender could set them to a fresh value per attempt and escape the budget. Behind a reverse proxy every
 * sender therefore shares the proxy's budget (per webhook) — add a trusted-proxy setting before deploying
 * that way. IPv6 addresses count by their /64 prefix (http/remote-address.ts).
 */
import type { IncomingMessage } from 'node:http';
import { remoteAddressKey } from '../http/remote-address';

export function senderAddress(req: IncomingMessage): string {
  return remoteAddressKey(req.socket.remoteAddress);
}
