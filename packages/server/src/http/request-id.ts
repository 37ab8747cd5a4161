/**
 * Request id: taken from a well-formed incoming `x-request-id` or generated, returned as `x-request-id`,
 * used as `trace_id` in problem bodies and bound to every log line of the request (`req.log`).
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id (= x-request-id = trace_id). */
      id: string;
      /** Logger bound to this request's id. */
      log: Logger;
    }
  }
}

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(log: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && ACCEPTED_ID.test(incoming) ? incoming : `req_${randomUUID()}`;
    req.id = id;
    req.log = log.child({ request_id: id });
    res.setHeader('x-request-id', id);
    next();
  };
}
