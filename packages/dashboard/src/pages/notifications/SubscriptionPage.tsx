/**
 * One notification subscription (`/notifications/:uid`): its settings, enable/disable, secret rotation (the
 * new secret shown once, the old one signing on for the overlap), delete, and its attempts log — each attempt
 * with its status, latency, answer excerpt and next retry — where an event can be sent again (replay).
 */
import type { NotificationSubscriptionWithSecret } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { attemptsQuery, invalidateAttempts, invalidateSubscriptions, subscriptionQuery } from '../../api/notifications';
import { useSession } from '../../session';
import { NotificationSecretCard } from './NotificationSecretCard';
import { SubscriptionState } from './NotificationsPage';

const PAGE_SIZE = 50;

export function SubscriptionPage({ uid }: { uid: string }) {
  const { client, isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const subscription = useQuery(subscriptionQuery(client, uid));
  const [rotated, setRotated] = useState<NotificationSubscriptionWithSecret | null>(null);
  const invalidate = () => invalidateSubscriptions(queryClient);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => client.notifications.subscriptions.update(uid, { enabled }),
    onSuccess: invalidate,
  });
  const data = subscription.data;
  return (
    <>
      <PageHeader title="Subscription">
        {isAdmin && data && (
          <>
            <button type="button" onClick={() => toggle.mutate(!data.enabled)} disabled={toggle.isPending}>
              {data.enabled ? 'Disable' : 'Enable'}
            </button>
            <ConfirmButton
              label="Rotate secret"
              title="Rotate the signing secret?"
              confirmLabel="Rotate"
              onConfirm={async () => {
                setRotated(await client.notifications.subscriptions.rotateSecret(uid));
                await invalidate();
              }}
            >
              <p>A new secret signs every delivery from now on; the current one keeps signing too for 24 hours, so the receiver can switch.</p>
            </ConfirmButton>
            <ConfirmButton
              label="Delete subscription"
              title="Delete this subscription?"
              confirmLabel="Delete"
              danger
              onConfirm={async () => {
                await client.notifications.subscriptions.delete(uid);
                await invalidate();
                navigate('/notifications');
              }}
            >
              <p>No more events are sent to it, including those waiting for a retry.</p>
            </ConfirmButton>
          </>
        )}
      </PageHeader>
      <p>
        <Link href="/notifications">All subscriptions</Link>
      </p>
      <ErrorNotice error={subscription.error ?? toggle.error} />
      {rotated && <NotificationSecretCard subscription={rotated} event="rotated" onDismiss={() => setRotated(null)} />}
      {data && (
        <section className="card" aria-labelledby="subscription-heading">
          <h2 id="subscription-heading" className="card-heading">
            Settings
          </h2>
          <dl className="fields">
            <dt>URL</dt>
            <dd>
              <code className="break">{data.url}</code>
            </dd>
            <dt>State</dt>
            <dd>
              <SubscriptionState enabled={data.enabled} disabledReason={data.disabled_reason} failingSince={data.failing_since} />
            </dd>
            <dt>Events</dt>
            <dd>{data.event_types.join(', ')}</dd>
            {data.description && (
              <>
                <dt>Description</dt>
                <dd>{data.description}</dd>
              </>
            )}
            {data.previous_secret_expires_at && (
              <>
                <dt>Previous secret</dt>
                <dd>
                  signs until <Time value={data.previous_secret_expires_at} />
                </dd>
              </>
            )}
            <dt>Created</dt>
            <dd>
              <Time value={data.created_at} />
            </dd>
          </dl>
        </section>
      )}
      <Attempts uid={uid} />
    </>
  );
}

function Attempts({ uid }: { uid: string }) {
  const { client, isAdmin } = useSession();
  const queryClient = useQueryClient();
  const pages = useCursorPages();
  const attempts = useQuery(attemptsQuery(client, uid, pages.cursor, PAGE_SIZE));
  const [replayed, setReplayed] = useState<string | null>(null);
  const replay = useMutation({
    mutationFn: (eventId: string) => client.notifications.subscriptions.events.replay(uid, eventId),
    onSuccess: async (_answer, eventId) => {
      setReplayed(eventId);
      await invalidateAttempts(queryClient, uid);
    },
  });
  return (
    <section aria-labelledby="attempts-heading">
      <h2 id="attempts-heading">Attempts</h2>
      <ErrorNotice error={attempts.error ?? replay.error} />
      {replayed && (
        <div className="notice notice-success" role="status">
          Event <code>{replayed}</code> is queued to be sent again.
        </div>
      )}
      {attempts.data && attempts.data.attempts.length === 0 && !pages.hasPrevious && (
        <p className="muted">No attempts yet: no selected event happened since the subscription was made.</p>
      )}
      {attempts.data && attempts.data.attempts.length > 0 && (
        <div className="table-wrap">
          <table aria-label="Attempts">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Outcome</th>
                <th scope="col">Answer</th>
                {isAdmin && <th scope="col">Replay</th>}
              </tr>
            </thead>
            <tbody>
              {attempts.data.attempts.map((attempt) => (
                <tr key={attempt.uid}>
                  <td>
                    <Time value={attempt.attempted_at} />
                    <div className="hint">attempt {attempt.attempt}</div>
                  </td>
                  <td className="break">
                    <code>{attempt.event_type}</code>
                    <div className="hint">
                      run <Link href={`/runs/${attempt.run_id}`}>{attempt.run_id.slice(0, 8)}</Link>
                    </div>
                  </td>
                  <td>
                    <span
                      className={`badge ${attempt.outcome === 'succeeded' ? 'state-succeeded' : attempt.outcome === 'failed' ? 'state-failed' : 'state-blocked'}`}
                    >
                      {attempt.outcome}
                    </span>
                    {attempt.next_attempt_at && (
                      <div className="hint">
                        next <Time value={attempt.next_attempt_at} />
                      </div>
                    )}
                  </td>
                  <td className="break">
                    {attempt.status_code !== null ? <>HTTP {attempt.status_code}</> : <span className="muted">no answer</span>}
                    {attempt.latency_ms !== null && <span className="muted"> · {attempt.latency_ms} ms</span>}
                    {attempt.error && <div className="status-message failed">{attempt.error}</div>}
                    {attempt.response_excerpt && <pre className="excerpt">{attempt.response_excerpt}</pre>}
                  </td>
                  {isAdmin && (
                    <td>
                      <button
                        type="button"
                        onClick={() => replay.mutate(attempt.event_id)}
                        disabled={replay.isPending}
                        aria-label={`Replay event ${attempt.event_id}`}
                      >
                        Replay
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager pages={pages} nextCursor={attempts.data?.nextCursor} what="attempts" />
    </section>
  );
}
