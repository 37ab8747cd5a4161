import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time comparison helpers. Both sides are first reduced to equal-length digests under a random
 * per-process key, so neither the content nor the length of the secret side leaks through timing, and
 * crypto.timingSafeEqual never sees buffers of different lengths (which would throw).
 */
const COMPARE_KEY = randomBytes(32);

const digest = (data: string | Uint8Array): Buffer => {
  const h = createHmac('sha256', COMPARE_KEY);
  if (typeof data === 'string') h.update(data, 'utf8');
  else h.update(data);
  return h.digest();
};

/** Constant-time string equality (UTF-8). Never early-exits on content; never throws. */
export function timingSafeEqualString(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return timingSafeEqual(digest(a), digest(b));
}

/** Constant-time byte equality. Never early-exits on content; never throws. */
export function timingSafeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  return timingSafeEqual(digest(a), digest(b));
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
