import { authModeValues, signatureSchemeValues, type AuthMode, type CreateWebhookRequest, type SignatureScheme, type WebhookWithSecret } from '@agent-runs/sdk';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useSession } from '../../session';
import { authModeHints, authModeNames, schemeGeneratesSecret, suggestedSecretName } from './webhook-text';

interface Props {
  factoryUid: string;
  onCreated(webhook: WebhookWithSecret): void;
}

/** Create webhook (docs/service-spec.md §Dashboard behaviors 1): the answer carries the secret once. */
export function CreateWebhookForm({ factoryUid, onCreated }: Props) {
  const { client } = useSession();
  const [name, setName] = useState('');
  const [authMode, setAuthMode] = useState<AuthMode>('token');
  const [scheme, setScheme] = useState<SignatureScheme>('standard-webhooks');
  const [providerSecret, setProviderSecret] = useState('');
  const [secretName, setSecretName] = useState('');
  const [deliveryIdHeader, setDeliveryIdHeader] = useState('');

  const create = useMutation({
    mutationFn: () => {
      const body: CreateWebhookRequest = { name: name.trim(), auth_mode: authMode };
      if (authMode === 'signature') {
        body.signature_scheme = scheme;
        if (providerSecret !== '') body.provider_secret = providerSecret;
      }
      if (secretName.trim() !== '') body.secret_name = secretName.trim();
      if (deliveryIdHeader.trim() !== '') body.delivery_id_header = deliveryIdHeader.trim();
      return client.factories.webhooks.create(factoryUid, body);
    },
    onSuccess: (webhook) => {
      setName('');
      setProviderSecret('');
      setSecretName('');
      setDeliveryIdHeader('');
      onCreated(webhook);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const suggestion = suggestedSecretName(name.trim());

  return (
    <form onSubmit={submit} aria-label="Create webhook">
      <div className="form-row">
        <div>
          <label htmlFor="webhook-name">Name</label>
          <input id="webhook-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <label htmlFor="webhook-auth-mode">Authentication mode</label>
          <select id="webhook-auth-mode" value={authMode} onChange={(e) => setAuthMode(e.target.value as AuthMode)}>
            {authModeValues.map((mode) => (
              <option key={mode} value={mode}>
                {authModeNames[mode]} ({mode})
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="hint">{authModeHints[authMode]}</p>
      {authMode === 'signature' && (
        <div className="form-row">
          <div>
            <label htmlFor="webhook-scheme">Provider scheme</label>
            <select id="webhook-scheme" value={scheme} onChange={(e) => setScheme(e.target.value as SignatureScheme)}>
              {signatureSchemeValues.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="webhook-provider-secret">Provider signing secret (optional)</label>
            <input
              id="webhook-provider-secret"
              type="password"
              autoComplete="off"
              value={providerSecret}
              onChange={(e) => setProviderSecret(e.target.value)}
              aria-describedby="webhook-provider-secret-hint"
            />
            <p className="hint" id="webhook-provider-secret-hint">
              {schemeGeneratesSecret(scheme)
                ? 'Leave blank and the service generates one (shown once) for the sender.'
                : 'Leave blank if the provider issues its secret only after it has the URL: enter it on the webhook page then.'}
            </p>
          </div>
        </div>
      )}
      <div className="form-row">
        <div>
          <label htmlFor="webhook-secret-name">Secret name (optional)</label>
          <input
            id="webhook-secret-name"
            maxLength={128}
            pattern="[A-Za-z_][A-Za-z0-9_]*"
            placeholder={suggestion}
            value={secretName}
            onChange={(e) => setSecretName(e.target.value)}
            aria-describedby="webhook-secret-name-hint"
          />
          <p className="hint" id="webhook-secret-name-hint">
            Blank: the credential is stored as the team secret <code>{suggestion}</code>. An existing team secret's name uses its value instead (not shown).
          </p>
        </div>
        <div>
          <label htmlFor="webhook-delivery-id-header">Delivery ID header (optional)</label>
          <input
            id="webhook-delivery-id-header"
            maxLength={128}
            placeholder="e.g. X-GitHub-Delivery"
            value={deliveryIdHeader}
            onChange={(e) => setDeliveryIdHeader(e.target.value)}
            aria-describedby="webhook-delivery-id-header-hint"
          />
          <p className="hint" id="webhook-delivery-id-header-hint">
            The header in which the sender puts its own event ID; deliveries with an ID already accepted are duplicates.
          </p>
        </div>
      </div>
      <ErrorNotice error={create.error} title="Not created" />
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending || name.trim() === ''}>
          {create.isPending ? 'Creating…' : 'Create webhook'}
        </button>
      </div>
    </form>
  );
}
