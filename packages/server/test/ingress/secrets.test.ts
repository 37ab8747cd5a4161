import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_SCHEME_NAMES, signatureSchemes } from '../../src/webhooks/schemes';
import { isUrlSafeSecret } from '../../src/secrets/url-safe';
import { generateSignatureSecret, generateTokenSecret, generateWebhookSecret } from '../../src/webhooks/secrets';

describe('generateTokenSecret', () => {
  it('is 32 random bytes as URL-safe base64url', () => {
    const s = generateTokenSecret();
    expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(s, 'base64url')).toHaveLength(32);
    expect(isUrlSafeSecret(s)).toBe(true);
    expect(encodeURIComponent(s)).toBe(s);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 1000 }, generateTokenSecret));
    expect(seen.size).toBe(1000);
  });
});

describe('isUrlSafeSecret', () => {
  it('accepts unreserved characters only, at least 16 of them', () => {
    expect(isUrlSafeSecret('abcdefghijklmnop')).toBe(true);
    expect(isUrlSafeSecret('A-b_c.d~e0123456789')).toBe(true);
    expect(isUrlSafeSecret('abcdefghijklmno')).toBe(false); // 15
    expect(isUrlSafeSecret('')).toBe(false);
    for (const bad of ['/', '+', '=', ' ', '%', '?', '#', '&', 'é', '\n']) {
      expect(isUrlSafeSecret('abcdefghijklmnop' + bad)).toBe(false);
    }
    expect(isUrlSafeSecret('whsec_' + Buffer.alloc(32, 0xfb).toString('base64'))).toBe(false);
    expect(isUrlSafeSecret(undefined)).toBe(false);
    expect(isUrlSafeSecret(1234567890123456)).toBe(false);
  });
});

describe('generateWebhookSecret', () => {
  it('token and url_token get URL-safe 32-byte secrets', () => {
    expect(isUrlSafeSecret(generateWebhookSecret('token'))).toBe(true);
    expect(isUrlSafeSecret(generateWebhookSecret('url_token'))).toBe(true);
  });

  it('signature re-uses the scheme generator; Standard Webhooks gets whsec_ + base64 of 32 bytes', () => {
    const s = generateWebhookSecret('signature', 'standard-webhooks');
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(() => new StandardWebhook(s)).not.toThrow();
    for (const name of SIGNATURE_SCHEME_NAMES) {
      const g = generateSignatureSecret(name);
      expect(typeof g).toBe('string');
      expect(g.length).toBeGreaterThanOrEqual(43);
      expect(g).not.toBe(signatureSchemes[name].generateSecret());
    }
  });

  it('signature without a scheme is a programming error', () => {
    expect(() => generateWebhookSecret('signature')).toThrow(TypeError);
  });
});
