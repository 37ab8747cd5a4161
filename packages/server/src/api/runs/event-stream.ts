/**
 * The SSE stream of one run (docs/decisions.md §SSE): `state` and `content` events with the run's event
 * numbers as ids.
 * - New stream: the run's latest `state` event first (its current state), then everything after it.
 * - `Last-Event-ID: n`: every event after n.
 * - Then follows the event log: woken at once by commits of this server (ctx.runSignals), polling as the
 *   fallback for writers in other processes; `: keepalive` comments in between.
 * - Ends after a terminal `state` event once nothing newer is in the log; a stream resumed on an already
 *   finished run with nothing newer gets the terminal state again and ends.
 * - Back-pressure: when the socket's buffer is full (`write` returns false) nothing more is written until it
 *   drains; a client that takes no bytes for two keepalive intervals (30 s by default) is disconnected, so a
 *   reader that stopped never makes the server buffer the run's events.
 */
import type { Response } from 'express';
import type { ServerContext } from '../../context';
import { resourceNotFound } from '../../problems';
import { findLatestStateEvent, readEvents, type RunEvent } from '../../runs/events';
import { findRun } from '../../runs/repository';
import { isTerminalState } from '../../runs/states';

const POLL_INTERVAL_MS = 250;
const BATCH = 500;

const formatEvent = (seq: number, kind: string, data: string): string => `id: ${seq}\nevent: ${kind}\ndata: ${data}\n\n`;

/**
 * Writes `chunk`; when the response's buffer is full, waits for it to drain. False: the response closed, or
 * took nothing for `stallMs` and was destroyed.
 */
function writeRespectingBackPressure(res: Response, chunk: string, stallMs: number): Promise<boolean> | boolean {
  if (res.destroyed) return false;
  if (res.write(chunk)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (drained: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(drained);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => {
      done(false);
      res.destroy();
    }, stallMs);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

export async function streamRunEvents(
  ctx: ServerContext,
  res: Response,
  teamId: string,
  runId: string,
  lastEventId: number | undefined,
): Promise<void> {
  if (!(await findRun(ctx, teamId, runId))) throw resourceNotFound(`Run ${runId} not found.`);

  let closed = false;
  let wake: (() => void) | undefined;
  const unsubscribe = ctx.runSignals.onRunEvent(runId, () => wake?.());
  // The response closes when the client goes away (or the server shuts down and drops the socket).
  res.on('close', () => {
    closed = true;
    wake?.();
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
  const writeEvent = async (seq: number, kind: string, data: string): Promise<void> => {
    if (!(await writeRespectingBackPressure(res, formatEvent(seq, kind, data), stallMs))) closed = true;
  };

  try {
    let cursor = lastEventId ?? 0;
    /** The last event written was a terminal state. */
    let atTerminal = false;
    if (lastEventId === undefined) {
      const latest = await findLatestStateEvent(ctx, teamId, runId);
      if (latest) {
        await writeEvent(latest.seq, 'state', latest.data);
        cursor = latest.seq;
        atTerminal = isTerminalState((JSON.parse(latest.data) as { state: string }).state);
      }
    }
    let first = true;
    while (!closed) {
      const events: RunEvent[] = await readEvents(ctx, teamId, runId, cursor, BATCH);
      for (const event of events) {
        await writeEvent(event.seq, event.kind, JSON.stringify(event.data));
        if (closed) break;
        cursor = event.seq;
        atTerminal = event.kind === 'state' && isTerminalState(event.data.state);
      }
      if (events.length === BATCH) continue;
      if (first && lastEventId !== undefined && events.length === 0) {
        // Resumed with nothing newer: if the run is finished, say so once more and end.
        const latest = await findLatestStateEvent(ctx, teamId, runId);
        if (latest && isTerminalState((JSON.parse(latest.data) as { state: string }).state)) {
          await writeEvent(latest.seq, 'state', latest.data);
          break;
        }
      }
      first = false;
      if (atTerminal) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_INTERVAL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    clearInterval(keepalive);
    unsubscribe();
    if (!res.writableEnded) res.end();
  }
}
