/**
 * The audit log (`/audit`, admins): every change an admin made — who (API key and its name), what (the
 * operation, the resource, the fields it named, never their values), when and from which address — newest
 * first, filtered by resource type or id, actor and time range, in cursor pages (GET /audit-events).
 */
import { auditResourceTypeValues, type AuditEventListParams, type AuditResourceType } from '@agent-runs/sdk';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { auditEventsQuery } from '../../api/audit';
import { useSession } from '../../session';

const PAGE_SIZE = 50;

interface Filters {
  resourceType: AuditResourceType | '';
  resourceId: string;
  actor: string;
  since: string;
  until: string;
}

const EMPTY: Filters = { resourceType: '', resourceId: '', actor: '', since: '', until: '' };

/** An <input type="datetime-local"> value (the reader's zone) as RFC 3339, or undefined when empty. */
const instant = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);

function listParams(filters: Filters, cursor: string | undefined): AuditEventListParams {
  return {
    limit: PAGE_SIZE,
    ...(filters.resourceType ? { resource_type: filters.resourceType } : {}),
    ...(filters.resourceId.trim() ? { resource_id: filters.resourceId.trim() } : {}),
    ...(filters.actor.trim() ? { actor_key_id: filters.actor.trim() } : {}),
    ...(instant(filters.since) ? { since: instant(filters.since) } : {}),
    ...(instant(filters.until) ? { until: instant(filters.until) } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

export function AuditPage() {
  const { client, isAdmin } = useSession();
  const pages = useCursorPages();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const params = useMemo(() => listParams(filters, pages.cursor), [filters, pages.cursor]);
  const events = useQuery({ ...auditEventsQuery(client, params), enabled: isAdmin });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    pages.reset();
  };
  if (!isAdmin) return <PageHeader title="Audit log" />;
  const set = (field: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: e.target.value }));
  return (
    <>
      <PageHeader title="Audit log" />
      <p className="hint">
        Every change an admin made to this team, newest first. Values of secrets, keys and variables are never recorded — only the names of the fields a change
        set.
      </p>
      <form className="card" onSubmit={apply} aria-label="Filter the audit log">
        <div className="form-row">
          <div>
            <label htmlFor="audit-type">Resource type</label>
            <select id="audit-type" value={draft.resourceType} onChange={set('resourceType')}>
              <option value="">any</option>
              {auditResourceTypeValues.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="audit-resource">Resource ID</label>
            <input id="audit-resource" spellCheck={false} value={draft.resourceId} onChange={set('resourceId')} />
          </div>
          <div>
            <label htmlFor="audit-actor">Actor (API key ID)</label>
            <input id="audit-actor" spellCheck={false} placeholder="key_…" value={draft.actor} onChange={set('actor')} />
          </div>
          <div>
            <label htmlFor="audit-since">Since</label>
            <input id="audit-since" type="datetime-local" value={draft.since} onChange={set('since')} />
          </div>
          <div>
            <label htmlFor="audit-until">Until</label>
            <input id="audit-until" type="datetime-local" value={draft.until} onChange={set('until')} />
          </div>
        </div>
        <div className="actions">
          <button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
              pages.reset();
            }}
          >
            Clear
          </button>
          <button type="submit" className="primary">
            Filter
          </button>
        </div>
      </form>
      <ErrorNotice error={events.error} />
      {events.data && events.data.events.length === 0 && <p className="muted">No changes recorded{filters === EMPTY ? ' yet' : ' that match'}.</p>}
      {events.data && events.data.events.length > 0 && (
        <div className="table-wrap">
          <table aria-label="Audit events">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Resource</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {events.data.events.map((event) => (
                <tr key={event.id}>
                  <td>
                    <Time value={event.occurred_at} />
                  </td>
                  <td className="break">
                    {event.actor.name}
                    <div className="hint">
                      <code>{event.actor.key_id}</code>
                    </div>
                  </td>
                  <td className="break">
                    <strong>{event.action}</strong>
                    <div className="hint">
                      <code>{event.operation_id}</code>
                      {event.changed_fields.length > 0 && <> · {event.changed_fields.join(', ')}</>}
                    </div>
                  </td>
                  <td className="break">
                    {event.resource.type}
                    <div className="hint">
                      <code>{event.resource.id}</code>
                    </div>
                  </td>
                  <td className="break">
                    <code>{event.address}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager pages={pages} nextCursor={events.data?.nextCursor} what="audit events" />
    </>
  );
}
