import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase

let lastMs = -1;
let lastRandom: number[] = [];

/**
 * `<prefix>_` + 26 lowercase base32 characters, ULID-like: 10 of time, 16 of randomness, monotonic within
 * this process (same or earlier millisecond → previous randomness + 1). Ordering rows by (created_at, id)
 * therefore gives the order in which this process made them, even when a ManualClock does not move.
 */
export function newSortableId(prefix: string, now: Date): string {
  let ms = now.getTime();
  if (ms <= lastMs) {
    ms = lastMs;
    lastRandom = increment(lastRandom);
  } else {
    lastMs = ms;
    lastRandom = [...randomBytes(16)].map((b) => b % 32);
  }
  let time = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  return `${prefix}_${time}${lastRandom.map((d) => ALPHABET[d]).join('')}`;
}

function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]! += 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}
