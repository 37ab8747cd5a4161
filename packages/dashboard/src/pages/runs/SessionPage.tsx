/**
 * A run's session_link (`/sessions/:sessionId`): once signed in, the run of that session in the signed-in
 * team (`GET /agent/runs?session_id=`) replaces this address with its page.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { isStatus } from '../../api/client';
import { sessionRunQuery } from '../../api/runs';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { useSession } from '../../session';

export function SessionPage({ sessionId }: { sessionId: string }) {
  const { client, current } = useSession();
  const [, navigate] = useLocation();
  const found = useQuery(sessionRunQuery(client, sessionId));
  const runId = found.data?.run_id;
  useEffect(() => {
    if (runId) navigate(`/runs/${runId}`, { replace: true });
  }, [runId, navigate]);

  // A malformed session id (400) cannot name a run either.
  const notFound = found.data === null || isStatus(found.error, 400);
  return (
    <>
      <PageHeader title="Run" />
      {found.isPending && (
        <p className="loading" role="status">
          Finding the run of this session…
        </p>
      )}
      {notFound && (
        <div className="notice notice-warning" role="alert">
          No run of session <code className="break">{sessionId}</code> in team <strong>{current.team.name}</strong>. The run may belong to another team: sign in
          with a key of its team. <Link href="/runs">See this team's runs</Link>.
        </div>
      )}
      {!notFound && <ErrorNotice error={found.error} title="Could not look up the session" />}
    </>
  );
}
