import type { WebhookWithSecret } from '@agent-runs/sdk';
import { Link } from 'wouter';
import { CopyButton } from '../../components/CopyButton';

interface Props {
  webhook: WebhookWithSecret;
  /** What just happened, for the heading: "created" or "rotated". */
  event: 'created' | 'rotated';
  onDismiss(): void;
}

/**
 * The answer of create and rotate-secret, the only time the secret (and a url_token webhook's real URL) is
 * shown (docs/service-spec.md §Limits, "Secret display").
 */
export function SecretOnceCard({ webhook, event, onDismiss }: Props) {
  const waitingForProvider = webhook.auth_mode === 'signature' && !webhook.secret_configured;
  const headingId = `secret-once-${webhook.uid}`;
  return (
    <section className="card secret-once" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-heading">
        Webhook “{webhook.name}” {event}
      </h2>
      {webhook.secret !== null && (
        <>
          <p className="notice notice-warning">
            Copy the secret now: it is shown only this once and will not be shown again. It is stored as the team secret <code>{webhook.secret_name}</code>.
          </p>
          <div className="secret-value">
            <code aria-label="Webhook secret">{webhook.secret}</code>
            <CopyButton value={webhook.secret} label="the webhook secret" />
          </div>
        </>
      )}
      {webhook.secret === null && !waitingForProvider && (
        <p className="notice">
          The webhook uses the value of the existing team secret <code>{webhook.secret_name}</code>; it is not shown.
        </p>
      )}
      <h3>Ingress URL</h3>
      {webhook.auth_mode === 'url_token' && (
        <p className="notice notice-warning">This URL contains the token: it is the credential. Share it only with the sender.</p>
      )}
      <div className="secret-value">
        <code aria-label="Ingress URL">{webhook.ingress_url}</code>
        <CopyButton value={webhook.ingress_url} label="the ingress URL" />
      </div>
      {waitingForProvider && (
        <p className="notice">
          Next step: give this URL to the provider, then enter the signing secret it issues on the{' '}
          <Link href={`/factories/${webhook.factory_uid}/webhooks/${webhook.uid}`}>webhook's page</Link>. Until then deliveries are rejected with 401.
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onDismiss}>
          {webhook.secret !== null ? 'I have stored it' : 'Done'}
        </button>
      </div>
    </section>
  );
}
