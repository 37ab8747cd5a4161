/**
 * The sender address the failed-authentication budget is kept for.
 *
 * It is the TCP peer address of the socket. `X-Forwarded-For` and similar headers are NOT trusted: any
 * sender could set them to a fresh value per attempt and escape the budget. Behind a reverse proxy every
 * sender therefore shares the proxy's budget (per webhook) — add a trusted-proxy setting before deploying
 * that way. IPv4-mapped IPv6 addresses are reduced to IPv4; other IPv6 addresses are reduced to their /64
 * prefix, because one host usually controls a whole /64 and could otherwise rotate addresses per attempt.
 */
import { isIPv6 } from 'node:net';
import type { IncomingMessage } from 'node:http';

export function senderAddress(req: IncomingMessage): string {
  const raw = req.socket.remoteAddress ?? 'unknown';
  if (raw.startsWith('::ffff:') && raw.includes('.')) return raw.slice('::ffff:'.length);
  if (isIPv6(raw)) return `${ipv6Prefix64(raw)}::/64`;
  return raw;
}

/** The first four 16-bit groups of an IPv6 address, expanded (`2001:db8::1` → `2001:db8:0:0`). */
function ipv6Prefix64(address: string): string {
  const zone = address.indexOf('%');
  const plain = zone < 0 ? address : address.slice(0, zone);
  const [head = '', tail] = plain.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = Math.max(0, 8 - headGroups.length - tailGroups.length);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups
    .slice(0, 4)
    .map((g) => (g.includes('.') ? g : (parseInt(g, 16) || 0).toString(16)))
    .join(':');
}
