/**
 * Runs AGENT_COMMAND (`/bin/sh -c …`) in the run's working directory, in its own process group.
 *
 * - stdin: the prompt (a resumed run: its follow-up messages, separated by blank lines); then closed.
 * - environment: the server's environment minus the service's own credentials, plus the run's cloud
 *   environment, plus AGENT_RUN_ID and AGENT_RUN_INPUT (`initial` | `resume`).
 * - stdout and stderr are recorded as they arrive, batched every OUTPUT_FLUSH_MS: one assistant message
 *   per batch whose blocks keep arrival order — `text` for stdout, `event` named `stderr` for stderr.
 * - exit 0 → SUCCEEDED; otherwise FAILED (`agent_command_failed`, not retryable).
 * - abort (cancel, shutdown): SIGTERM to the whole group, SIGKILL 2 s later. The group is also cleaned
 *   up when the command exits leaving background processes behind.
 *
 * A follow-up that arrives while the command runs stays in the inbox; the engine re-queues the run when
 * it finishes and the command runs again with the follow-ups on stdin (same working directory).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { RunNotOwnedError } from '../run-store';
import type { ContentBlock, RunContext, RunOutcome, Runner } from '../runner';

export const OUTPUT_FLUSH_MS = 100;
const OUTPUT_FLUSH_BYTES = 64 * 1024;
export const KILL_GRACE_MS = 2000;
/** After the command exits, how long its pipes may stay open (held by background children) before the group is killed. */
const CLOSE_GRACE_MS = 500;

/** Service credentials the agent must never see. */
const WITHHELD_ENV = ['SECRETS_KEY', 'BOOTSTRAP_ADMIN_KEY', 'DATABASE_URL', 'TEST_POSTGRES_URL'];

export function commandEnvironment(base: NodeJS.ProcessEnv, ctx: Pick<RunContext, 'env' | 'runId' | 'input'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of WITHHELD_ENV) delete env[name];
  return { ...env, ...ctx.env, AGENT_RUN_ID: ctx.runId, AGENT_RUN_INPUT: ctx.input.kind };
}

export const commandStdin = (input: RunContext['input']): string =>
  input.kind === 'initial' ? input.prompt : input.messages.join('\n\n');

export class CommandRunner implements Runner {
  readonly name = 'command' as const;
  constructor(private readonly command: string) {}

  async run(ctx: RunContext): Promise<RunOutcome> {
    ctx.signal.throwIfAborted();
    const child = spawn('/bin/sh', ['-c', this.command], {
      cwd: ctx.workDir,
      env: commandEnvironment(process.env, ctx),
      detached: true, // own process group: the whole tree can be signalled at once
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const group = processGroup(child);
    const output = new OutputRecorder(ctx, (err) => {
      if (err instanceof RunNotOwnedError) group.terminate();
    });

    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

    const onAbort = () => group.terminate();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await spawned;
      child.stdin!.on('error', () => {}); // the command need not read its stdin (EPIPE)
      child.stdin!.end(commandStdin(ctx.input));
      child.stdout!.on('data', (chunk: Buffer) => output.add('stdout', chunk));
      child.stderr!.on('data', (chunk: Buffer) => output.add('stderr', chunk));

      const { code, signal } = await exited;
      ctx.log.debug({ pid: child.pid, code, signal }, 'agent command exited');
      if (!(await settlesWithin(closed, CLOSE_GRACE_MS))) {
        group.terminate(); // background processes still hold the pipes
        await closed;
      }
      await output.finish();
      ctx.signal.throwIfAborted();
      if (output.error) throw output.error;
      if (code === 0) return { state: 'SUCCEEDED' };
      return {
        state: 'FAILED',
        statusMessage: {
          message: code !== null ? `agent command exited with status ${code}` : `agent command was terminated by ${signal}`,
          error_code: 'agent_command_failed',
          retryable: false,
        },
      };
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      group.dispose();
    }
  }
}

/** Signals the child's whole process group: SIGTERM now, SIGKILL after KILL_GRACE_MS. */
function processGroup(child: ChildProcess) {
  let killTimer: NodeJS.Timeout | undefined;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const signalGroup = (sig: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // ESRCH: the group is gone already
    }
  };
  return {
    terminate() {
      signalGroup('SIGTERM');
      if (killTimer) return;
      killTimer = setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    },
    dispose() {
      // Leave nothing behind: whatever the command started in its group dies with the run.
      if (exited) signalGroup('SIGKILL');
      if (killTimer && exited) clearTimeout(killTimer);
    },
  };
}

const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });

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

  constructor(
    private readonly ctx: RunContext,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(stream: Stream, chunk: Buffer): void {
    const text = this.partial[stream] + this.decoders[stream].decode(chunk, { stream: true });
    const cut = text.lastIndexOf('\n') + 1;
    this.partial[stream] = text.slice(cut);
    if (cut > 0) this.push(stream, text.slice(0, cut));
    if (this.readyBytes >= OUTPUT_FLUSH_BYTES) this.flush();
    else if (this.ready.length > 0 && !this.timer) this.timer = setTimeout(() => this.flush(), OUTPUT_FLUSH_MS);
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
    this.chain = this.chain.then(async () => {
      if (this.error) return;
      try {
        await this.ctx.conversation.append('assistant', blocks);
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
      if (rest !== '') this.push(stream, rest);
    }
    this.flush();
    await this.chain;
  }
}
