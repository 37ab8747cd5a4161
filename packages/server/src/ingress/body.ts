/**
 * Step 5 — read the body: the raw bytes exactly as sent (signatures are computed over them), with a hard cap.
 *
 * A declared Content-Length over the cap is refused before a byte is read; otherwise chunks are counted as
 * they arrive and reading stops at the first chunk that crosses the cap (a chunked or lying sender). Nothing
 * past the cap is ever buffered.
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { kind: 'complete'; body: Buffer }
  /** `size`: the declared Content-Length, or the bytes received when reading stopped. */
  | { kind: 'too_large'; size: number }
  /** The sender went away mid-body; nothing can be answered. */
  | { kind: 'aborted' };

export function readRawBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > maxBytes) return Promise.resolve({ kind: 'too_large', size: declared });

  return new Promise<BodyRead>((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        // Stop reading: the answer (413, connection closed) goes out without waiting for the rest.
        req.pause();
        finish({ kind: 'too_large', size: received });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'complete', body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received) });
    const onError = () => finish({ kind: 'aborted' });
    const onClose = () => finish(req.complete ? { kind: 'complete', body: Buffer.concat(chunks, received) } : { kind: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** The request's Content-Length when it is a plain number (a chunked body has none). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d{1,15}$/.test(header)) return undefined;
  return Number(header);
}
