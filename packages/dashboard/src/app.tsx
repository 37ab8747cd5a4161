/**
 * The dashboard: sign in, then one page per route. Every page reads and writes through the public REST API
 * (session.tsx's client); React Query caches answers per page.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Layout } from './components/Layout';
import { AuditPage } from './pages/audit/AuditPage';
import { AutomationEditorPage } from './pages/automations/AutomationEditorPage';
import { FactoriesPage } from './pages/factories/FactoriesPage';
import { FactoryPage } from './pages/factories/FactoryPage';
import { WebhookPage } from './pages/factories/WebhookPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { NotificationsPage } from './pages/notifications/NotificationsPage';
import { SubscriptionPage } from './pages/notifications/SubscriptionPage';
import { CreateRunPage } from './pages/runs/CreateRunPage';
import { RunPage } from './pages/runs/RunPage';
import { RunsListPage } from './pages/runs/RunsListPage';
import { SessionPage } from './pages/runs/SessionPage';
import { SchedulesPage } from './pages/schedules/SchedulesPage';
import { ApiKeysPage } from './pages/settings/ApiKeysPage';
import { EnvironmentsPage } from './pages/settings/EnvironmentsPage';
import { SecretsPage } from './pages/settings/SecretsPage';
import { UsagePage } from './pages/settings/UsagePage';
import { SignInPage } from './pages/SignInPage';
import { SessionProvider, useSessionState } from './session';
import { isStatus } from './api/client';

const newQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        // The SDK already retried once; 4xx answers are final.
        retry: (failures, error) => failures < 1 && !isStatus(error, 404) && !isStatus(error, 403),
        refetchOnWindowFocus: false,
        staleTime: 5_000,
      },
    },
  });

function Routes() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/runs" replace />
      </Route>
      <Route path="/runs" component={RunsListPage} />
      <Route path="/runs/new" component={CreateRunPage} />
      <Route path="/runs/:runId">{(p) => <RunPage key={p.runId} runId={p.runId} />}</Route>
      <Route path="/sessions/:sessionId">{(p) => <SessionPage key={p.sessionId} sessionId={p.sessionId} />}</Route>
      <Route path="/factories" component={FactoriesPage} />
      <Route path="/factories/:factoryUid">{(p) => <FactoryPage key={p.factoryUid} factoryUid={p.factoryUid} />}</Route>
      <Route path="/factories/:factoryUid/webhooks/:webhookUid">
        {(p) => <WebhookPage key={p.webhookUid} factoryUid={p.factoryUid} webhookUid={p.webhookUid} />}
      </Route>
      <Route path="/factories/:factoryUid/automations/new">{(p) => <AutomationEditorPage factoryUid={p.factoryUid} />}</Route>
      <Route path="/factories/:factoryUid/automations/:automationUid">
        {(p) => <AutomationEditorPage key={p.automationUid} factoryUid={p.factoryUid} automationUid={p.automationUid} />}
      </Route>
      <Route path="/schedules" component={SchedulesPage} />
      <Route path="/notifications" component={NotificationsPage} />
      <Route path="/notifications/:uid">{(p) => <SubscriptionPage key={p.uid} uid={p.uid} />}</Route>
      <Route path="/environments" component={EnvironmentsPage} />
      <Route path="/secrets" component={SecretsPage} />
      <Route path="/api-keys" component={ApiKeysPage} />
      <Route path="/usage" component={UsagePage} />
      <Route path="/audit" component={AuditPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

function Gate() {
  const { state } = useSessionState();
  if (state.status === 'checking')
    return (
      <p className="loading" role="status">
        Checking your API key…
      </p>
    );
  if (state.status === 'signed-out') return <SignInPage message={state.message} />;
  // A new key is a new person: nothing cached for the previous one may show.
  return <SignedIn key={state.session.current.key.key_id} />;
}

function SignedIn() {
  const [queryClient] = useState(newQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Layout>
        <Routes />
      </Layout>
    </QueryClientProvider>
  );
}

export function App() {
  return (
    <SessionProvider>
      <Gate />
    </SessionProvider>
  );
}
