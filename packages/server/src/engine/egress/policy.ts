/**
 * Egress policy of a run: which hosts and which addresses a run (its sandboxed processes through
 * the egress proxy, and the server's own requests on its behalf through the guarded fetch) may reach.
 *
 * Two questions, asked in this order by every enforcement point:
 *  1. `checkHost(host, port)`: may this name be asked for at all (SANDBOX_NETWORK, SANDBOX_ALLOWED_HOSTS)?
 *  2. `checkAddress(address, port)`: may a socket be opened to this resolved address? This is asked at
 *     connect time, for the address actually dialled, so a name that resolves (or re-resolves: DNS
 *     rebinding) to an internal address is still refused.
 *
 * Internal addresses (loopback, private, link-local, metadata, this machine's own …) are refused in
 * every mode unless the operator listed that exact IP literal; a host NAME never unlocks them.
 */
import os from 'node:os';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { SandboxSettings } from '../../settings';

export type EgressDecision = { allowed: true } | { allowed: false; reason: string };

export interface EgressPolicy {
  readonly network: SandboxSettings['network'];
  /** May `host` (a name or an IP literal, brackets allowed) be contacted on `port`? IP literals also get `checkAddress`. */
  checkHost(host: string, port: number): EgressDecision;
  /** May a connection be opened to the resolved `address` on `port`? */
  checkAddress(address: string, port: number): EgressDecision;
}

export interface EgressPolicyOptions {
  /** Addresses of this machine (default: every address of os.networkInterfaces(), read at each check). */
  localAddresses?: () => Iterable<string>;
  /** The setting the allowed hosts come from, named in errors and denials (default SANDBOX_ALLOWED_HOSTS). */
  settingName?: string;
}

/** Raised (thrown or passed as an error) wherever the policy refuses a connection. */
export class EgressDeniedError extends Error {
  override readonly name = 'EgressDeniedError';
  constructor(
    readonly host: string,
    readonly port: number,
    readonly reason: string,
  ) {
    super(`egress to ${formatHostPort(host, port)} denied: ${reason}`);
  }
}

/** Thrown by createEgressPolicy for an allowed-hosts entry it cannot read (fail at start, not per request). */
export class EgressPolicyError extends Error {
  override readonly name = 'EgressPolicyError';
}

export function formatHostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

// Why each range is refused. Order matters only for the label: the first match names the reason.
const IPV4_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0/8', 'an unspecified ("this network") address'],
  ['10.0.0.0/8', 'a private address'],
  ['100.64.0.0/10', 'a carrier-grade NAT (shared) address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.0.0/16', 'a link-local address'],
  ['172.16.0.0/12', 'a private address'],
  ['192.0.0.0/24', 'a reserved (IETF protocol assignment) address'],
  ['192.0.2.0/24', 'a reserved (documentation) address'],
  ['192.88.99.0/24', 'a reserved (6to4 relay) address'],
  ['192.168.0.0/16', 'a private address'],
  ['198.18.0.0/15', 'a reserved (benchmarking) address'],
  ['198.51.100.0/24', 'a reserved (documentation) address'],
  ['203.0.113.0/24', 'a reserved (documentation) address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['255.255.255.255/32', 'the broadcast address'],
  ['240.0.0.0/4', 'a reserved address'],
];

const IPV6_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['::/128', 'an unspecified address'],
  ['::1/128', 'a loopback address'],
  ['::/96', 'a deprecated IPv4-compatible address'],
  ['::ffff:0:0:0/96', 'a reserved (IPv4-translated) address'],
  ['64:ff9b:1::/48', 'a reserved (local-use NAT64) address'],
  ['100::/64', 'a reserved (discard-only) address'],
  ['2001::/23', 'a reserved (IETF protocol assignment, Teredo) address'],
  ['2001:db8::/32', 'a reserved (documentation) address'],
  ['3fff::/20', 'a reserved (documentation) address'],
  ['fc00::/7', 'a private (unique local) address'],
  ['fe80::/10', 'a link-local address'],
  ['fec0::/10', 'a reserved (site-local) address'],
  ['ff00::/8', 'a multicast address'],
];

const parsedRanges = <T extends Address>(table: ReadonlyArray<readonly [string, string]>) =>
  table.map(([cidr, label]) => [ipaddr.parseCIDR(cidr) as [T, number], label] as const);
const V4 = parsedRanges<ipaddr.IPv4>(IPV4_RANGES);
const V6 = parsedRanges<ipaddr.IPv6>(IPV6_RANGES);
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16') as [ipaddr.IPv6, number];
// Only 2000::/3 is allocated as global unicast; anything else left over by the table is not a real destination.
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** Parse a strict IP literal (node's isIP: no `127.1`/hex forms, which ipaddr.js would accept). */
function parseIp(text: string): Address | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIP(bare) === 0) return undefined;
  const address = ipaddr.parse(bare);
  // An IPv4-mapped IPv6 address is the IPv4 host itself for sockets: compare and classify it as IPv4.
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/** Canonical text of an address (mapped forms folded to IPv4, zone id dropped) for equality tests. */
function canonical(address: Address): string {
  if (address.kind() === 'ipv4') return address.toString();
  const v6 = address as ipaddr.IPv6;
  return new ipaddr.IPv6(v6.parts).toNormalizedString();
}

function embeddedV4(v6: ipaddr.IPv6, at: number): ipaddr.IPv4 {
  const hi = v6.parts[at] ?? 0;
  const lo = v6.parts[at + 1] ?? 0;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** Why an address is never reachable, or undefined when it is an ordinary public address. */
function forbiddenRangeOf(address: Address): string | undefined {
  if (address.kind() === 'ipv4') {
    const v4 = address as ipaddr.IPv4;
    return V4.find(([range]) => v4.match(range))?.[1];
  }
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return forbiddenRangeOf(v6.toIPv4Address());
  // NAT64 and 6to4 carry an IPv4 destination the gateway will reach: judge that destination.
  if (v6.match(NAT64)) {
    const inner = embeddedV4(v6, 6);
    const why = forbiddenRangeOf(inner);
    return why && `NAT64 for ${inner.toString()}, ${why}`;
  }
  if (v6.match(SIX_TO_FOUR)) {
    const inner = embeddedV4(v6, 1);
    const why = forbiddenRangeOf(inner);
    return why && `6to4 for ${inner.toString()}, ${why}`;
  }
  // ::7f00:1 is 127.0.0.1 in the deprecated IPv4-compatible form (::/96 minus :: and ::1): name the embedded address.
  if (v6.match(IPV4_COMPATIBLE) && v6.parts[6] !== 0) {
    const inner = embeddedV4(v6, 6);
    const why = forbiddenRangeOf(inner);
    if (why) return `IPv4-compatible ${inner.toString()}, ${why}`;
  }
  const listed = V6.find(([range]) => v6.match(range));
  if (listed) return listed[1];
  return v6.match(GLOBAL_UNICAST) ? undefined : 'a reserved address (outside 2000::/3)';
}

interface HostEntry {
  kind: 'host';
  /** Lower-case name without trailing dot; for `*.example.com` the suffix `.example.com`. */
  name: string;
  wildcard: boolean;
  port?: number;
}
interface IpEntry {
  kind: 'ip';
  address: string; // canonical()
  port?: number;
}
type Entry = HostEntry | IpEntry;

function parsePort(text: string, entry: string, setting: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) {
    throw new EgressPolicyError(`${setting} entry "${entry}" has an invalid port "${text}"`);
  }
  return port;
}

function normalizeName(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

const NAME = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** Read one SANDBOX_ALLOWED_HOSTS entry: `host`, `*.example.com`, `host:port`, `10.1.2.3[:port]`, `::1`, `[::1][:port]`. */
function parseAllowedHost(raw: string, setting: string): Entry {
  const entry = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    const address = parseIp(bracketed[1]!);
    if (!address) throw new EgressPolicyError(`${setting} entry "${raw}" is not an IPv6 address`);
    return { kind: 'ip', address: canonical(address), ...(bracketed[2] !== undefined && { port: parsePort(bracketed[2], raw, setting) }) };
  }
  const bare = parseIp(entry);
  if (bare) return { kind: 'ip', address: canonical(bare) }; // includes an unbracketed IPv6 literal, which has no port
  const colon = entry.lastIndexOf(':');
  const hostPart = colon === -1 ? entry : entry.slice(0, colon);
  const port = colon === -1 ? undefined : parsePort(entry.slice(colon + 1), raw, setting);
  const ip = parseIp(hostPart);
  if (ip) return { kind: 'ip', address: canonical(ip), ...(port !== undefined && { port }) };
  const wildcard = hostPart.startsWith('*.');
  const name = normalizeName(wildcard ? hostPart.slice(2) : hostPart);
  if (!NAME.test(name)) throw new EgressPolicyError(`${setting} entry "${raw}" is not a host name, *.domain, host:port or IP address`);
  return { kind: 'host', name: wildcard ? `.${name}` : name, wildcard, ...(port !== undefined && { port }) };
}

function defaultLocalAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((info) => info.address));
}

export function createEgressPolicy(settings: Pick<SandboxSettings, 'network' | 'allowedHosts'>, options: EgressPolicyOptions = {}): EgressPolicy {
  const { network } = settings;
  const setting = options.settingName ?? 'SANDBOX_ALLOWED_HOSTS';
  const entries = settings.allowedHosts.filter((raw) => raw.trim() !== '').map((raw) => parseAllowedHost(raw, setting));
  const ipEntries = entries.filter((e): e is IpEntry => e.kind === 'ip');
  const hostEntries = entries.filter((e): e is HostEntry => e.kind === 'host');
  const localAddresses = options.localAddresses ?? defaultLocalAddresses;
  const portMatches = (entry: Entry, port: number) => entry.port === undefined || entry.port === port;
  const deny = (reason: string): EgressDecision => ({ allowed: false, reason });
  const NONE = deny('egress is disabled (SANDBOX_NETWORK=none)');

  function validPort(port: number): boolean {
    return Number.isInteger(port) && port >= 1 && port <= 65535;
  }

  function checkAddress(text: string, port: number): EgressDecision {
    if (network === 'none') return NONE;
    if (!validPort(port)) return deny(`${port} is not a valid port`);
    const address = parseIp(text);
    if (!address) return deny(`${text} is not an IP address`);
    const key = canonical(address);
    // The operator's exact IP literal is the only thing that opens an internal address (see module comment).
    if (ipEntries.some((e) => e.address === key && portMatches(e, port))) return { allowed: true };
    const why = forbiddenRangeOf(address);
    if (why) return deny(`${text} is ${why}`);
    for (const local of localAddresses()) {
      const mine = parseIp(local.split('%')[0]!);
      if (mine && canonical(mine) === key) return deny(`${text} is an address of this machine`);
    }
    return { allowed: true };
  }

  function checkHost(rawHost: string, port: number): EgressDecision {
    if (network === 'none') return NONE;
    if (!validPort(port)) return deny(`${port} is not a valid port`);
    const host = rawHost.startsWith('[') && rawHost.endsWith(']') ? rawHost.slice(1, -1) : rawHost;
    const literal = parseIp(host);
    if (literal) {
      if (network === 'allowlist') {
        const key = canonical(literal);
        const listed = ipEntries.filter((e) => e.address === key);
        if (listed.length === 0) return deny(`${host} is not in ${setting}`);
        if (!listed.some((e) => portMatches(e, port))) return deny(`port ${port} of ${host} is not in ${setting}`);
      }
      // No DNS will happen for a literal: the address check is the connect-time check.
      return checkAddress(host, port);
    }
    const name = normalizeName(host);
    if (!NAME.test(name)) return deny(`${JSON.stringify(rawHost)} is not a valid host name`);
    if (network === 'open') return { allowed: true };
    const listed = hostEntries.filter((e) => (e.wildcard ? name.endsWith(e.name) : name === e.name));
    if (listed.length === 0) return deny(`${name} is not in ${setting}`);
    if (!listed.some((e) => portMatches(e, port))) return deny(`port ${port} of ${name} is not in ${setting}`);
    return { allowed: true };
  }

  return { network, checkHost, checkAddress };
}
