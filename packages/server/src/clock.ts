/** The one source of time for the server: tests inject a controllable clock instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to (tests, benchmarks). */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | number = Date.now()) {
    this.#ms = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(to: Date | number): void {
    this.#ms = typeof to === 'number' ? to : to.getTime();
  }
}

/** Timestamps are stored as fixed-width ISO-8601 UTC strings: they sort correctly as text on every dialect. */
export const toTimestamp = (d: Date): string => d.toISOString();
