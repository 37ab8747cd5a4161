import type { components, operations } from '@agent-runs/contract';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import type { RequestOptions } from '../internal/request-options';

export type AuditEvent = components['schemas']['AuditEvent'];
export type AuditResourceType = components['schemas']['AuditResourceType'];
export type ListAuditEventsResponse = components['schemas']['ListAuditEventsResponse'];
export type AuditEventListParams = NonNullable<operations['listAuditEvents']['parameters']['query']>;

export class AuditEvents extends APIResource {
  /**
   * The team's audit events, newest first, every page (admin only): filter by `resource_type`,
   * `resource_id`, `actor_key_id`, `since`, `until`. `GET /audit-events` (listAuditEvents).
   */
  list(query?: AuditEventListParams, options?: RequestOptions): PagePromise<AuditEvent> {
    return this._client._list('/audit-events', 'audit_events', { params: { query } }, options);
  }
}
