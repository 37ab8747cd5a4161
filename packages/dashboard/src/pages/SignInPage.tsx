import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../components/ErrorNotice';
import { useSessionState } from '../session';

/** Sign in with an API key: kept in this tab's session storage only, checked before use. */
export function SignInPage({ message }: { message?: string | undefined }) {
  const { signIn } = useSessionState();
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(apiKey);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>Agent Runs</h1>
      <form onSubmit={submit} className="card">
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          placeholder="ar_live_…"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
        />
        <p className="hint">
          The key stays in this browser tab (session storage) and is sent only to this server's API. The first start of the server printed the admin key of team{' '}
          <code>default</code>; admins create more under API keys.
        </p>
        <p className="hint" id="lost-key">
          Lost the admin key? The server keeps only its hash. On the server's host, with the same settings as the server, run{' '}
          <code>pnpm --silent admin create-key --team default --role admin --name recovery</code> and sign in with the key it prints.
        </p>
        {message && !error && <div className="notice">{message}</div>}
        <ErrorNotice error={error} title="Could not sign in" />
        <button type="submit" className="primary" disabled={busy || apiKey.trim() === ''}>
          Sign in
        </button>
      </form>
    </main>
  );
}
