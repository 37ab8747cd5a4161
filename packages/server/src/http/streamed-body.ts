/**
 * Answers written as they are produced (docs/decisions.md §Streamed conversations and the per-run output
 * bound): a conversation or transcript of any size goes out a page of database rows at a time, so the
 * server holds a bounded amount of it per reader whatever the reader's speed.
 *
 * - Back-pressure: when the socket's buffer is full (`write` returns false) nothing more is read or written
 *   until it drains; a reader that takes nothing for `STALLED_READER_MS` is disconnected.
 * - Fairness: after each write the answer lets the event loop serve other requests.
 * - A client that goes away ends the producer (its generator's `return`, so it reads no further page).
 * - A failure after the first bytes destroys the socket: the client sees a broken answer, never a shorter
 *   one that parses. Before the first bytes it is thrown, for the usual problem answer.
 * - The answer is written with `res.write`, past express-openapi-validator's response validation (which
 *   wraps `res.json` and would hold the whole body).
 */
import type { Request, Response } from 'express';
import { streamedResponseOpened } from './metrics';

/** Text gathered before one `write` (fewer, larger writes; still a bounded amount per reader). */
const WRITE_CHARS = 64 * 1024;
const STALLED_READER_MS = 60_000;

/**
 * Writes `chunk`; when the response's buffer is full, waits for it to drain. False: the response closed, or
 * took nothing for `stallMs` and was destroyed.
 */
export function writeRespectingBackPressure(res: Response, chunk: string, stallMs: number): Promise<boolean> | boolean {
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

/** Sends status 200 with `headers` and the text `chunks` produce, as they come. */
export async function sendStreamedBody(
  req: Request<any, any, any, any>,
  res: Response,
  headers: Record<string, string>,
  chunks: AsyncIterable<string>,
): Promise<void> {
  const closed = streamedResponseOpened(req, res);
  let pending = '';
  try {
    for await (const chunk of chunks) {
      pending += chunk;
      if (pending.length < WRITE_CHARS) continue;
      if (!res.headersSent) res.status(200).set(headers);
      const written = await writeRespectingBackPressure(res, pending, STALLED_READER_MS);
      pending = '';
      if (!written) return;
      // A socket that takes every write at once, and a database driver that answers synchronously
      // (SQLite), would let one answer run to its end in a single turn of the event loop: other requests
      // get their turn after every write.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!res.headersSent) res.status(200).set(headers);
    res.end(pending);
  } catch (err) {
    if (!res.headersSent) throw err;
    req.log.error({ err }, 'streamed answer failed after its first bytes');
    res.destroy();
  } finally {
    closed();
  }
}
