/**
 * The `harness` runner: one execution of a third-party agent CLI (`config.harness.type`) in the run's
 * sandbox (docs/decisions.md §Third-party harnesses).
 *
 *   locate the CLI (catalog.ts) → its invocation (the adapter) → spawn in /workspace, through the gateway
 *   → each stdout line parsed into conversation messages, appended as it comes → exit → outcome
 *
 * - The CLI reaches models only through the model gateway, with this execution's key; the gateway meters
 *   and budgets every call, so what the CLI says it spent is recorded as an event, never added to usage.
 * - Its home (sessions, config) is `/workspace/.agent-runs/harnesses/<type>`: the run's own, kept with the
 *   workspace between executions. Its session id is recorded as a `harness_session` event; a follow-up's
 *   execution resumes the last one (a CLI that cannot resume, or whose session is gone, gets a new one with
 *   the conversation so far as its prompt).
 * - Outcome: exit 0 without a fatal error event → SUCCEEDED; a sandbox limit → FAILED with it; a spent
 *   budget (the gateway refused the CLI's call) → FAILED `budget_exceeded`; otherwise FAILED
 *   `harness_failed` naming the harness and what it said; cancel → ERROR `run_cancelled`.
 */
import type { Settings } from '../../settings';
import { RunNotOwnedError } from '../../runs/repository';
import type { ContentBlock, ConversationTurn, RunStatusMessage } from '../../runs/contract';
import type { RunContext, RunOutcome, Runner } from '../runner';
import type { SandboxedProcess } from '../sandbox';
import { commandEnvironment } from '../runners/command';
import { modelLimits, timerMs } from '../runners/model-config';
import { isHarnessType, type HarnessAdapter, type HarnessEvent, type HarnessType } from './adapter';
import { HARNESS_ADAPTERS, locateHarness, type LocatedHarness } from './catalog';

/** The event that keeps a CLI's session id with the run (`data: {harness, session_id}`). */
export const SESSION_EVENT = 'harness_session';
/** Last bytes of the CLI's stderr kept for a failure message. */
const STDERR_TAIL_CHARS = 600;

/** The run's third-party harness, when it names one (`oz` or none is the server's own runner). */
export function harnessTypeOf(config: RunContext['config']): string | undefined {
  const type = config.harness?.type;
  return type === undefined || type === 'oz' ? undefined : type;
}

const failed = (message: string, error_code: string, retryable = false): RunOutcome => ({ state: 'FAILED', statusMessage: { message, error_code, retryable } });

/** The session the last execution of this harness recorded, if any. */
function lastSession(history: ConversationTurn[], type: HarnessType): string | undefined {
  let found: string | undefined;
  for (const turn of history) {
    for (const message of turn.messages) {
      for (const block of message.content) {
        if (block.type === 'event' && block.name === SESSION_EVENT && block.data.harness === type && typeof block.data.session_id === 'string')
          found = block.data.session_id;
      }
    }
  }
  return found;
}

/** A follow-up without a session to resume: the conversation's text so far, then the new messages. */
function promptWithHistory(history: ConversationTurn[], messages: string[]): string {
  const lines: string[] = [];
  for (const turn of history) {
    for (const message of turn.messages) {
      const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      if (text && (message.role === 'user' || message.role === 'assistant')) lines.push(`${message.role}: ${text}`);
    }
  }
  const earlier = lines.length > 0 ? `The conversation so far:\n\n${lines.join('\n\n')}\n\nNow:\n\n` : '';
  return `${earlier}${messages.join('\n\n')}`;
}

/** A budget the gateway refused the CLI's calls for, as the run's status message. */
async function spentBudget(ctx: RunContext): Promise<RunStatusMessage | undefined> {
  try {
    await ctx.usage.assertWithinBudget();
    return undefined;
  } catch (err) {
    const status = (err as { statusMessage?: RunStatusMessage }).statusMessage;
    if (status?.error_code === 'budget_exceeded') return status;
    throw err;
  }
}

/**
 * Creates the CLI's home and its config files inside the sandbox, then execs the CLI: the server never
 * writes into a workspace path the run's processes could have replaced with a symlink.
 */
const PRELUDE = [
  'umask 077',
  'mkdir -p "$1" || exit 120',
  'shift',
  'while [ "$1" != -- ]; do mkdir -p "${1%/*}" && printf %s "$2" > "$1" || exit 120; shift 2; done',
  'shift',
  'exec "$@"',
].join('\n');

export class HarnessRunner implements Runner {
  readonly name = 'harness' as const;
  constructor(private readonly settings: Pick<Settings, 'harnessesDir'>) {}

  async run(ctx: RunContext): Promise<RunOutcome> {
    ctx.signal.throwIfAborted();
    const requested = harnessTypeOf(ctx.config) ?? '';
    const adapter = isHarnessType(requested) ? HARNESS_ADAPTERS[requested] : undefined;
    if (!adapter) return failed(`config.harness.type ${requested} is not a harness this server offers (GET /agent/harnesses).`, 'harness_unavailable');
    const isolated = ctx.sandbox.workspacePath !== ctx.workDir;
    const located = locateHarness(this.settings.harnessesDir, adapter, ctx.sandbox.image, isolated);
    if (!located) {
      return failed(
        `${adapter.displayName} (config.harness.type ${adapter.type}) is not available: this server has not installed ${adapter.npmPackage}@${adapter.version} (pnpm harnesses:install ${adapter.type}) and the run's image has no \`${adapter.bin}\` on its PATH.`,
        'harness_unavailable',
      );
    }
    const gateway = ctx.modelGateway;
    if (!gateway) return failed(`${adapter.displayName} needs the model gateway, which this server does not run.`, 'harness_unavailable');

    const resumeSessionId = ctx.input.kind === 'resume' && adapter.resumes ? lastSession(ctx.history, adapter.type) : undefined;
    const attempt = { adapter, located, gateway };
    const resumed = await this.#execute(ctx, attempt, resumeSessionId);
    // A session the CLI cannot find (its home was pruned with the workspace): a new one, with the conversation so far.
    if (resumeSessionId && !resumed.progressed && resumed.outcome.state === 'FAILED' && resumed.outcome.statusMessage.error_code === 'harness_failed') {
      ctx.log.info({ harness: adapter.type }, 'harness session not resumed; starting a new one');
      return (await this.#execute(ctx, attempt, undefined)).outcome;
    }
    return resumed.outcome;
  }

  /** One start of the CLI; `progressed`: it recorded conversation messages before it ended. */
  async #execute(
    ctx: RunContext,
    { adapter, located, gateway }: { adapter: HarnessAdapter; located: LocatedHarness; gateway: NonNullable<RunContext['modelGateway']> },
    resumeSessionId: string | undefined,
  ): Promise<{ outcome: RunOutcome; progressed: boolean }> {
    const prompt =
      ctx.input.kind === 'initial' ? ctx.input.prompt : resumeSessionId ? ctx.input.messages.join('\n\n') : promptWithHistory(ctx.history, ctx.input.messages);
    const stateDir = `${ctx.sandbox.workspacePath}/.agent-runs/harnesses/${adapter.type}`;
    const invocation = adapter.invocation({
      prompt,
      basePrompt: ctx.config.base_prompt,
      modelId: ctx.config.harness?.model_id,
      runModelId: ctx.config.model_id,
      reasoningLevel: ctx.config.harness?.reasoning_level,
      resumeSessionId,
      mcpServers: ctx.config.mcp_servers ?? {},
      gateway: { url: gateway.env.AGENT_MODEL_GATEWAY_URL!, key: gateway.env.AGENT_MODEL_GATEWAY_KEY! },
      stateDir,
      workspace: ctx.sandbox.workspacePath,
    });
    const files = (invocation.files ?? []).flatMap((f) => [f.path, f.content]);
    ctx.log.info({ harness: adapter.type, source: located.source, resume: resumeSessionId !== undefined }, 'harness starting');

    let proc: SandboxedProcess | undefined;
    const stream = new EventStream(ctx, adapter, () => proc?.terminate());
    proc = await ctx.sandbox.spawn({
      argv: ['/bin/sh', '-c', PRELUDE, 'harness', stateDir, ...files, '--', located.executable, ...invocation.args],
      env: { ...commandEnvironment(ctx), HOME: stateDir, ...invocation.env },
      stdin: 'ignore',
      wallTimeMs: timerMs(modelLimits(ctx.config).run_timeout_seconds),
      // Not SANDBOX_OUTPUT_BYTES: the stream is parsed, not stored (a long session's JSON outgrows it), and
      // each tool result is cut to RESULT_TEXT_MAX (adapter.ts) before it is recorded.
      limitOutput: false,
      binds: located.binds,
      // Traffic the CLI sends elsewhere (telemetry its flags do not switch off) is refused, and noted.
      onEgressDenied: (message) => stream.note(message),
    });
    const started = proc;
    const onAbort = () => started.terminate();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    let stderrTail = '';
    const outcome = (result: RunOutcome) => ({ outcome: result, progressed: stream.progressed });
    try {
      started.stdout.on('data', (chunk: Buffer) => stream.add(chunk));
      started.stderr.on('data', (chunk: Buffer) => {
        stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      const exit = await started.exited;
      await stream.finish();
      ctx.log.info({ harness: adapter.type, code: exit.code, signal: exit.signal }, 'harness exited');
      if (ctx.signal.aborted) return outcome(failed('The run was stopped (cancelled or the server is shutting down).', 'run_cancelled', true));
      if (stream.error) throw stream.error;
      if (exit.violation)
        return outcome({
          state: 'FAILED',
          statusMessage: { ...exit.violation, message: `${adapter.displayName} ${exit.violation.message}`, retryable: false },
        });
      if (exit.code === 0 && !stream.fatal) return outcome({ state: 'SUCCEEDED' });
      await ctx.usage.settled?.();
      const budget = ctx.usage.exceeded?.statusMessage ?? (await spentBudget(ctx));
      if (budget) return outcome({ state: 'FAILED', statusMessage: budget });
      const said = stream.fatal ?? stream.lastNotice ?? (stderrTail.trim() || undefined);
      const how = exit.startError
        ? `could not start (${exit.startError})`
        : exit.code !== null
          ? `exited with status ${exit.code}`
          : `was terminated by ${exit.signal}`;
      return outcome(
        failed(
          `${adapter.displayName} (harness ${adapter.type}) ${stream.fatal && exit.code === 0 ? 'failed' : how}${said ? `: ${said.slice(0, 500)}` : ''}`,
          'harness_failed',
        ),
      );
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * The CLI's stdout as conversation messages: split into lines, parsed by the adapter, appended in order
 * (each append waits for the one before it; SSE clients see each as it is written).
 */
class EventStream {
  readonly #decoder = new TextDecoder();
  readonly #state: unknown;
  #partial = '';
  #chain: Promise<void> = Promise.resolve();
  error: unknown;
  /** The CLI's own word that the run failed. */
  fatal: string | undefined;
  /** Its last notice (a retry, a warning): named in the failure when it then exits non-zero. */
  lastNotice: string | undefined;
  /** Whether it recorded a message of the conversation (text, an action, a result). */
  progressed = false;

  constructor(
    private readonly ctx: RunContext,
    private readonly adapter: HarnessAdapter,
    private readonly stop: () => void,
  ) {
    this.#state = adapter.newState();
  }

  add(chunk: Buffer): void {
    const text = this.#partial + this.#decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  /** Something the server noticed about the CLI (a refused connection): a notice like the CLI's own. */
  note(text: string): void {
    this.#emit({ kind: 'error', message: text, fatal: false });
  }

  async finish(): Promise<void> {
    const rest = this.#partial + this.#decoder.decode();
    this.#partial = '';
    if (rest.trim() !== '') this.#line(rest);
    await this.#chain;
  }

  #line(line: string): void {
    let events: HarnessEvent[];
    try {
      events = this.adapter.parse(line, this.#state);
    } catch (err) {
      this.ctx.log.warn({ err, harness: this.adapter.type }, 'harness line not understood');
      return;
    }
    for (const event of events) this.#emit(event);
  }

  #emit(event: HarnessEvent): void {
    const blocks = this.#blocks(event);
    if (blocks) this.#append(blocks.role, blocks.content);
  }

  #blocks(event: HarnessEvent): { role: 'assistant' | 'tool'; content: ContentBlock[] } | undefined {
    switch (event.kind) {
      case 'message':
        this.progressed = true;
        return event;
      case 'session':
        return { role: 'assistant', content: [{ type: 'event', name: SESSION_EVENT, data: { harness: this.adapter.type, session_id: event.id } }] };
      case 'usage':
        // What the CLI counted; the run's usage is the gateway's count of the same calls.
        return { role: 'assistant', content: [{ type: 'event', name: 'harness_usage', data: { ...event.usage } }] };
      case 'error':
        if (event.fatal) this.fatal = event.message;
        else this.lastNotice = event.message;
        return { role: 'assistant', content: [{ type: 'event', name: event.fatal ? 'harness_error' : 'harness_notice', data: { text: event.message } }] };
    }
  }

  #append(role: 'assistant' | 'tool', content: ContentBlock[]): void {
    this.#chain = this.#chain.then(async () => {
      if (this.error) return;
      try {
        await this.ctx.conversation.append(role, content);
      } catch (err) {
        this.error = err;
        // A run taken from this worker (cancelled elsewhere, swept): its CLI stops.
        if (err instanceof RunNotOwnedError) this.stop();
      }
    });
  }
}
