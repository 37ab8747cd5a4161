/**
 * Notification subscriptions (`/notifications`): the team's HTTPS endpoints that receive signed run events,
 * each with its event types, whether it is enabled (or why it was disabled) and since when it fails. Admins
 * create one (its signing secret shown once); each opens on its own page with its attempts.
 */
import { notificationEventTypeValues, type NotificationEventType, type NotificationSubscriptionWithSecret } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { invalidateSubscriptions, subscriptionsQuery } from '../../api/notifications';
import { useSession } from '../../session';
import { NotificationSecretCard } from './NotificationSecretCard';

const PAGE_SIZE = 50;

export function NotificationsPage() {
  const { client, isAdmin } = useSession();
  const pages = useCursorPages();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<NotificationSubscriptionWithSecret | null>(null);
  const subscriptions = useQuery(subscriptionsQuery(client, pages.cursor, PAGE_SIZE));
  return (
    <>
      <PageHeader title="Notifications">
        {isAdmin && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New subscription
          </button>
        )}
      </PageHeader>
      <p className="hint">
        Each run event a subscription selects is POSTed to its URL, signed (Standard Webhooks), at least once, in order per run, retried with backoff for 24
        hours. The server refuses internal addresses and plain http unless its operator lists the host in NOTIFICATIONS_ALLOWED_HOSTS (e.g.{' '}
        <code>127.0.0.1</code> for a receiver on this machine).
      </p>
      {created && <NotificationSecretCard subscription={created} event="created" onDismiss={() => setCreated(null)} />}
      {creating && (
        <SubscriptionForm
          onCreated={(subscription) => {
            setCreating(false);
            setCreated(subscription);
            pages.reset();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <ErrorNotice error={subscriptions.error} />
      {subscriptions.data && subscriptions.data.subscriptions.length === 0 && !pages.hasPrevious && <p className="muted">No subscriptions yet.</p>}
      {subscriptions.data && subscriptions.data.subscriptions.length > 0 && (
        <ul className="item-list card" aria-label="Subscriptions">
          {subscriptions.data.subscriptions.map((subscription) => (
            <li key={subscription.uid} className="item-row">
              <div className="item-main">
                <Link href={`/notifications/${subscription.uid}`} className="item-title break">
                  {subscription.url}
                </Link>
                <span className="hint">
                  {subscription.event_types.join(', ')}
                  {subscription.description && <> · {subscription.description}</>}
                </span>
              </div>
              <SubscriptionState enabled={subscription.enabled} disabledReason={subscription.disabled_reason} failingSince={subscription.failing_since} />
            </li>
          ))}
        </ul>
      )}
      <Pager pages={pages} nextCursor={subscriptions.data?.nextCursor} what="subscriptions" />
    </>
  );
}

export function SubscriptionState({ enabled, disabledReason, failingSince }: { enabled: boolean; disabledReason: string | null; failingSince: string | null }) {
  if (!enabled) return <span className="badge state-failed">{disabledReason === 'failing' ? 'disabled: kept failing' : 'disabled'}</span>;
  if (failingSince)
    return (
      <span className="badge state-blocked">
        failing since <Time value={failingSince} />
      </span>
    );
  return <span className="badge state-succeeded">enabled</span>;
}

function SubscriptionForm({ onCreated, onCancel }: { onCreated(subscription: NotificationSubscriptionWithSecret): void; onCancel(): void }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<NotificationEventType[]>(['run.failed', 'run.error', 'run.blocked']);
  const create = useMutation({
    mutationFn: () =>
      client.notifications.subscriptions.create({ url: url.trim(), event_types: types, ...(description.trim() ? { description: description.trim() } : {}) }),
    onSuccess: async (subscription) => {
      await invalidateSubscriptions(queryClient);
      onCreated(subscription);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (type: NotificationEventType, on: boolean) => setTypes((current) => (on ? [...current, type] : current.filter((t) => t !== type)));
  return (
    <form className="card" onSubmit={submit} aria-label="New subscription">
      <h2 className="card-heading">New subscription</h2>
      <label htmlFor="subscription-url">URL</label>
      <input id="subscription-url" type="url" required placeholder="https://ops.example.com/agent-runs" value={url} onChange={(e) => setUrl(e.target.value)} />
      <label htmlFor="subscription-description">Description</label>
      <input id="subscription-description" maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} />
      <fieldset className="state-filter">
        <legend>Events</legend>
        {notificationEventTypeValues.map((type) => (
          <label key={type} className="inline">
            <input type="checkbox" checked={types.includes(type)} onChange={(e) => toggle(type, e.target.checked)} /> <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <ErrorNotice error={create.error} title="Not created" />
      <div className="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={create.isPending || types.length === 0}>
          {create.isPending ? 'Creating…' : 'Create subscription'}
        </button>
      </div>
    </form>
  );
}
