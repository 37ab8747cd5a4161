import type { ReplayDeliveryResponse, RunItem, WebhookDelivery } from '@agent-runs/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { deliveriesQuery, deliveryQuery } from '../../api/factories';
import { deliveryRunsQuery, invalidateDeliveryRuns } from '../../api/runs';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { JsonView } from '../../components/JsonView';
import { Pager, useCursorPages } from '../../components/Pager';
import { StateBadge } from '../../components/StateBadge';
import { Time } from '../../components/Time';
import { useSession } from '../../session';
import { deliveryLabelClass } from './webhook-text';

const PAGE_SIZE = 20;

const identitySourceNames: Record<NonNullable<WebhookDelivery['identity_source']>, string> = {
  delivery_id_header: "the webhook's delivery ID header",
  provider_header: "the provider's delivery header",
  service_header: 'X-Service-Delivery-Id',
  body_hash: 'hash of the body',
};

interface Scope {
  factoryUid: string;
  webhookUid: string;
}

/** Recent deliveries (docs/service-spec.md §Dashboard behaviors 4): newest first, paged back over the retained log. */
export function RecentDeliveries({ factoryUid, webhookUid }: Scope) {
  const { client } = useSession();
  const pages = useCursorPages();
  const deliveries = useQuery(deliveriesQuery(client, factoryUid, webhookUid, pages.cursor, PAGE_SIZE));
  return (
    <section aria-labelledby="deliveries-heading">
      <div className="section-header">
        <h2 id="deliveries-heading">Recent deliveries</h2>
        <button type="button" onClick={() => void deliveries.refetch()} disabled={deliveries.isFetching}>
          {deliveries.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <p className="hint">Newest first. At least the 50 most recent deliveries and 7 days are kept; 404s (disabled) and 429s are not logged.</p>
      <ErrorNotice error={deliveries.error} />
      {deliveries.data && deliveries.data.data.length === 0 && !pages.hasPrevious && <p className="muted">No deliveries yet.</p>}
      {deliveries.data && deliveries.data.data.length > 0 && (
        <ul className="item-list card" aria-label="Recent deliveries">
          {deliveries.data.data.map((delivery) => (
            <DeliveryRow key={delivery.delivery_id} delivery={delivery} factoryUid={factoryUid} webhookUid={webhookUid} />
          ))}
        </ul>
      )}
      <Pager pages={pages} nextCursor={deliveries.data?.page_info.next_cursor} what="deliveries" />
    </section>
  );
}

function DeliveryRow({ delivery, factoryUid, webhookUid }: Scope & { delivery: WebhookDelivery }) {
  const [open, setOpen] = useState(false);
  const accepted = delivery.label === 'Accepted';
  const detailsId = `delivery-${delivery.delivery_id}`;
  return (
    <li className="item-row delivery">
      <div className="item-main">
        <span className="item-title">
          <span className={`badge ${deliveryLabelClass(delivery.label)}`}>{delivery.label}</span> <Time value={delivery.received_at} />{' '}
          <span className="muted">· {delivery.size.toLocaleString()} bytes</span>
        </span>
        <span className="hint">
          <code>{delivery.delivery_id}</code>
        </span>
        {delivery.identity !== null && (
          <span className="hint">
            Identity <code>{delivery.identity}</code>
            {delivery.identity_source && <> from {identitySourceNames[delivery.identity_source]}</>}
          </span>
        )}
        {delivery.rejection_reason !== null && (
          <span className="rejection">
            Reason: <strong>{delivery.rejection_reason}</strong>
          </span>
        )}
        {delivery.duplicate_of !== undefined && (
          <span className="hint">
            Duplicate of <code>{delivery.duplicate_of}</code>
          </span>
        )}
      </div>
      {accepted && (
        <div className="actions">
          <button type="button" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
            {open ? 'Hide payload' : 'Show payload'}
          </button>
        </div>
      )}
      {accepted && open && (
        <div id={detailsId} className="delivery-details">
          <AcceptedDelivery delivery={delivery} factoryUid={factoryUid} webhookUid={webhookUid} />
        </div>
      )}
    </li>
  );
}

/** An accepted delivery expanded: its stored payload, the runs it started, and Replay (admins). */
function AcceptedDelivery({ delivery, factoryUid, webhookUid }: Scope & { delivery: WebhookDelivery }) {
  const { client, isAdmin } = useSession();
  const [replayed, setReplayed] = useState<ReplayDeliveryResponse | null>(null);
  const queryClient = useQueryClient();
  const full = useQuery(deliveryQuery(client, factoryUid, webhookUid, delivery.delivery_id));
  const started = useQuery(deliveryRunsQuery(client, delivery.delivery_id));
  return (
    <>
      <h3>Payload</h3>
      <ErrorNotice error={full.error} />
      {full.data && <JsonView value={full.data.payload} />}
      <h3>Runs it started</h3>
      <ErrorNotice error={started.error} />
      {started.data && <RunLinks runs={started.data.data} none="No automation matched: no run was started." />}
      {isAdmin && (
        <div className="actions">
          <ConfirmButton
            label="Replay"
            title="Replay this delivery?"
            confirmLabel="Replay now"
            onConfirm={async () => {
              setReplayed(await client.factories.webhooks.deliveries.replay(factoryUid, webhookUid, delivery.delivery_id));
              await invalidateDeliveryRuns(queryClient, delivery.delivery_id);
            }}
          >
            <p>
              The stored payload is evaluated again against the factory's automations as they are now, and a run starts for each match. The delivery's identity
              is not checked again and no new log entry is written.
            </p>
          </ConfirmButton>
        </div>
      )}
      {replayed && (
        <div className="notice notice-success" role="status" aria-label="Replay result">
          <RunLinks runs={replayed.runs} none="Replayed: no automation matches now, no run was started." lead="Replay started:" />
        </div>
      )}
    </>
  );
}

function RunLinks({ runs, none, lead }: { runs: Array<Pick<RunItem, 'run_id' | 'state'>>; none: string; lead?: string }) {
  if (runs.length === 0) return <p className="muted">{none}</p>;
  return (
    <>
      {lead && <p>{lead}</p>}
      <ul className="run-links">
        {runs.map((run) => (
          <li key={run.run_id}>
            <Link href={`/runs/${run.run_id}`}>
              <code>{run.run_id}</code>
            </Link>{' '}
            <StateBadge state={run.state} />
          </li>
        ))}
      </ul>
    </>
  );
}
