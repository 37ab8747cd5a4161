/**
 * What a polling loop waits on (the run workers, the notification delivery workers): `wait(ms)` resolves
 * after `ms`, or as soon as `wake()` is called. A wake that comes while nothing waits is kept for the next
 * wait, so one that lands between a loop's check and its wait is never lost.
 */
export class Wakeup {
  #pending = false;
  #waiter: (() => void) | undefined;

  /** Ends the current wait, or the next one at once. */
  readonly wake = (): void => {
    this.#pending = true;
    this.#waiter?.();
  };

  /** A wake is kept for the next wait, which will then end at once. */
  get pending(): boolean {
    return this.#pending;
  }

  wait(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.#pending) {
        this.#pending = false;
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        this.#waiter = undefined;
        this.#pending = false;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiter = done;
    });
  }
}
