/**
 * A request path that does not percent-decode as UTF-8 (`/agent/runs/%`, `/%F0%F0%F0`) is the client's
 * mistake: answered 400 before anything (routing, the validator, the dashboard) tries to decode it and
 * throws.
 */
import type { RequestHandler } from 'express';
import { invalidRequest } from '../problems';

export function refuseUndecodablePath(): RequestHandler {
  return (req, _res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      return next(invalidRequest('The request path is not valid percent-encoded UTF-8.'));
    }
    next();
  };
}
