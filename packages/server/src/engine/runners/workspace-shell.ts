/**
 * One long-lived `/bin/sh` in the run's sandbox that runs the built-in agent's workspace tools
 * (workspace-tools.ts; docs/decisions.md §Workspace tools of the built-in agent).
 *
 * Starting a sandbox costs tens of milliseconds (bubblewrap, cgroup, egress bridge); a tool call should cost
 * a few. So the runner starts this driver once per execution, on the first tool call, and sends it one
 * request at a time on stdin; everything a request runs is a child of the driver, inside the same sandbox
 * (root, workspace, limits, egress policy). Nothing here touches the workspace from the host.
 *
 * Wire format (bytes; the lengths are byte counts):
 *   request:  `<script bytes> <stdin bytes> <cap bytes> <timeout seconds, 0 = none>\n<script><stdin>`, or for
 *             a one-line script without stdin (most commands) `- 0 <cap> <timeout> <script>\n`
 *   response: `<exit code> <stdout bytes> <stderr bytes>\n` then stdout and stderr, each whole when it is at
 *             most `cap` bytes, else its first and last cap/2 bytes.
 * The script runs as `sh -c <script>` (or `sh <script file>`) in /workspace under coreutils' `timeout`, its
 * stdout and stderr into files of their own per request in the driver's private directory under the
 * sandbox's /tmp, so a background process a command left behind writes where nobody reads again; those
 * files are swept every SWEEP_EVERY requests, and at once after a large output. Every process the driver
 * starts per request is on the hot path of a tool call, so it starts few: timeout, sh, wc, and cat only
 * when there is output (head for a multi-line script or stdin, rm when sweeping).
 */
import type { RunSandbox, SandboxedProcess } from '../sandbox';

const SWEEP_EVERY = 64;
const SWEEP_ABOVE_BYTES = 1024 * 1024;
const DRIVER = [
  'd=$(mktemp -d) || exit 1',
  'k=0',
  "while IFS=' ' read -r s n c t line; do",
  '  k=$((k + 1)); o="$d/o$k"; e="$d/e$k"',
  '  if [ "$s" = - ]; then set -- sh -c "$line"; else head -c "$s" > "$d/s"; set -- sh "$d/s"; fi',
  '  if [ "$n" = 0 ]; then i=/dev/null; else head -c "$n" > "$d/i"; i="$d/i"; fi',
  '  if [ "$t" = 0 ]; then "$@" < "$i" > "$o" 2> "$e"; else timeout -k 2 "$t" "$@" < "$i" > "$o" 2> "$e"; fi',
  '  x=$?',
  '  set -- $(wc -c "$o" "$e")',
  '  printf \'%s %s %s\\n\' "$x" "$1" "$3"',
  '  if [ "$1" -le "$c" ] && [ "$3" -le "$c" ]; then [ "$1$3" = 00 ] || cat "$o" "$e"',
  '  else',
  '    if [ "$1" -le "$c" ]; then cat "$o"; else head -c $((c / 2)) "$o"; tail -c $((c / 2)) "$o"; fi',
  '    if [ "$3" -le "$c" ]; then cat "$e"; else head -c $((c / 2)) "$e"; tail -c $((c / 2)) "$e"; fi',
  '  fi',
  `  if [ $k -ge ${SWEEP_EVERY} ] || [ "$1" -gt ${SWEEP_ABOVE_BYTES} ] || [ "$3" -gt ${SWEEP_ABOVE_BYTES} ]; then rm -f "$d"/o* "$d"/e*; k=0; fi`,
  'done',
].join('\n');

/** Exit status of coreutils' `timeout` when the command ran out of time. */
export const TIMED_OUT_STATUS = 124;
/** Added to a request's own timeout before the server gives up on the driver (it kills with -k 2 itself). */
const ANSWER_GRACE_MS = 10_000;

export interface ShellRequest {
  /** Shell code, run by `sh` in /workspace. */
  script: string;
  /** Positional parameters of the script ($1, $2, …), passed without any shell interpretation. */
  args?: string[];
  stdin?: string;
  /** Most bytes of each stream that come back (the middle of a longer one is left out). */
  capBytes: number;
  /** Stops the script (SIGTERM, SIGKILL 2 s later) after this long; undefined = only the run's limits. */
  timeoutMs?: number;
}

export interface ShellStream {
  /** What came back: the whole stream, or its first and last capBytes/2 bytes. */
  bytes: Buffer;
  /** The stream's full size. */
  totalBytes: number;
}

export interface ShellResult {
  exitCode: number;
  stdout: ShellStream;
  stderr: ShellStream;
}

/** The driver stopped or could not start: the tool call fails with this message (the run may go on). */
export class WorkspaceShellError extends Error {}

/** Quotes one word for sh: inside single quotes nothing is special but the quote itself. */
export const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

interface Pending {
  capBytes: number;
  resolve: (result: ShellResult) => void;
  reject: (err: Error) => void;
}

export interface WorkspaceShellOptions {
  sandbox: RunSandbox;
  /** The run's variables (cloud environment, AGENT_RUN_*); the sandbox adds its allow-list. */
  env: Record<string, string>;
  /** The driver lives as long as the run's execution: its wall time is the run's own bound. */
  lifetimeMs: number;
}

export class WorkspaceShell {
  readonly #options: WorkspaceShellOptions;
  #proc: Promise<SandboxedProcess> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #buffer: Buffer = Buffer.alloc(0);
  #pending: Pending | undefined;
  #stderrTail = '';

  constructor(options: WorkspaceShellOptions) {
    this.#options = options;
  }

  /** Runs one request after those before it; rejects with WorkspaceShellError (or the abort reason). */
  run(request: ShellRequest, signal: AbortSignal): Promise<ShellResult> {
    const next = this.#queue.then(() => this.#send(request, signal));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the driver and everything it started (the run's execution is over). */
  async close(): Promise<void> {
    const proc = this.#proc;
    this.#proc = undefined;
    if (!proc) return;
    const started = await proc.catch(() => undefined);
    if (!started) return;
    started.terminate();
    await started.exited;
  }

  async #send(request: ShellRequest, signal: AbortSignal): Promise<ShellResult> {
    if (signal.aborted) throw signal.reason;
    const proc = await this.#start();
    const script = request.args && request.args.length > 0 ? `set -- ${request.args.map(shellQuote).join(' ')}; ${request.script}` : request.script;
    const stdin = Buffer.from(request.stdin ?? '', 'utf8');
    const cap = Math.max(2, request.capBytes - (request.capBytes % 2));
    const timeout = request.timeoutMs === undefined ? '0' : (Math.max(1, request.timeoutMs) / 1000).toFixed(3);
    // `read` keeps the rest of the line as is, except the spaces around it: those scripts go as a file.
    const inline = stdin.length === 0 && !/[\n\r\0]/.test(script) && script.trim() === script && script !== '';
    const body = Buffer.from(script, 'utf8');
    const framed = inline
      ? Buffer.from(`- 0 ${cap} ${timeout} ${script}\n`, 'utf8')
      : Buffer.concat([Buffer.from(`${body.length} ${stdin.length} ${cap} ${timeout}\n`), body, stdin]);
    const answer = new Promise<ShellResult>((resolve, reject) => {
      this.#pending = { capBytes: cap, resolve, reject };
    });
    const giveUpMs = (request.timeoutMs ?? this.#options.lifetimeMs) + ANSWER_GRACE_MS;
    const stop = (err: Error) => {
      this.#pending?.reject(err);
      this.#pending = undefined;
      void this.close();
    };
    const guard = setTimeout(() => stop(new WorkspaceShellError('the workspace shell stopped answering; it was restarted')), giveUpMs);
    const onAbort = () => stop(signal.reason instanceof Error ? signal.reason : new WorkspaceShellError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      proc.stdin!.write(framed);
      return await answer;
    } finally {
      clearTimeout(guard);
      signal.removeEventListener('abort', onAbort);
    }
  }

  #start(): Promise<SandboxedProcess> {
    this.#proc ??= this.#options.sandbox
      .spawn({ argv: ['/bin/sh', '-c', DRIVER], env: this.#options.env, stdin: 'pipe', wallTimeMs: this.#options.lifetimeMs, limitOutput: false })
      .then((proc) => {
        this.#buffer = Buffer.alloc(0);
        proc.stdout.on('data', (chunk: Buffer) => this.#receive(chunk));
        proc.stderr.on('data', (chunk: Buffer) => {
          this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-300);
        });
        proc.stdin!.on('error', () => {}); // a dead driver shows through `exited`
        void proc.exited.then((exit) => {
          if (this.#proc === started) this.#proc = undefined;
          const why = exit.violation?.message ?? exit.startError ?? (this.#stderrTail.trim() || `exit status ${exit.code ?? exit.signal}`);
          this.#pending?.reject(new WorkspaceShellError(`the workspace shell ended: ${why}`));
          this.#pending = undefined;
        });
        return proc;
      })
      .catch((err: unknown) => {
        this.#proc = undefined;
        throw new WorkspaceShellError(err instanceof Error ? err.message : String(err));
      });
    const started = this.#proc;
    return started;
  }

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const pending = this.#pending;
    if (!pending) return;
    const newline = this.#buffer.indexOf(10);
    if (newline < 0) return;
    const [code, outSize, errSize] = this.#buffer.subarray(0, newline).toString('latin1').trim().split(/\s+/).map(Number) as [number, number, number];
    const kept = (size: number) => (size <= pending.capBytes ? size : pending.capBytes);
    const outKept = kept(outSize);
    const errKept = kept(errSize);
    const start = newline + 1;
    if (this.#buffer.length < start + outKept + errKept) return;
    const stdout = Buffer.from(this.#buffer.subarray(start, start + outKept));
    const stderr = Buffer.from(this.#buffer.subarray(start + outKept, start + outKept + errKept));
    this.#buffer = this.#buffer.subarray(start + outKept + errKept);
    this.#pending = undefined;
    pending.resolve({ exitCode: code, stdout: { bytes: stdout, totalBytes: outSize }, stderr: { bytes: stderr, totalBytes: errSize } });
  }
}
