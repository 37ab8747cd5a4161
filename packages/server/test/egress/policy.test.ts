import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { createEgressPolicy, EgressDeniedError, EgressPolicyError, type EgressDecision } from '../../src/engine/egress/policy';

// No interface addresses unless a test says so: the range table must deny on its own.
const policy = (network: 'none' | 'allowlist' | 'open', allowedHosts: string[] = [], localAddresses: string[] = []) =>
  createEgressPolicy({ network, allowedHosts }, { localAddresses: () => localAddresses });

const reasonOf = (decision: EgressDecision) => (decision.allowed ? undefined : decision.reason);

describe('egress policy: addresses never reachable', () => {
  const forbidden: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['fec0::1', 'site-local'],
    ['100::1', 'discard'],
    ['2001::1', 'Teredo'],
    ['4000::1', 'outside 2000::/3'],
    // IPv4 inside IPv6: mapped (both spellings), deprecated compatible, NAT64, 6to4.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1, a loopback'],
    ['64:ff9b::7f00:1', 'NAT64 for 127.0.0.1, a loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 for 169.254.169.254, a link-local'],
    ['2002:c0a8:101::1', '6to4 for 192.168.1.1, a private'],
  ];

  for (const mode of ['allowlist', 'open'] as const) {
    it.each(forbidden)(`${mode}: %s is refused (%s)`, (address, label) => {
      const decision = policy(mode).checkAddress(address, 443);
      expect(decision.allowed).toBe(false);
      expect(reasonOf(decision)).toContain(`${address} is `);
      expect(reasonOf(decision)).toContain(label);
    });
  }

  it('names the loopback reason the way operators read it', () => {
    expect(reasonOf(policy('open').checkAddress('127.0.0.1', 6000))).toBe('127.0.0.1 is a loopback address');
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '11.0.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '192.169.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('a public address is reachable: %s', (address) => {
    expect(policy('open').checkAddress(address, 443)).toEqual({ allowed: true });
    expect(policy('allowlist').checkAddress(address, 443)).toEqual({ allowed: true });
  });

  it("refuses this machine's own addresses, even public ones", () => {
    const decision = policy('open', [], ['8.8.4.4', 'fe80::1%eth0']).checkAddress('8.8.4.4', 80);
    expect(reasonOf(decision)).toBe('8.8.4.4 is an address of this machine');
    expect(policy('open', [], ['8.8.4.4']).checkAddress('8.8.8.8', 80).allowed).toBe(true);
  });

  it('reads os.networkInterfaces() by default', () => {
    const real = createEgressPolicy({ network: 'open', allowedHosts: [] });
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((info) => info.address));
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(real.checkAddress(address, 80).allowed).toBe(false);
  });
});

describe('egress policy: exact IP literals unlock internal addresses', () => {
  it('IP:port unlocks that port only, in allowlist and open modes', () => {
    for (const mode of ['allowlist', 'open'] as const) {
      const p = policy(mode, ['127.0.0.1:4567']);
      expect(p.checkAddress('127.0.0.1', 4567).allowed).toBe(true);
      expect(p.checkAddress('::ffff:127.0.0.1', 4567).allowed).toBe(true);
      expect(reasonOf(p.checkAddress('127.0.0.1', 4568))).toBe('127.0.0.1 is a loopback address');
      expect(p.checkAddress('127.0.0.2', 4567).allowed).toBe(false);
      expect(p.checkHost('127.0.0.1', 4567).allowed).toBe(true);
      expect(p.checkHost('127.0.0.1', 4568).allowed).toBe(false);
    }
  });

  it('an IP without port unlocks every port', () => {
    const p = policy('allowlist', ['10.1.2.3']);
    expect(p.checkAddress('10.1.2.3', 22).allowed).toBe(true);
    expect(p.checkHost('10.1.2.3', 8080).allowed).toBe(true);
    expect(p.checkAddress('10.1.2.4', 22).allowed).toBe(false);
  });

  it('IPv6 literals, bracketed with port or bare', () => {
    const p = policy('allowlist', ['[::1]:9000', 'fd00::5']);
    expect(p.checkAddress('::1', 9000).allowed).toBe(true);
    expect(p.checkHost('[::1]', 9000).allowed).toBe(true);
    expect(p.checkAddress('::1', 9001).allowed).toBe(false);
    expect(p.checkAddress('fd00:0:0::5', 1).allowed).toBe(true);
    expect(p.checkAddress('fd00::6', 1).allowed).toBe(false);
  });

  it('a host name never unlocks an internal address', () => {
    for (const mode of ['allowlist', 'open'] as const) {
      const p = policy(mode, ['localhost', 'localhost:80', 'internal.example']);
      expect(p.checkHost('localhost', 80).allowed).toBe(true);
      expect(reasonOf(p.checkAddress('127.0.0.1', 80))).toBe('127.0.0.1 is a loopback address');
      expect(p.checkAddress('::1', 80).allowed).toBe(false);
      expect(p.checkAddress('10.0.0.7', 80).allowed).toBe(false);
    }
  });
});

describe('egress policy: host names', () => {
  it('allowlist: only listed hosts, with a reason naming the host', () => {
    const p = policy('allowlist', ['api.example.com']);
    expect(p.checkHost('api.example.com', 443)).toEqual({ allowed: true });
    expect(p.checkHost('API.Example.COM.', 443)).toEqual({ allowed: true });
    expect(p.checkHost('evil.example', 443)).toEqual({ allowed: false, reason: 'evil.example is not in SANDBOX_ALLOWED_HOSTS' });
    expect(p.checkHost('x.api.example.com', 443).allowed).toBe(false);
    expect(p.checkHost('8.8.8.8', 443)).toEqual({ allowed: false, reason: '8.8.8.8 is not in SANDBOX_ALLOWED_HOSTS' });
  });

  it('*.domain matches any subdomain, not the apex nor look-alikes', () => {
    const p = policy('allowlist', ['*.example.com']);
    expect(p.checkHost('a.example.com', 443).allowed).toBe(true);
    expect(p.checkHost('a.b.example.com', 80).allowed).toBe(true);
    expect(p.checkHost('example.com', 443).allowed).toBe(false);
    expect(p.checkHost('badexample.com', 443).allowed).toBe(false);
    expect(p.checkHost('a.example.com.evil', 443).allowed).toBe(false);
  });

  it('an entry with a port allows that port only; without, any port', () => {
    const p = policy('allowlist', ['api.example.com:8443', 'git.example.org', '*.cdn.example:443']);
    expect(p.checkHost('api.example.com', 8443).allowed).toBe(true);
    expect(reasonOf(p.checkHost('api.example.com', 443))).toBe('port 443 of api.example.com is not in SANDBOX_ALLOWED_HOSTS');
    expect(p.checkHost('git.example.org', 22).allowed).toBe(true);
    expect(p.checkHost('x.cdn.example', 443).allowed).toBe(true);
    expect(p.checkHost('x.cdn.example', 80).allowed).toBe(false);
  });

  it('open: any valid name; IP literals are judged as addresses', () => {
    const p = policy('open');
    expect(p.checkHost('anything.example', 1234).allowed).toBe(true);
    expect(p.checkHost('8.8.8.8', 53).allowed).toBe(true);
    expect(reasonOf(p.checkHost('127.0.0.1', 6000))).toBe('127.0.0.1 is a loopback address');
    expect(p.checkHost('[::ffff:7f00:1]', 80).allowed).toBe(false);
    expect(p.checkHost('bad host', 80).allowed).toBe(false);
    expect(p.checkHost('a.example', 0).allowed).toBe(false);
    expect(p.checkHost('a.example', 65536).allowed).toBe(false);
  });

  it('none: nothing at all, not even listed hosts or IPs', () => {
    const p = policy('none', ['api.example.com', '8.8.8.8', '127.0.0.1:4567']);
    for (const decision of [p.checkHost('api.example.com', 443), p.checkAddress('8.8.8.8', 443), p.checkAddress('127.0.0.1', 4567)]) {
      expect(decision).toEqual({ allowed: false, reason: 'egress is disabled (SANDBOX_NETWORK=none)' });
    }
  });
});

describe('egress policy: configuration and errors', () => {
  it.each(['host:abc', 'a b', '[::1', '10.0.0.1:70000', 'example.com:0', '*.'])('refuses the entry %j at creation', (entry) => {
    expect(() => policy('allowlist', [entry])).toThrow(EgressPolicyError);
  });

  it('EgressDeniedError carries host, port, reason and a readable message', () => {
    const err = new EgressDeniedError('127.0.0.1', 6000, '127.0.0.1 is a loopback address');
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'EgressDeniedError', host: '127.0.0.1', port: 6000, reason: '127.0.0.1 is a loopback address' });
    expect(err.message).toBe('egress to 127.0.0.1:6000 denied: 127.0.0.1 is a loopback address');
    expect(new EgressDeniedError('::1', 80, 'x').message).toBe('egress to [::1]:80 denied: x');
  });
});
