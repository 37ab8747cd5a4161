/**
 * `auditedAs`: the audit trail of an admin request (audit/trail.ts). A handler that changes something
 * names here what its operation does to which kind of resource and hands the trail to the domain
 * service, which records it in the change's own transaction. The actor is the calling key, the address
 * `req.ip` (Express's trust-proxy setting decides whose address that is), the operation the one
 * app.ts's router named, and the changed fields the NAMES of the body's fields — never their values.
 */
import type { Request, Response } from 'express';
import type { ServerContext } from '../context';
import { auditTrail, type AuditAction, type AuditResourceType, type AuditTrail } from '../audit/trail';
import { principalOf } from './auth';

export function auditedAs(ctx: Pick<ServerContext, 'clock'>, req: Request, res: Response, resourceType: AuditResourceType, action: AuditAction): AuditTrail {
  const principal = principalOf(req);
  const body: unknown = req.body;
  const changedFields = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : [];
  return auditTrail(
    ctx.clock,
    {
      teamId: principal.teamId,
      keyId: principal.keyId,
      // displayName falls back to the key's id for a key without a name (api-keys/service.ts displayNameOf).
      keyName: principal.displayName === principal.keyId ? null : principal.displayName,
      address: req.ip ?? null,
      operationId: String(res.locals.operationId),
      changedFields,
    },
    resourceType,
    action,
  );
}
