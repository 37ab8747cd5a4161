/**
 * Bearer API key authentication for /api/v1: attaches the caller's Principal; 401 problem (with
 * `WWW-Authenticate: Bearer`) without a key or with an unknown/revoked one. Operations the contract marks
 * `security: []` are let through without one. `authorize` → 403 for an
 * operation the contract marks `x-required-role: admin` called with a member key.
 */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../context';
import { authenticateApiKey, type Principal } from '../api-keys/service';
import { authenticationRequired, notAuthorized } from '../problems';
import { bindRequestLog } from './request-id';

export type { Principal } from '../api-keys/service';

declare global {
  namespace Express {
    interface Request {
      /** Set by `authenticate` on every /api/v1 request that reaches a router. */
      principal?: Principal;
    }
  }
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function authenticate(ctx: ServerContext): RequestHandler {
  return async (req, res, next) => {
    // An operation the contract marks `security: []` (api/operations.ts operationNames) carries its own
    // credential (a signed URL) and is served without a principal; any Authorization header is ignored.
    if (res.locals.publicOperation === true) return next();
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match?.[1]) return next(authenticationRequired());
    const principal = await authenticateApiKey(ctx.db, ctx.clock, match[1]);
    if (!principal) return next(authenticationRequired('The API key is not valid (unknown or revoked).'));
    req.principal = principal;
    bindRequestLog(req, { team_id: principal.teamId, key_id: principal.keyId });
    next();
  };
}

/** The authenticated principal; routers mounted behind `authenticate` can rely on it. */
export function principalOf(req: Express.Request): Principal {
  if (!req.principal) throw authenticationRequired();
  return req.principal;
}

/** The contract's mark on an operation only admins may call (openapi/v1.yaml, §Authentication). */
const REQUIRED_ROLE = 'x-required-role';

/**
 * The role check of every operation, in one place after the OpenAPI validator has matched the operation
 * and before idempotency: a stored answer is only replayed to a caller allowed to make the request.
 */
export const authorize: RequestHandler = (req, _res, next) => {
  const operation = (req as { openapi?: { schema?: Record<string, unknown> } }).openapi?.schema;
  if (operation?.[REQUIRED_ROLE] === 'admin' && principalOf(req).role !== 'admin') {
    return next(notAuthorized('This operation needs an admin API key.'));
  }
  next();
};
