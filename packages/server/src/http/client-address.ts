/**
 * Who sent a request (the ingress's failed-attempt budget, Express's `req.ip`): the TCP peer — unless the
 * peer is one of the TRUST_PROXY ranges. Then X-Forwarded-For is read from the right, the end the trusted
 * proxies append to, and the sender is the first address that is not a trusted proxy: everything left of
 * it was written by the client and is ignored, so a client cannot name itself anyone else. A peer that is
 * not trusted is the sender whatever X-Forwarded-For it sends. An entry that is not a plain IP address
 * ends the walk at the last trusted hop (a proxy writing something else is not one to believe further).
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** Whether `address` is a trusted proxy. */
export type IsTrustedProxy = (address: string) => boolean;

/** The predicate for TRUST_PROXY's `address/prefix` ranges (settings.ts validated them). */
export function trustedProxies(ranges: readonly string[]): IsTrustedProxy {
  if (ranges.length === 0) return () => false;
  const list = new BlockList();
  for (const range of ranges) {
    const [address = '', prefix] = range.split('/');
    list.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
  // BlockList matches IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) against IPv4 ranges.
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The address that sent `req`; undefined when the socket has none (it closed). */
export function clientAddress(req: IncomingMessage, isTrusted: IsTrustedProxy): string | undefined {
  let sender = req.socket.remoteAddress;
  if (sender === undefined || !isTrusted(sender)) return sender;
  // node:http joins repeated X-Forwarded-For headers with ", ", in order.
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim();
    if (isIP(hop) === 0) break;
    sender = hop;
    if (!isTrusted(hop)) break;
  }
  return sender;
}
