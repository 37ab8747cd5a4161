/**
 * TRUST_PROXY and who sent a request (http/client-address.ts): the setting's parsing, and the walk of
 * X-Forwarded-For from the right that stops at the first address that is not a trusted proxy. The ingress
 * budget built on it is covered over HTTP in test/ingress/sender-budget.test.ts.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxies } from '../../src/http/client-address';
import { loadSettings, SettingsError } from '../../src/settings';

const trustProxy = (value: string) => loadSettings({ TRUST_PROXY: value, DATABASE_URL: 'sqlite::memory:' }).trustProxy;
const request = (peer: string | undefined, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('TRUST_PROXY', () => {
  it('is none by default, else addresses and CIDR ranges of both families', () => {
    expect(loadSettings({ DATABASE_URL: 'sqlite::memory:' }).trustProxy).toEqual([]);
    expect(trustProxy(' 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32,::1')).toEqual(['10.0.0.0/8', '192.0.2.7/32', '2001:db8::/32', '::1/128']);
  });

  it.each(['10.0.0.0/33', '2001:db8::/129', 'localhost', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0.0/x', '300.1.1.1'])('refuses %s', (value) => {
    expect(() => trustProxy(value)).toThrow(SettingsError);
  });
});

describe('the sender of a request', () => {
  const trusted = trustedProxies(['127.0.0.1/32', '10.0.0.0/8', '2001:db8::/32']);

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('127.0.0.1', '203.0.113.1'), trustedProxies([]))).toBe('127.0.0.1');
  });

  it('is the peer when the peer is not a trusted proxy', () => {
    expect(clientAddress(request('198.51.100.2', '203.0.113.1'), trusted)).toBe('198.51.100.2');
  });

  it('is the right-most address that is not a trusted proxy; what the client wrote left of it is ignored', () => {
    expect(clientAddress(request('127.0.0.1', '203.0.113.1'), trusted)).toBe('203.0.113.1');
    expect(clientAddress(request('127.0.0.1', '1.2.3.4, 203.0.113.1, 10.0.0.5'), trusted)).toBe('203.0.113.1');
    // An IPv4-mapped peer matches its IPv4 range; IPv6 hops match theirs however they are written.
    expect(clientAddress(request('::ffff:127.0.0.1', '2001:db9::9, 2001:0db8:ffff::1'), trusted)).toBe('2001:db9::9');
  });

  it('is the last trusted hop when the header is missing, empty, all trusted or not an address', () => {
    expect(clientAddress(request('127.0.0.1'), trusted)).toBe('127.0.0.1');
    expect(clientAddress(request('127.0.0.1', ''), trusted)).toBe('127.0.0.1');
    expect(clientAddress(request('127.0.0.1', '10.0.0.1, 10.0.0.2'), trusted)).toBe('10.0.0.1');
    expect(clientAddress(request('127.0.0.1', '203.0.113.1, unknown, 10.0.0.2'), trusted)).toBe('10.0.0.2');
  });
});
