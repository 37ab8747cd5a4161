import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { invalidateSecrets, secretsQuery } from '../../api/secrets';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useSession } from '../../session';

const PAGE_SIZE = 50;

/** Team secrets (admin only): names and dates; values can be set or replaced but never read back. */
export function SecretsPage() {
  const { client, isAdmin } = useSession();
  const queryClient = useQueryClient();
  const pages = useCursorPages();
  const secrets = useQuery(secretsQuery(client, pages.cursor, PAGE_SIZE));
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [stored, setStored] = useState<string | null>(null);
  const valueInput = useRef<HTMLInputElement>(null);

  const put = useMutation({
    mutationFn: () => client.secrets.put(name.trim(), { value }),
    onSuccess: (secret) => {
      setStored(secret.name);
      setName('');
      setValue('');
      void invalidateSecrets(queryClient);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setStored(null);
    put.mutate();
  };
  const replace = (secretName: string) => {
    setName(secretName);
    setStored(null);
    valueInput.current?.focus();
  };

  return (
    <>
      <PageHeader title="Secrets" />
      <p className="hint">
        Team secrets hold webhook credentials. Values are encrypted at rest and never shown again; webhooks that use a secret take a new value the next time
        their definition applies.
      </p>
      {isAdmin && (
        <form className="card" onSubmit={submit} aria-label="Set a secret">
          <h2 className="card-heading">Set a secret</h2>
          <div className="form-row">
            <div>
              <label htmlFor="secret-name">Name</label>
              <input
                id="secret-name"
                required
                pattern="[A-Za-z_][A-Za-z0-9_]{0,127}"
                title="Letters, digits and _, not starting with a digit"
                autoComplete="off"
                spellCheck={false}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            </div>
            <div>
              <label htmlFor="secret-value">Value</label>
              <input
                id="secret-value"
                ref={valueInput}
                type="password"
                required
                autoComplete="new-password"
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
            </div>
          </div>
          <p className="hint">An existing name gets the new value.</p>
          <ErrorNotice error={put.error} title="Not stored" />
          {stored && (
            <div className="notice notice-success" role="status">
              Stored <code>{stored}</code>.
            </div>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={put.isPending}>
              {put.isPending ? 'Storing…' : 'Store secret'}
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={secrets.error} />
      {secrets.data && secrets.data.data.length === 0 && !pages.hasPrevious && <p className="muted">No secrets yet.</p>}
      {secrets.data && secrets.data.data.length > 0 && (
        <ul className="item-list card" aria-label="Secrets">
          {secrets.data.data.map((secret) => (
            <li key={secret.name} className="item-row">
              <div className="item-main">
                <code className="item-title">{secret.name}</code>
                <span className="hint">
                  updated <Time value={secret.updated_at} /> · created <Time value={secret.created_at} />
                </span>
              </div>
              {isAdmin && (
                <div className="actions">
                  <button type="button" onClick={() => replace(secret.name)} aria-label={`Set a new value for ${secret.name}`}>
                    New value
                  </button>
                  <ConfirmButton
                    label={`Delete ${secret.name}`}
                    title={`Delete secret ${secret.name}?`}
                    confirmLabel="Delete secret"
                    danger
                    onConfirm={async () => {
                      await client.secrets.delete(secret.name);
                      await invalidateSecrets(queryClient);
                    }}
                  >
                    <p>The value is gone for good. A secret that a webhook uses cannot be deleted: the server names the webhooks.</p>
                  </ConfirmButton>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager pages={pages} nextCursor={secrets.data?.page_info.next_cursor} what="secrets" />
    </>
  );
}
