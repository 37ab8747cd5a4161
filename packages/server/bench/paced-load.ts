/**
 * An open-loop load generator for latency figures: GET requests sent at a fixed rate, whether or not
 * earlier ones have been answered, over at most `connections` keep-alive connections.
 *
 * autocannon's own rate option does not do this: it lets each connection send as fast as it can until
 * that second's quota is spent and then waits for the next second, so the server sees a burst at the
 * start of every second. Here request k is due at start + k / rate, and its latency runs from that due
 * time (or from its send, when the timer let it go up to 1 ms early) to the end of its answer: time spent
 * waiting for a free connection (or on this process's timers) counts, so a slow server cannot hide behind
 * a generator that slowed down with it (coordinated omission).
 *
 * Because the generator's own delays count, it is kept lean: it shares the machine (and its CPUs) with the
 * server. The request bytes are built once and written to plain sockets, and an answer is read only as
 * far as its status line and Content-Length (node:http's client cost several times the CPU per request,
 * and its garbage collections showed up as latency). How late the generator itself got to each due time
 * is reported (`timerLag*`), so a reader can tell the generator's share of a tail from the server's.
 */
import fs from 'node:fs';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PacedLoadResult {
  /** Requests per second actually completed over the run (answers / seconds from first due to last answer). */
  achieved: number;
  p50: number;
  p99: number;
  max: number;
  /** How late this process reached a request's due time (its timers and event loop), p99 and max, ms. */
  timerLagP99: number;
  timerLagMax: number;
  non2xx: number;
  errors: number;
  /** The samples behind these figures, so that consecutive runs can be pooled into one (`poolPacedLoads`). */
  samples: { latencies: number[]; timerLags: number[]; seconds: number };
}

export interface PacedLoadOptions {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  connections: number;
}

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const { url, headers, rate, seconds, connections } = options;
  const target = new URL(url);
  const head = Object.entries({ host: target.host, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  const request = Buffer.from(`GET ${target.pathname}${target.search} HTTP/1.1\r\n${head.join('')}\r\n`);
  const total = Math.max(1, Math.round(rate * seconds));

  const latencies: number[] = [];
  const timerLags: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let settled = 0;
  let allSettled!: () => void;
  const done = new Promise<void>((resolve) => (allSettled = resolve));
  const settle = (due: number, outcome: 'ok' | 'non2xx' | 'error') => {
    if (outcome === 'error') errors++;
    else latencies.push(performance.now() - due);
    if (outcome === 'non2xx') non2xx++;
    if (++settled === total) allSettled();
  };

  const waiting: number[] = []; // due times of requests waiting for a free connection, oldest first
  const idle: LoadConnection[] = [];
  let live = 0;
  let finished = false;
  const dispatch = (due: number) => {
    const connection = idle.pop();
    if (connection) connection.send(due);
    else if (live === 0) settle(due, 'error'); // the server is gone: nothing will ever free up
    else waiting.push(due);
  };
  const onFree = (connection: LoadConnection) => {
    const due = waiting.shift();
    if (due === undefined) idle.push(connection);
    else connection.send(due);
  };
  const onClosed = (connection: LoadConnection) => {
    live--;
    const at = idle.indexOf(connection);
    if (at >= 0) idle.splice(at, 1);
    if (!finished) open().then(onFree, () => live === 0 && waiting.splice(0).forEach((due) => settle(due, 'error')));
  };
  const open = (): Promise<LoadConnection> =>
    new Promise((resolve, reject) => {
      const connection = new LoadConnection(target, request, settle, dispatch, onFree, onClosed);
      connection.socket.once('connect', () => {
        live++;
        resolve(connection);
      });
      connection.socket.once('error', reject);
    });
  idle.push(...(await Promise.all(Array.from({ length: connections }, open))));

  const start = performance.now() + 20;
  for (let k = 0; k < total; k++) {
    const due = start + (k * 1000) / rate;
    const wait = due - performance.now();
    // Timers have millisecond granularity: requests due within the next millisecond go now, on time.
    if (wait >= 1) await sleep(Math.floor(wait));
    const now = performance.now();
    timerLags.push(Math.max(0, now - due));
    // A request sent ahead of its due time is timed from when it was sent (no negative latencies).
    dispatch(Math.min(due, now));
  }
  await done;
  const elapsed = (performance.now() - start) / 1000;
  finished = true;
  for (const connection of idle) connection.socket.destroy();

  return summarize({ latencies, timerLags, seconds: elapsed }, non2xx, errors);
}

/**
 * One result for runs made back to back, as if they were one long run: percentiles over all their
 * requests (not an average of each run's percentiles), answers per second over their summed time.
 */
export function poolPacedLoads(runs: readonly PacedLoadResult[]): PacedLoadResult {
  const sum = (of: (run: PacedLoadResult) => number) => runs.reduce((total, run) => total + of(run), 0);
  return summarize(
    {
      latencies: runs.flatMap((run) => run.samples.latencies),
      timerLags: runs.flatMap((run) => run.samples.timerLags),
      seconds: sum((run) => run.samples.seconds),
    },
    sum((run) => run.non2xx),
    sum((run) => run.errors),
  );
}

/** One window of `pacedWindows`: its own figures, the machine's CPU steal over it, and whether it counts. */
export interface PacedWindow extends PacedLoadResult {
  stealPercent: number;
  voided: boolean;
}

export interface PacedWindowsResult extends PacedLoadResult {
  /** Every window run, in order, voided ones included. */
  windows: PacedWindow[];
  /** Whether as many windows as asked for counted; without them the figures are no verdict. */
  complete: boolean;
  /** CPU steal over all the windows run. */
  stealPercent: number;
}

/** Starts a reading of the machine's CPU steal; the function it returns gives the percent since then. */
export type StealMeter = () => () => number;

/**
 * `windows` paced runs of `seconds` back to back, pooled (`poolPacedLoads`). A window over which the
 * hypervisor stole `maxStealPercent` or more of the machine's CPU time measured the host, not the server:
 * it is voided and another is run, at most 2 × `windows` in all, and it stays in `windows` for the report.
 * The choice looks at steal alone, never at latency, so a slow window the host did not stall still counts.
 */
export async function pacedWindows(
  options: PacedLoadOptions & { windows: number; maxStealPercent: number; measureSteal?: StealMeter },
): Promise<PacedWindowsResult> {
  const { windows: wanted, maxStealPercent, measureSteal = machineSteal, ...load } = options;
  const windows: PacedWindow[] = [];
  const kept: PacedWindow[] = [];
  const whole = measureSteal();
  while (kept.length < wanted && windows.length < 2 * wanted) {
    const steal = measureSteal();
    const window = await pacedLoad(load);
    const stealPercent = steal();
    const measured = { ...window, stealPercent, voided: stealPercent >= maxStealPercent };
    windows.push(measured);
    if (!measured.voided) kept.push(measured);
  }
  return { ...poolPacedLoads(kept), windows, complete: kept.length === wanted, stealPercent: whole() };
}

/**
 * Steal from /proc/stat: the share of all CPUs' time the hypervisor gave to others while this machine's
 * vCPUs wanted to run (the 8th counter), stalls no process here can see or avoid. NaN without /proc.
 */
export const machineSteal: StealMeter = () => {
  const before = cpuTicks();
  return () => {
    const after = cpuTicks();
    if (!before || !after) return NaN;
    const delta = after.map((v, i) => v - (before[i] ?? 0));
    const total = delta.reduce((a, b) => a + b, 0);
    return total > 0 ? (100 * (delta[7] ?? 0)) / total : NaN;
  };
};

function cpuTicks(): number[] | undefined {
  try {
    return fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return undefined;
  }
}

function summarize(samples: PacedLoadResult['samples'], non2xx: number, errors: number): PacedLoadResult {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const sorted = samples.latencies.sort((a, b) => a - b);
  const lags = samples.timerLags.sort((a, b) => a - b);
  return {
    achieved: sorted.length / samples.seconds,
    p50: round(quantile(sorted, 0.5)),
    p99: round(quantile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? NaN),
    timerLagP99: round(quantile(lags, 0.99)),
    timerLagMax: round(lags.at(-1) ?? NaN),
    non2xx,
    errors,
    samples,
  };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Bytes a response head may take before the connection gives up on it. */
const MAX_HEAD_BYTES = 16 * 1024;
/** What a chunked body ends with: the last chunk's CRLF, then the zero-size chunk. */
const CHUNKED_END = '\r\n0\r\n\r\n';
const CHUNKED = -1;

/**
 * One keep-alive connection with at most one request in flight. It reads an answer only as far as it must
 * to know where it ends (Content-Length, or the last chunk of a chunked body), into one buffer reused for
 * every read (`onread`) and without keeping the body: buffers allocated per read (25 KB list pages, 500 per
 * second) made this process run full garbage collections every second or two, up to 20 ms each, and its
 * own stalls counted as server latency. A connection that fails or closes (a failed request, the server's
 * keep-alive timeout) settles its request as an error, if it had one, and is replaced — except a request
 * that got no byte of an answer on a connection that had answered before: the server's idle timeout closed
 * it as the request went out (a race no client can see coming), so it is sent again on another connection,
 * still timed from its due time, as HTTP clients retry an idempotent request then.
 */
class LoadConnection {
  readonly socket: net.Socket;
  private due: number | undefined;
  private connected = false;
  private answers = 0;
  /** The head read so far (latin1), until its blank line; a few hundred bytes. */
  private head = '';
  private status = 0;
  /** Body bytes still to come, CHUNKED for a chunked body, undefined while the head is being read. */
  private bodyLeft: number | undefined;
  /** The last bytes of a chunked body seen so far (to spot its end across reads). */
  private chunkedTail = '';

  constructor(
    target: URL,
    private readonly request: Buffer,
    private readonly settle: (due: number, outcome: 'ok' | 'non2xx' | 'error') => void,
    private readonly resend: (due: number) => void,
    private readonly onFree: (connection: LoadConnection) => void,
    private readonly onClosed: (connection: LoadConnection) => void,
  ) {
    const readBuffer = Buffer.allocUnsafe(64 * 1024);
    this.socket = net.connect({
      host: target.hostname,
      port: Number(target.port),
      onread: { buffer: readBuffer, callback: (bytes) => this.onRead(readBuffer.subarray(0, bytes)) },
    });
    this.socket.setNoDelay(true);
    this.socket.on('error', () => undefined); // 'close' follows
    this.socket.on('close', () => {
      const due = this.due;
      this.due = undefined;
      const unanswered = this.head === '' && this.bodyLeft === undefined;
      if (due !== undefined && this.answers > 0 && unanswered) this.resend(due);
      else if (due !== undefined) this.settle(due, 'error');
      if (this.connected) this.onClosed(this);
    });
    this.socket.once('connect', () => (this.connected = true));
  }

  send(due: number): void {
    this.due = due;
    this.head = '';
    this.bodyLeft = undefined;
    this.socket.write(this.request);
  }

  /** `data` is a view of the reused read buffer: nothing of it may be kept but copies. */
  private onRead(data: Buffer): boolean {
    let offset = 0;
    while (offset < data.length && this.due !== undefined) {
      if (this.bodyLeft === undefined) offset = this.readHead(data, offset);
      else if (this.bodyLeft === CHUNKED) offset = this.readChunked(data, offset);
      else {
        const take = Math.min(this.bodyLeft, data.length - offset);
        this.bodyLeft -= take;
        offset += take;
        if (this.bodyLeft === 0) this.answered();
      }
    }
    return true;
  }

  private readHead(data: Buffer, offset: number): number {
    const piece = data.toString('latin1', offset, Math.min(data.length, offset + MAX_HEAD_BYTES));
    const text = this.head + piece;
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) {
      if (text.length > MAX_HEAD_BYTES) this.socket.destroy(); // settles the request as an error
      this.head = text;
      return offset + piece.length;
    }
    const consumed = end + 4 - this.head.length;
    const headText = text.slice(0, end);
    this.head = '';
    this.status = Number(headText.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(headText);
    if (this.status === 204 || this.status === 304) this.bodyLeft = 0;
    else if (length) this.bodyLeft = Number(length[1]);
    else if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(headText)) this.bodyLeft = CHUNKED;
    else {
      this.socket.destroy(); // a body that ends only when the connection does: not for a keep-alive load
      return data.length;
    }
    // An empty chunked body is the zero chunk right after the head's blank line.
    this.chunkedTail = '\r\n';
    if (this.bodyLeft === 0) this.answered();
    return offset + consumed;
  }

  private readChunked(data: Buffer, offset: number): number {
    // One request in flight: the end of a chunked body is the end of what the server sent.
    this.chunkedTail = (this.chunkedTail + data.toString('latin1', Math.max(offset, data.length - CHUNKED_END.length), data.length)).slice(-CHUNKED_END.length);
    if (this.chunkedTail === CHUNKED_END) this.answered();
    return data.length;
  }

  private answered(): void {
    const due = this.due!;
    this.due = undefined;
    this.answers++;
    this.settle(due, this.status >= 200 && this.status < 300 ? 'ok' : 'non2xx');
    this.onFree(this);
  }
}
