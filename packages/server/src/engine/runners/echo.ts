/**
 * Development runner: stays INPROGRESS for ECHO_DELAY_MS, then answers with the prompt (or, for a resumed
 * run, the follow-ups) as the assistant's message, and echoes every follow-up it finds in its inbox
 * before finishing, each in its own turn. Executes nothing.
 */
import type { Runner, RunContext, RunOutcome } from '../runner';

export class EchoRunner implements Runner {
  readonly name = 'echo' as const;
  constructor(private readonly delayMs: number) {}

  async run(ctx: RunContext): Promise<RunOutcome> {
    await abortableDelay(this.delayMs, ctx.signal);
    const first = ctx.input.kind === 'initial' ? [ctx.input.prompt] : ctx.input.messages;
    for (const text of first) await ctx.conversation.append('assistant', [{ type: 'text', text }]);
    for (let followups = await ctx.inbox.take(); followups.length > 0; followups = await ctx.inbox.take()) {
      ctx.signal.throwIfAborted();
      await ctx.conversation.startTurn();
      for (const text of followups) await ctx.conversation.append('assistant', [{ type: 'text', text }]);
    }
    return { state: 'SUCCEEDED' };
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
