import type { NotificationSubscriptionWithSecret } from '@agent-runs/sdk';
import { CopyButton } from '../../components/CopyButton';

/**
 * The answer of create and rotate-secret: the only time a subscription's signing secret is shown
 * (docs/service-spec.md §Limits, "Secret display"); the receiver verifies deliveries with it.
 */
export function NotificationSecretCard({
  subscription,
  event,
  onDismiss,
}: {
  subscription: NotificationSubscriptionWithSecret;
  event: 'created' | 'rotated';
  onDismiss(): void;
}) {
  const headingId = `notification-secret-${subscription.uid}`;
  return (
    <section className="card secret-once" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-heading">
        Subscription {event}
      </h2>
      <p className="notice notice-warning">
        Copy the signing secret now: it is shown only this once. Your receiver verifies each delivery with it (Standard Webhooks:
        <code>verifyNotification</code> in the TypeScript SDK, <code>verify_notification</code> in Python).
        {subscription.previous_secret_expires_at && <> The previous secret keeps signing too until it expires.</>}
      </p>
      <div className="secret-value">
        <code aria-label="Signing secret">{subscription.secret}</code>
        <CopyButton value={subscription.secret} label="the signing secret" />
      </div>
      <div className="actions">
        <button type="button" onClick={onDismiss}>
          I have stored it
        </button>
      </div>
    </section>
  );
}
