/**
 * The sliding-window arithmetic of the ingress limits (pure functions; the database side is covered over
 * HTTP in pipeline.test.ts): the Retry-After it computes is exactly when the next attempt is allowed.
 */
import { describe, expect, it } from 'vitest';
import { currentWindowCap, retryAfterMs } from '../../src/ingress/rate-limit';

const W = 60_000;
const allowed = (limit: number, prev: number, cur: number, elapsed: number) =>
  elapsed < W ? cur < currentWindowCap(limit, prev, elapsed, W) : 0 < currentWindowCap(limit, cur, elapsed - W, W);

describe('sliding window', () => {
  it('a fresh key has the whole limit; the previous window counts by its remaining overlap', () => {
    expect(currentWindowCap(60, 0, 0, W)).toBe(60);
    expect(currentWindowCap(60, 60, 0, W)).toBe(0);
    expect(currentWindowCap(60, 60, 30_000, W)).toBe(30);
    expect(currentWindowCap(60, 60, 59_999, W)).toBe(60);
  });

  it('Retry-After is 0 while a slot is free', () => {
    expect(retryAfterMs(60, 0, 59, 10_000, W)).toBe(0);
    expect(retryAfterMs(60, 60, 29, 30_000, W)).toBe(0);
  });

  it('a window filled at its start frees its first slot just after it ends', () => {
    expect(retryAfterMs(60, 0, 60, 0, W)).toBe(W + 1);
  });

  it('Retry-After is exactly the first moment an attempt is allowed again (exhaustive over a grid)', () => {
    for (const limit of [1, 10, 60]) {
      for (let prev = 0; prev <= limit; prev += Math.max(1, Math.floor(limit / 5))) {
        for (let elapsed = 0; elapsed < W; elapsed += 7_919) {
          const cap = currentWindowCap(limit, prev, elapsed, W);
          for (const cur of [Math.max(cap, 0), limit]) {
            if (allowed(limit, prev, cur, elapsed)) continue;
            const wait = retryAfterMs(limit, prev, cur, elapsed, W);
            expect(wait, `limit ${limit} prev ${prev} cur ${cur} elapsed ${elapsed}`).toBeGreaterThan(0);
            expect(allowed(limit, prev, cur, elapsed + wait), `allowed after ${wait}`).toBe(true);
            expect(allowed(limit, prev, cur, elapsed + wait - 1), `not before ${wait}`).toBe(false);
          }
        }
      }
    }
  });
});
