/**
 * Open SSE streams per API key on one server (SSE_STREAMS_PER_KEY), the run streams and the team streams
 * together: each holds a connection and a loop. Lives on the server context (`ctx.eventStreamSlots`).
 */
export class EventStreamSlots {
  private readonly open = new Map<string, number>();

  constructor(readonly perKey: number) {}

  /** Takes one of the key's slots and returns its release function; undefined when every slot is taken. */
  take(keyId: string): (() => void) | undefined {
    const count = this.open.get(keyId) ?? 0;
    if (count >= this.perKey) return undefined;
    this.open.set(keyId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(keyId) ?? 1) - 1;
      if (left > 0) this.open.set(keyId, left);
      else this.open.delete(keyId);
    };
  }
}
