/**
 * The key one remote client is counted under (ingress failed-auth budget, connections per address).
 * IPv4-mapped IPv6 addresses are reduced to IPv4; other IPv6 addresses to their /64 prefix, because one
 * host usually controls a whole /64 and could otherwise rotate addresses to escape any per-address limit.
 */
import { isIPv6 } from 'node:net';

export function remoteAddressKey(raw: string | undefined): string {
  if (raw === undefined) return 'unknown';
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
