/**
 * The SSE streams of runs (docs/decisions.md §SSE).
 *
 * `streamRunEvents`, one run: `state` and `content` events with the run's event numbers as ids.
 * - New stream: the run's latest `state` event first (its current state), then everything after it.
 * - `Last-Event-ID: n`: every event after n.
 * - Then follows the event log: woken at once by commits of this process and, on PostgreSQL, by the run
 *   notices of other processes (ctx.runSignals), polling as the fallback (SQLite, a notice lost while the
 *   LISTEN connection was down); `: keepalive` comments in between.
 * - Ends after a terminal `state` event once nothing newer is in the log; a stream resumed on an already
 *   finished run with nothing newer gets the terminal state again and ends.
 *
 * `streamTeamRunEvents`, every run of a team: the `state` events (without ids) of the changes committed by
 * this process, or announced by another one, after the stream opened, until the client goes
 * (docs/decisions.md §Dashboard).
 *
 * Both: back-pressure — when the socket's buffer is full (`write` returns false) nothing more is written
 * until it drains; a client that takes no bytes for two keepalive intervals (30 s by default) is
 * disconnected, so a reader that stopped never makes the server buffer events for it.
 */
import type { Response } from 'express';
import { toTimestamp } from '../../clock';
import type { ServerContext } from '../../context';
import { writeRespectingBackPressure } from '../../http/streamed-body';
import { resourceNotFound } from '../../problems';
import { findLatestStateEvent, readEvents, readStateEventsSince, type RunEvent } from '../../runs/events';
import { findRun } from '../../runs/repository';
import { isTerminalState } from '../../runs/states';

const POLL_INTERVAL_MS = 250;
const BATCH = 500;

/**
 * A state event recorded this long before the team-wide stream first hears of its run still goes out: its
 * time is taken when its transaction begins, which may be before the stream opened although it commits after.
 */
const FIRST_SIGHT_WINDOW_MS = 10_000;

const formatEvent = (seq: number | undefined, kind: string, data: string): string =>
  `${seq === undefined ? '' : `id: ${seq}\n`}event: ${kind}\ndata: ${data}\n\n`;

/** An open `text/event-stream` response: headers sent, keepalive comments running, writes respecting back-pressure. */
interface EventStreamResponse {
  /** The client went away, the server dropped the socket, or a write stalled. */
  readonly closed: boolean;
  write(seq: number | undefined, kind: string, data: string): Promise<void>;
  /** Resolves on `wake()`, when the response closes, or after `timeoutMs` (if given). */
  sleep(timeoutMs?: number): Promise<void>;
  wake(): void;
  end(): void;
}

/** `stop` ends the stream from the server's side (its key was revoked): the loop ends it cleanly. */
function openEventStream(ctx: ServerContext, res: Response, stop: AbortSignal): EventStreamResponse {
  let closed = false;
  let wakeSleeper: (() => void) | undefined;
  const wake = () => wakeSleeper?.();
  stop.addEventListener(
    'abort',
    () => {
      closed = true;
      wake();
    },
    { once: true },
  );
  // The response closes when the client goes away (or the server shuts down and drops the socket).
  res.on('close', () => {
    closed = true;
    wake();
  });

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  const keepaliveMs = ctx.settings.windows.sseKeepaliveSeconds * 1000;
  // A keepalive is only needed when nothing is waiting to go out.
  const keepalive = setInterval(() => res.writableNeedDrain || res.write(': keepalive\n\n'), keepaliveMs);
  const stallMs = 2 * keepaliveMs;

  return {
    get closed() {
      return closed;
    },
    async write(seq, kind, data) {
      if (!(await writeRespectingBackPressure(res, formatEvent(seq, kind, data), stallMs))) closed = true;
    },
    sleep(timeoutMs) {
      if (closed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = timeoutMs === undefined ? undefined : setTimeout(() => wakeSleeper?.(), timeoutMs);
        wakeSleeper = () => {
          clearTimeout(timer);
          wakeSleeper = undefined;
          resolve();
        };
      });
    },
    wake,
    end() {
      clearInterval(keepalive);
      if (!res.writableEnded) res.end();
    },
  };
}

export async function streamRunEvents(
  ctx: ServerContext,
  res: Response,
  teamId: string,
  runId: string,
  lastEventId: number | undefined,
  stop: AbortSignal,
): Promise<void> {
  if (!(await findRun(ctx, teamId, runId))) throw resourceNotFound(`Run ${runId} not found.`);

  const stream = openEventStream(ctx, res, stop);
  const unsubscribe = ctx.runSignals.onRunEvent(runId, stream.wake);
  try {
    let cursor = lastEventId ?? 0;
    /** The last event written was a terminal state. */
    let atTerminal = false;
    if (lastEventId === undefined) {
      const latest = await findLatestStateEvent(ctx, teamId, runId);
      if (latest) {
        await stream.write(latest.seq, 'state', latest.data);
        cursor = latest.seq;
        atTerminal = isTerminalState((JSON.parse(latest.data) as { state: string }).state);
      }
    }
    let first = true;
    while (!stream.closed) {
      const events: RunEvent[] = await readEvents(ctx, teamId, runId, cursor, BATCH);
      for (const event of events) {
        await stream.write(event.seq, event.kind, JSON.stringify(event.data));
        if (stream.closed) break;
        cursor = event.seq;
        atTerminal = event.kind === 'state' && isTerminalState(event.data.state);
      }
      if (events.length === BATCH) continue;
      if (first && lastEventId !== undefined && events.length === 0) {
        // Resumed with nothing newer: if the run is finished, say so once more and end.
        const latest = await findLatestStateEvent(ctx, teamId, runId);
        if (latest && isTerminalState((JSON.parse(latest.data) as { state: string }).state)) {
          await stream.write(latest.seq, 'state', latest.data);
          break;
        }
      }
      first = false;
      if (atTerminal) break;
      await stream.sleep(POLL_INTERVAL_MS);
    }
  } finally {
    unsubscribe();
    stream.end();
  }
}

/**
 * The state changes of every run of the team that this process commits, or hears of from another one,
 * while the stream is open. A wake names a run; its `state` events after the last one sent are read from
 * the log, so one run's events go out in order however its commits' wakes interleave. A run heard of for
 * the first time starts at the events of the last FIRST_SIGHT_WINDOW_MS. A run is forgotten once that
 * window has passed since it reached a terminal state (the window then no longer reaches that event, so
 * nothing is sent twice), so the stream's memory follows the runs in flight.
 */
export async function streamTeamRunEvents(ctx: ServerContext, res: Response, teamId: string, stop: AbortSignal): Promise<void> {
  const stream = openEventStream(ctx, res, stop);
  const woken = new Set<string>();
  const unsubscribe = ctx.runSignals.onTeamRunEvent(teamId, (runId) => {
    woken.add(runId);
    stream.wake();
  });
  /** Per run: the number of the last state event sent, and when a terminal one was sent (ms). */
  const sent = new Map<string, { seq: number; terminalAt?: number }>();
  try {
    while (!stream.closed) {
      const windowStart = ctx.clock.now().getTime() - FIRST_SIGHT_WINDOW_MS;
      for (const [runId, last] of sent) if (last.terminalAt !== undefined && last.terminalAt < windowStart) sent.delete(runId);
      for (const runId of woken) {
        woken.delete(runId);
        const since = toTimestamp(new Date(windowStart));
        for (const event of await readStateEventsSince(ctx, teamId, runId, sent.get(runId)?.seq ?? 0, since)) {
          await stream.write(undefined, 'state', event.data);
          if (stream.closed) break;
          const terminal = isTerminalState((JSON.parse(event.data) as { state: string }).state);
          sent.set(runId, terminal ? { seq: event.seq, terminalAt: ctx.clock.now().getTime() } : { seq: event.seq });
        }
        if (stream.closed) break;
      }
      if (woken.size === 0) await stream.sleep();
    }
  } finally {
    unsubscribe();
    stream.end();
  }
}
