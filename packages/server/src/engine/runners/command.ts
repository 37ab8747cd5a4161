/**
 * Runs AGENT_COMMAND (`/bin/sh -c …`) in the run's sandbox (docs/sandbox.md), in its workspace.
 *
 * - stdin: the prompt (a resumed run: its follow-up messages, separated by blank lines); then closed.
 * - environment: the sandbox's allow-list (PATH, HOME, LANG, TERM) plus the run's cloud environment plus
 *   the model gateway's base URLs and this execution's key (OPENAI_BASE_URL, OPENAI_API_KEY, …; see
 *   docs/sandbox.md) plus AGENT_RUN_ID and AGENT_RUN_INPUT (`initial` | `resume`) — never the server's own environment.
 * - stdout and stderr are recorded as they arrive, batched every OUTPUT_FLUSH_MS: one assistant message
 *   per batch whose blocks keep arrival order — `text` for stdout, `event` named `stderr` for stderr.
 * - artifacts (./command-artifacts.ts): a stdout line `::artifact::{…}` publishes a link as it appears
 *   (the line becomes an `artifact` event, not text); the files under `/workspace/.artifacts/` are published
 *   when the command has exited (whatever its status, unless the run was cancelled or the server stops).
 * - a question (./ask-user.ts): a stdout line `::ask_user::{"question": "…"}` is recorded as the question's
 *   text (an invalid one as an `ask_user_rejected` event); the command then exits 0 and the run is BLOCKED
 *   on it. The answer, a follow-up, runs the command again with it on stdin (AGENT_RUN_INPUT=resume).
 * - exit 0 → SUCCEEDED (BLOCKED after a question); otherwise FAILED (`agent_command_failed`, not retryable). A sandbox limit (wall
 *   time = the run's `run_timeout_seconds`, memory, processes, CPU, output) ends it and the run FAILS
 *   with the limit's own `error_code`.
 * - abort (cancel, shutdown): the sandbox stops the whole tree (SIGTERM, SIGKILL 2 s later).
 *
 * A follow-up that arrives while the command runs stays in the inbox; the engine re-queues the run when
 * it finishes and the command runs again with the follow-ups on stdin (same workspace).
 */
import { MAX_QUESTION_CHARS } from '../../runs/blocked';
import { ASK_USER_LINE_PREFIX, blockedOutcome, parseQuestionJson } from './ask-user';
import { ARTIFACT_LINE_PREFIX, publishArtifactDirectory, publishArtifactLine } from './command-artifacts';
import { modelLimits, timerMs } from './model-config';
import type { ContentBlock } from '../../runs/contract';
import type { RunContext, RunOutcome, Runner } from '../runner';
import { inSpan, type Span } from '../../telemetry/spans';

export const OUTPUT_FLUSH_MS = 100;
const OUTPUT_FLUSH_BYTES = 64 * 1024;

export function commandEnvironment(ctx: Pick<RunContext, 'env' | 'runId' | 'input' | 'modelGateway'>): Record<string, string> {
  return { ...ctx.env, ...ctx.modelGateway?.env, AGENT_RUN_ID: ctx.runId, AGENT_RUN_INPUT: ctx.input.kind };
}

export const commandStdin = (input: RunContext['input']): string => (input.kind === 'initial' ? input.prompt : input.messages.join('\n\n'));

export class CommandRunner implements Runner {
  readonly name = 'command' as const;
  constructor(private readonly command: string) {}

  run(ctx: RunContext): Promise<RunOutcome> {
    return inSpan('agent command', { 'process.command': 'AGENT_COMMAND' }, (span) => this.#run(ctx, span));
  }

  async #run(ctx: RunContext, span: Span): Promise<RunOutcome> {
    ctx.signal.throwIfAborted();
    const proc = await ctx.sandbox.spawn({
      argv: ['/bin/sh', '-c', this.command],
      env: commandEnvironment(ctx),
      stdin: 'pipe',
      // The contract's run_timeout_seconds (default 1800) bounds every runner's execution.
      wallTimeMs: timerMs(modelLimits(ctx.config).run_timeout_seconds),
      limitOutput: true,
    });
    // A conversation that can take no more (the run is not ours any more, or reached its output bound)
    // ends the command: what it printed next could not be recorded.
    const output = new OutputRecorder(ctx, () => proc.terminate());
    const onAbort = () => proc.terminate();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      proc.stdin?.on('error', () => {}); // the command need not read its stdin (EPIPE)
      proc.stdin?.end(commandStdin(ctx.input));
      proc.stdout.on('data', (chunk: Buffer) => output.add('stdout', chunk));
      proc.stderr.on('data', (chunk: Buffer) => output.add('stderr', chunk));

      const exit = await proc.exited;
      if (exit.code !== null) span.setAttribute('process.exit.code', exit.code);
      ctx.log.debug({ pid: proc.pid, code: exit.code, signal: exit.signal }, 'agent command exited');
      await output.finish();
      ctx.signal.throwIfAborted();
      if (output.error) throw output.error;
      const published = await publishArtifactDirectory(ctx);
      if (published.length > 0) await ctx.conversation.append('assistant', published);
      if (exit.violation)
        return { state: 'FAILED', statusMessage: { ...exit.violation, message: `agent command ${exit.violation.message}`, retryable: false } };
      if (exit.code === 0) return output.question ? blockedOutcome(output.question) : { state: 'SUCCEEDED' };
      return {
        state: 'FAILED',
        statusMessage: {
          message: exit.startError
            ? `agent command could not start: ${exit.startError}`
            : exit.code !== null
              ? `agent command exited with status ${exit.code}`
              : `agent command was terminated by ${exit.signal}`,
          error_code: 'agent_command_failed',
          retryable: false,
        },
      };
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }
}

type Stream = 'stdout' | 'stderr';

/**
 * Batches output into conversation messages. Complete lines are recorded every OUTPUT_FLUSH_MS (or
 * sooner past OUTPUT_FLUSH_BYTES); a trailing partial line waits for its newline or the end. Writes are
 * chained so messages keep their order.
 */
class OutputRecorder {
  private partial: Record<Stream, string> = { stdout: '', stderr: '' };
  private decoders: Record<Stream, TextDecoder> = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  private ready: Array<{ stream: Stream; text: string }> = [];
  private readyBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  error: unknown;
  /** What the command asked on `::ask_user::` lines, joined. */
  question: string | undefined;

  constructor(
    private readonly ctx: RunContext,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(stream: Stream, chunk: Buffer): void {
    const text = this.partial[stream] + this.decoders[stream].decode(chunk, { stream: true });
    const cut = text.lastIndexOf('\n') + 1;
    this.partial[stream] = text.slice(cut);
    if (cut > 0) this.lines(stream, text.slice(0, cut));
    if (this.readyBytes >= OUTPUT_FLUSH_BYTES) this.flush();
    else if (this.ready.length > 0 && !this.timer) this.timer = setTimeout(() => this.flush(), OUTPUT_FLUSH_MS);
  }

  /**
   * Complete lines: stdout's `::artifact::` lines are published in their place and its `::ask_user::` lines
   * recorded as the question, the rest is recorded as it is.
   */
  private lines(stream: Stream, text: string): void {
    if (stream === 'stderr' || (!text.includes(ARTIFACT_LINE_PREFIX) && !text.includes(ASK_USER_LINE_PREFIX))) {
      this.push(stream, text);
      return;
    }
    for (const line of text.split(/(?<=\n)/)) {
      if (line.startsWith(ARTIFACT_LINE_PREFIX)) this.artifactLine(line.slice(ARTIFACT_LINE_PREFIX.length).replace(/\r?\n$/, ''));
      else if (line.startsWith(ASK_USER_LINE_PREFIX)) this.askLine(line.slice(ASK_USER_LINE_PREFIX.length).replace(/\r?\n$/, ''));
      else this.push(stream, line);
    }
  }

  private askLine(json: string): void {
    this.flush();
    const parsed = parseQuestionJson(json);
    if (parsed.ok) this.question = (this.question ? `${this.question}\n\n${parsed.question}` : parsed.question).slice(0, MAX_QUESTION_CHARS);
    const block: ContentBlock = parsed.ok
      ? { type: 'text', text: parsed.question }
      : { type: 'event', name: 'ask_user_rejected', data: { reason: parsed.error } };
    this.enqueue(async () => [block]);
  }

  /** Records what came before the line, then publishes it; both on the chain, so the conversation keeps their order. */
  private artifactLine(json: string): void {
    this.flush();
    this.enqueue(async () => [await publishArtifactLine(this.ctx, json)]);
  }

  private push(stream: Stream, text: string): void {
    const last = this.ready[this.ready.length - 1];
    if (last && last.stream === stream) last.text += text;
    else this.ready.push({ stream, text });
    this.readyBytes += text.length;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.ready.length === 0) return;
    const blocks: ContentBlock[] = this.ready.map(({ stream, text }) =>
      stream === 'stdout' ? { type: 'text', text } : { type: 'event', name: 'stderr', data: { text } },
    );
    this.ready = [];
    this.readyBytes = 0;
    this.enqueue(async () => blocks);
  }

  /** Appends what `make` answers as one assistant message, after everything queued before it. */
  private enqueue(make: () => Promise<ContentBlock[]>): void {
    this.chain = this.chain.then(async () => {
      if (this.error) return;
      try {
        await this.ctx.conversation.append('assistant', await make());
      } catch (err) {
        this.error = err;
        this.onError(err);
      }
    });
  }

  /** Records everything left, including unterminated last lines. */
  async finish(): Promise<void> {
    for (const stream of ['stdout', 'stderr'] as const) {
      const rest = this.partial[stream] + this.decoders[stream].decode();
      this.partial[stream] = '';
      if (rest !== '') this.lines(stream, rest);
    }
    this.flush();
    await this.chain;
  }
}
