/**
 * Open SSE streams per API key on one server (SSE_STREAMS_PER_KEY), the run streams and the team streams
 * together: each holds a connection and a loop. Lives on the HTTP layer's context (`ctx.eventStreamSlots`, context.ts). It
 * also knows how to end a key's streams, so a revoked key stops receiving (http/revoked-key-streams.ts).
 */
export class EventStreamSlots {
  private readonly open = new Map<string, Set<() => void>>();

  constructor(readonly perKey: number) {}

  /**
   * Takes one of the key's slots for a stream that `end` ends, and returns its release function; undefined
   * when every slot is taken.
   */
  take(keyId: string, end: () => void): (() => void) | undefined {
    const streams = this.open.get(keyId) ?? new Set();
    if (streams.size >= this.perKey) return undefined;
    const entry = () => end();
    streams.add(entry);
    this.open.set(keyId, streams);
    return () => {
      streams.delete(entry);
      if (streams.size === 0 && this.open.get(keyId) === streams) this.open.delete(keyId);
    };
  }

  /** The keys with at least one open stream. */
  keyIds(): string[] {
    return [...this.open.keys()];
  }

  /** Ends every open stream of the key. */
  endStreamsOf(keyId: string): void {
    for (const end of this.open.get(keyId) ?? []) end();
  }
}
