/**
 * Who is signed in. The API key lives in this tab's session storage only — never in a URL, a cookie or a
 * log — and is checked against `GET /api-keys/current` (team and role) before anything is shown.
 */
import type { AgentRuns, CurrentApiKey } from '@agent-runs/sdk';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createClient, isStatus, problemText } from './api/client';

const STORAGE_KEY = 'agent-runs.api-key';

export interface Session {
  client: AgentRuns;
  current: CurrentApiKey;
  isAdmin: boolean;
  signOut(): void;
}

type State = { status: 'checking' } | { status: 'signed-out'; message?: string } | { status: 'signed-in'; session: Session };

interface SessionApi {
  state: State;
  signIn(apiKey: string): Promise<void>;
}

const SessionContext = createContext<SessionApi | undefined>(undefined);

function readStoredKey(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>(() => (readStoredKey() ? { status: 'checking' } : { status: 'signed-out' }));

  const signOut = useCallback(() => {
    window.sessionStorage.removeItem(STORAGE_KEY);
    setState({ status: 'signed-out' });
  }, []);

  const open = useCallback(
    async (apiKey: string): Promise<Session> => {
      const client = createClient(apiKey);
      const current = await client.apiKeys.current();
      return { client, current, isAdmin: current.key.role === 'admin', signOut };
    },
    [signOut],
  );

  const signIn = useCallback(
    async (apiKey: string) => {
      const session = await open(apiKey.trim());
      window.sessionStorage.setItem(STORAGE_KEY, apiKey.trim());
      setState({ status: 'signed-in', session });
    },
    [open],
  );

  // A key kept from earlier in this tab: check it is still valid before using it.
  useEffect(() => {
    const stored = readStoredKey();
    if (!stored) return;
    let cancelled = false;
    open(stored).then(
      (session) => !cancelled && setState({ status: 'signed-in', session }),
      (error: unknown) => {
        if (cancelled) return;
        if (isStatus(error, 401)) window.sessionStorage.removeItem(STORAGE_KEY);
        setState({ status: 'signed-out', message: problemText(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [open]);

  const api = useMemo(() => ({ state, signIn }), [state, signIn]);
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSessionState(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSessionState outside SessionProvider');
  return api;
}

/** The signed-in session; only inside the signed-in part of the app. */
export function useSession(): Session {
  const { state } = useSessionState();
  if (state.status !== 'signed-in') throw new Error('useSession while not signed in');
  return state.session;
}

export const useClient = (): AgentRuns => useSession().client;
