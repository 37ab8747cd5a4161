/**
 * The audit trail of one admin request (docs/decisions.md §The audit log): the handler names what the
 * operation does to which kind of resource (http/audit.ts `auditedAs`), the domain service records it with
 * the resource's id in the transaction that makes the change — a change that rolls back leaves no event,
 * and a change that commits always has one. Only field NAMES are kept, never a value.
 */
import type { Kysely } from 'kysely';
import { toTimestamp, type Clock } from '../clock';
import { newId } from '../crypto/ids';
import type { Database } from '../db/tables';
import type { components } from '@agent-runs/contract';
import { insertAuditEvent } from './repository';

export type AuditResourceType = components['schemas']['AuditResourceType'];
export type AuditAction =
  | 'created'
  | 'updated'
  | 'deleted'
  | 'revoked'
  | 'secret_rotated'
  | 'paused'
  | 'resumed'
  | 'definitions_applied'
  | 'replayed'
  | 'enabled'
  | 'disabled';

/** Who made the change and how: the request's part of every event it records. */
export interface AuditActor {
  teamId: string;
  keyId: string;
  keyName: string | null;
  address: string | null;
  operationId: string;
  /** The names of the fields the request set (its body's), never their values. */
  changedFields: string[];
}

export interface AuditTrail {
  /**
   * Records the change of resource `resourceId` in `db`, which must be the transaction that makes it;
   * `action` overrides the operation's own where the outcome decides (a PUT that created).
   */
  record(db: Kysely<Database>, resourceId: string, action?: AuditAction): Promise<void>;
}

/** An update that only switches `enabled` is audited as `enabled` or `disabled`, any other as `updated`. */
export function toggleAction(input: { enabled?: boolean | undefined }): AuditAction {
  const fields = Object.keys(input);
  if (fields.length === 1 && fields[0] === 'enabled' && typeof input.enabled === 'boolean') return input.enabled ? 'enabled' : 'disabled';
  return 'updated';
}

export function auditTrail(clock: Clock, actor: AuditActor, resourceType: AuditResourceType, action: AuditAction): AuditTrail {
  return {
    async record(db, resourceId, actionOverride) {
      const now = clock.now();
      await insertAuditEvent(db, {
        id: newId('aud', now),
        team_id: actor.teamId,
        occurred_at: toTimestamp(now),
        actor_key_id: actor.keyId,
        actor_key_name: actor.keyName,
        operation_id: actor.operationId,
        action: actionOverride ?? action,
        resource_type: resourceType,
        resource_id: resourceId,
        address: actor.address,
        changed_fields: JSON.stringify(actor.changedFields),
      });
    },
  };
}
