/**
 * The audit trail of a domain service called directly (not through the REST API, which builds it with
 * http/audit.ts auditedAs): the change is recorded as made by a test key from no address.
 */
import { auditTrail, type AuditAction, type AuditResourceType, type AuditTrail } from '../../src/audit/trail';
import { systemClock } from '../../src/clock';

export function directCallAudit(teamId: string, resourceType: AuditResourceType, action: AuditAction): AuditTrail {
  return auditTrail(
    systemClock,
    { teamId, keyId: 'key_direct_call', keyName: 'direct call', address: null, operationId: 'direct', changedFields: [] },
    resourceType,
    action,
  );
}
