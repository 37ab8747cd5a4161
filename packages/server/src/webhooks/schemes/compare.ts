import { createHmac, hash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time comparison helpers. Both sides are first reduced to SHA-256 digests, so neither the
 * content nor the length of the secret side leaks through timing, and crypto.timingSafeEqual never sees
 * buffers of different lengths (which would throw). The digests need no key: they are only ever compared
 * with timingSafeEqual, never exposed. (One-shot `hash` is a quarter of the cost of an HMAC object.)
 */
const digest = (data: string | Uint8Array): Buffer => hash('sha256', data, 'buffer');

/** Constant-time string equality (UTF-8). Never early-exits on content; never throws. */
export function timingSafeEqualString(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return timingSafeEqual(digest(a), digest(b));
}

/** Constant-time byte equality. Never early-exits on content; never throws. */
export function timingSafeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** True when any candidate equals `expected`: every candidate is compared (no early exit), each in constant time. */
export function timingSafeEqualAny(candidates: readonly string[], expected: string): boolean {
  let matched = false;
  for (const candidate of candidates) {
    if (timingSafeEqualString(candidate, expected)) matched = true;
  }
  return matched;
}

/** HMAC-SHA256 over the concatenation of `parts` (strings are UTF-8; buffers are used as raw bytes). */
export function hmacSha256(key: string | Uint8Array, ...parts: (string | Uint8Array)[]): Buffer {
  const h = createHmac('sha256', key);
  for (const p of parts) {
    if (typeof p === 'string') h.update(p, 'utf8');
    else h.update(p);
  }
  return h.digest();
}
