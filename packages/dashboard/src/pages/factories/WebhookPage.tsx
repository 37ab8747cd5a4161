import type { Factory, Webhook, WebhookWithSecret } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { factoryQuery, webhookDeleted, webhookQuery, webhookStored } from '../../api/factories';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Time } from '../../components/Time';
import { useSession } from '../../session';
import { RecentDeliveries } from './RecentDeliveries';
import { SecretOnceCard } from './SecretOnceCard';
import { authModeNames, schemeGeneratesSecret } from './webhook-text';
import './factories.css';

/** One webhook: details, Enabled, rotate secret, delete (admins) and its Recent deliveries. */
export function WebhookPage({ factoryUid, webhookUid }: { factoryUid: string; webhookUid: string }) {
  const { client } = useSession();
  const factory = useQuery(factoryQuery(client, factoryUid));
  const webhook = useQuery(webhookQuery(client, factoryUid, webhookUid));
  const error = factory.error ?? webhook.error;
  return (
    <>
      <p className="breadcrumb">
        <Link href="/factories">Factories</Link> / <Link href={`/factories/${factoryUid}`}>{factory.data?.name ?? 'Factory'}</Link> / Webhooks
      </p>
      <ErrorNotice error={error} />
      {!error && (!factory.data || !webhook.data) && (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
      {factory.data && webhook.data && <WebhookView factory={factory.data} webhook={webhook.data} />}
    </>
  );
}

function WebhookView({ factory, webhook }: { factory: Factory; webhook: Webhook }) {
  const { client, isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [rotated, setRotated] = useState<WebhookWithSecret | null>(null);
  const [newProviderSecret, setNewProviderSecret] = useState('');
  const managed = factory.definition_source === 'api';
  const stored = (next: Webhook) => void webhookStored(queryClient, next);
  // The box shows the person's choice while the server is asked (a controlled box would flip back until then).
  const [enabledAsked, setEnabledAsked] = useState<boolean | null>(null);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => client.factories.webhooks.update(factory.uid, webhook.uid, { enabled }),
    onSuccess: stored,
    onSettled: () => setEnabledAsked(null),
  });
  const enabledShown = enabledAsked ?? webhook.enabled;
  const rotate = async () => {
    const body = newProviderSecret !== '' ? { provider_secret: newProviderSecret } : {};
    const answer = await client.factories.webhooks.rotateSecret(factory.uid, webhook.uid, body);
    setNewProviderSecret('');
    setRotated(answer);
    stored(answer);
  };
  const remove = async () => {
    await client.factories.webhooks.delete(factory.uid, webhook.uid);
    await webhookDeleted(queryClient, factory.uid, webhook.uid);
    navigate(`/factories/${factory.uid}`);
  };
  const providerSecretNeeded = webhook.auth_mode === 'signature' && !schemeGeneratesSecret(webhook.signature_scheme);

  return (
    <>
      <PageHeader title={webhook.name}>
        {isAdmin && managed && (
          <>
            <ConfirmButton label="Rotate secret" title={`Rotate the secret of “${webhook.name}”?`} confirmLabel="Rotate now" onConfirm={rotate}>
              <p>
                <strong>The old secret stops working at once; there is no overlap.</strong> Deliveries signed or sent with it get 401 from this moment until the
                sender uses the new one, which is shown once.
              </p>
              <p className="hint">For zero downtime instead: create a second webhook, move the sender to it, then delete this one.</p>
              {webhook.auth_mode === 'signature' && (
                <>
                  <label htmlFor="rotate-provider-secret">Provider's new signing secret{providerSecretNeeded ? '' : ' (optional: blank generates one)'}</label>
                  <input
                    id="rotate-provider-secret"
                    type="password"
                    autoComplete="off"
                    value={newProviderSecret}
                    onChange={(e) => setNewProviderSecret(e.target.value)}
                  />
                </>
              )}
            </ConfirmButton>
            <ConfirmButton label="Delete" title={`Delete “${webhook.name}”?`} confirmLabel="Delete webhook" danger onConfirm={remove}>
              <p>Senders posting to its URL get 404 from then on.</p>
              <p>
                Automations that select it stay visible but it no longer starts their runs. Its team secret <code>{webhook.secret_name}</code> is kept.
              </p>
            </ConfirmButton>
          </>
        )}
      </PageHeader>
      {rotated && <SecretOnceCard webhook={rotated} event="rotated" onDismiss={() => setRotated(null)} />}
      {isAdmin && managed && webhook.auth_mode === 'signature' && !webhook.secret_configured && <ProviderSecretStep webhook={webhook} onStored={stored} />}
      <section className="card" aria-label="Webhook details">
        <dl className="fields">
          <dt>State</dt>
          <dd>
            {isAdmin ? (
              <label className="inline">
                <input
                  type="checkbox"
                  checked={enabledShown}
                  disabled={toggle.isPending}
                  onChange={(e) => {
                    setEnabledAsked(e.target.checked);
                    toggle.mutate(e.target.checked);
                  }}
                />
                Enabled
              </label>
            ) : (
              <span className={`badge ${webhook.enabled ? 'badge-on' : 'badge-off'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>
            )}
            {!webhook.enabled && <span className="hint"> Senders get 404 while disabled; automations and the log are kept.</span>}
            <ErrorNotice error={toggle.error} title="Not changed" />
          </dd>
          <dt>Ingress URL</dt>
          <dd>
            <span className="url-line">
              <code>{webhook.ingress_url}</code>
              <CopyButton value={webhook.ingress_url} label="the ingress URL" />
            </span>
            {webhook.auth_mode === 'url_token' && (
              <span className="hint"> {'{token}'} stands for the secret, which was shown only when it was created or rotated.</span>
            )}
          </dd>
          <dt>Authentication</dt>
          <dd>
            {authModeNames[webhook.auth_mode]} (<code>{webhook.auth_mode}</code>)
            {webhook.signature_scheme && (
              <>
                {' '}
                · scheme <code>{webhook.signature_scheme}</code>
              </>
            )}
          </dd>
          <dt>Secret name</dt>
          <dd>
            <code>{webhook.secret_name}</code>
            {!webhook.secret_configured && <span className="badge badge-warn">provider secret not given yet: deliveries get 401</span>}
          </dd>
          <dt>Delivery ID header</dt>
          <dd>{webhook.delivery_id_header ? <code>{webhook.delivery_id_header}</code> : <span className="muted">none</span>}</dd>
          <dt>UID</dt>
          <dd>
            <code>{webhook.uid}</code>
          </dd>
          <dt>Created</dt>
          <dd>
            <Time value={webhook.created_at} />
          </dd>
          <dt>Updated</dt>
          <dd>
            <Time value={webhook.updated_at} />
          </dd>
        </dl>
        {!managed && (
          <p className="notice">
            Defined in this files factory's definitions: to rotate, give the team secret <code>{webhook.secret_name}</code> a new value and apply the
            definitions again, or toggle Enabled off and on.
          </p>
        )}
      </section>
      <RecentDeliveries factoryUid={factory.uid} webhookUid={webhook.uid} />
    </>
  );
}

/**
 * The second step of a signature webhook created without the provider's secret (a provider that issues it only
 * after seeing the URL): rotate-secret with `provider_secret` (contract: createWebhook).
 */
function ProviderSecretStep({ webhook, onStored }: { webhook: Webhook; onStored(webhook: Webhook): void }) {
  const { client } = useSession();
  const [secret, setSecret] = useState('');
  const save = useMutation({
    mutationFn: () => client.factories.webhooks.rotateSecret(webhook.factory_uid, webhook.uid, { provider_secret: secret }),
    onSuccess: (answer) => {
      setSecret('');
      onStored(answer);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="card notice-warning" onSubmit={submit} aria-labelledby="provider-secret-heading">
      <h2 id="provider-secret-heading" className="card-heading">
        Waiting for the provider's signing secret
      </h2>
      <p>Give the provider the ingress URL below; when it shows you its signing secret, enter it here. Until then every delivery is rejected with 401.</p>
      <label htmlFor="provider-secret">Provider signing secret</label>
      <input id="provider-secret" type="password" autoComplete="off" required value={secret} onChange={(e) => setSecret(e.target.value)} />
      <ErrorNotice error={save.error} title="Not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending || secret === ''}>
          Save signing secret
        </button>
      </div>
    </form>
  );
}
