import { apiKeyRoleValues, type ApiKeyRole, type ApiKeyWithValue } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { apiKeysQuery, invalidateApiKeys } from '../../api/api-keys';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useSession } from '../../session';

const PAGE_SIZE = 50;

/** The team's API keys (admin only; a member opening this page gets the server's 403 detail). */
export function ApiKeysPage() {
  const { client, isAdmin, current, signOut } = useSession();
  const queryClient = useQueryClient();
  const pages = useCursorPages();
  const keys = useQuery(apiKeysQuery(client, pages.cursor, PAGE_SIZE));
  const [name, setName] = useState('');
  const [role, setRole] = useState<ApiKeyRole>('member');
  const [created, setCreated] = useState<ApiKeyWithValue | null>(null);

  const create = useMutation({
    mutationFn: () => client.apiKeys.create({ role, ...(name.trim() !== '' && { name: name.trim() }) }),
    onSuccess: (key) => {
      setCreated(key);
      setName('');
      pages.reset();
      void invalidateApiKeys(queryClient);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    create.mutate();
  };

  return (
    <>
      <PageHeader title="API keys" />
      {created && (
        <section className="card secret-once" aria-labelledby="new-key-heading">
          <h2 id="new-key-heading" className="card-heading">
            New {created.role} key{created.name ? ` “${created.name}”` : ''}
          </h2>
          <p className="notice notice-warning">Copy this key now: it is shown only this once and cannot be shown again. Keep it like a password.</p>
          <div className="secret-value">
            <code aria-label="New API key">{created.api_key}</code>
            <CopyButton value={created.api_key} label="the new API key" />
          </div>
          <div className="actions">
            <button type="button" onClick={() => setCreated(null)}>
              I have stored it
            </button>
          </div>
        </section>
      )}
      {isAdmin && (
        <form className="card" onSubmit={submit} aria-label="Create an API key">
          <h2 className="card-heading">Create an API key</h2>
          <div className="form-row">
            <div>
              <label htmlFor="key-name">Name (optional)</label>
              <input id="key-name" maxLength={100} placeholder="e.g. ci" value={name} onChange={(e) => setName(e.target.value)} />
            </div>
            <div>
              <label htmlFor="key-role">Role</label>
              <select id="key-role" value={role} onChange={(e) => setRole(e.target.value as ApiKeyRole)}>
                {apiKeyRoleValues.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p className="hint">Admins manage factories, secrets, keys and environments; members work with runs and read.</p>
          <ErrorNotice error={create.error} title="Not created" />
          <div className="actions">
            <button type="submit" className="primary" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create key'}
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={keys.error} />
      {keys.data && keys.data.data.length > 0 && (
        <ul className="item-list card" aria-label="API keys">
          {keys.data.data.map((key) => {
            const own = key.key_id === current.key.key_id;
            const label = key.name ?? key.key_id;
            return (
              <li key={key.key_id} className="item-row">
                <div className="item-main">
                  <span className="item-title">
                    {key.name !== null ? <span>{key.name}</span> : <span className="muted">unnamed</span>}{' '}
                    <span className={`badge role-${key.role}`}>{key.role}</span> {own && <span className="badge">this key</span>}
                  </span>
                  <span className="hint">
                    <code>{key.key_id}</code> · created <Time value={key.created_at} />
                  </span>
                </div>
                <div className="actions">
                  <ConfirmButton
                    label={`Revoke ${label}`}
                    title={`Revoke ${label}?`}
                    confirmLabel="Revoke key"
                    danger
                    onConfirm={async () => {
                      await client.apiKeys.delete(key.key_id);
                      if (own) signOut();
                      else await invalidateApiKeys(queryClient);
                    }}
                  >
                    <p>Every request made with this key gets 401 from this moment on; this cannot be undone.</p>
                    {own && <p className="notice notice-warning">This is the key you are signed in with: you will be signed out.</p>}
                    <p className="hint">The team's last admin key cannot be revoked: create another admin key first.</p>
                  </ConfirmButton>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pager pages={pages} nextCursor={keys.data?.page_info.next_cursor} what="API keys" />
    </>
  );
}
