/**
 * Request id: taken from a well-formed incoming `x-request-id` or generated, returned as `x-request-id`,
 * used as `trace_id` in problem bodies and bound to every log line of the request (`req.log`), with the
 * request span's `trace_id` and `span_id` when tracing is on. A generated id is then the trace's id when the
 * request began its trace (docs/decisions.md §Traces).
 */
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Bindings, Logger } from 'pino';
import { traceIdOfRequest } from '../telemetry/http-spans';
import { traceFields } from '../telemetry/spans';

declare global {
  namespace Express {
    interface Request {
      /** The request id (= x-request-id = trace_id). */
      id: string;
      /** Logger bound to this request's id (and, once authenticated, its team and key). */
      log: Logger;
    }
  }
}

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's pino child, made on first use with every binding known by then: making a child serialises
 * and redacts its bindings, and at the usual levels most requests never log a line.
 */
class RequestLog {
  #logger: Logger | undefined;
  #bindings: Bindings;

  constructor(
    private readonly parent: Logger,
    bindings: Bindings,
  ) {
    this.#bindings = bindings;
  }

  get logger(): Logger {
    return (this.#logger ??= this.parent.child(this.#bindings));
  }

  bind(bindings: Bindings): void {
    if (this.#logger) this.#logger = this.#logger.child(bindings);
    else this.#bindings = { ...this.#bindings, ...bindings };
  }
}

const REQUEST_LOG = Symbol('request log');
type WithRequestLog = Request & { [REQUEST_LOG]: RequestLog };

export function requestId(log: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && ACCEPTED_ID.test(incoming) ? incoming : (traceIdOfRequest(res) ?? `req_${randomUUID()}`);
    req.id = id;
    const requestLog = new RequestLog(log, { request_id: id, ...traceFields() });
    (req as WithRequestLog)[REQUEST_LOG] = requestLog;
    Object.defineProperty(req, 'log', { configurable: true, enumerable: true, get: () => requestLog.logger });
    res.setHeader('x-request-id', id);
    next();
  };
}

/** Adds fields to every later log line of this request (authentication: the team and the key). */
export function bindRequestLog(req: Request, bindings: Bindings): void {
  (req as WithRequestLog)[REQUEST_LOG].bind(bindings);
}
