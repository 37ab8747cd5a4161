import type { Factory, WebhookWithSecret } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { automationsQuery, factoryQuery, invalidateWebhooks, webhooksQuery } from '../../api/factories';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useSession } from '../../session';
import { CreateWebhookForm } from './CreateWebhookForm';
import { SecretOnceCard } from './SecretOnceCard';
import { authModeNames, definitionSourceNames } from './webhook-text';
import './factories.css';

const AUTOMATIONS_PAGE = 25;

/** One factory: its details, webhooks (create: admins of a managed factory), automations, and dispatching a run. */
export function FactoryPage({ factoryUid }: { factoryUid: string }) {
  const { client } = useSession();
  const factory = useQuery(factoryQuery(client, factoryUid));
  return (
    <>
      <p className="breadcrumb">
        <Link href="/factories">Factories</Link> /
      </p>
      <PageHeader title={factory.data?.name ?? 'Factory'} />
      <ErrorNotice error={factory.error} />
      {factory.isPending && (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
      {factory.data && (
        <>
          <FactoryDetails factory={factory.data} />
          <Webhooks factory={factory.data} />
          <Automations factory={factory.data} />
          <DispatchRun factoryUid={factory.data.uid} />
        </>
      )}
    </>
  );
}

function FactoryDetails({ factory }: { factory: Factory }) {
  return (
    <section className="card" aria-label="Factory details">
      <dl className="fields">
        <dt>UID</dt>
        <dd>
          <code>{factory.uid}</code> <CopyButton value={factory.uid} label="the factory UID" />
        </dd>
        <dt>Definitions</dt>
        <dd>{definitionSourceNames[factory.definition_source]}</dd>
        <dt>Created</dt>
        <dd>
          <Time value={factory.created_at} />
        </dd>
      </dl>
      {factory.definition_source === 'files' && (
        <p className="notice">
          This factory's webhooks and automations are defined in files and change only when its definitions are applied. Here they are read-only except for
          Enabled.
        </p>
      )}
    </section>
  );
}

function Webhooks({ factory }: { factory: Factory }) {
  const { client, isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  const webhooks = useQuery(webhooksQuery(client, factory.uid));
  const canCreate = isAdmin && factory.definition_source === 'api';

  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      {created && <SecretOnceCard webhook={created} event="created" onDismiss={() => setCreated(null)} />}
      <ErrorNotice error={webhooks.error} />
      {webhooks.data && webhooks.data.length === 0 && <p className="muted">No webhooks yet.</p>}
      {webhooks.data && webhooks.data.length > 0 && (
        <ul className="item-list card" aria-label="Webhooks">
          {webhooks.data.map((webhook) => (
            <li key={webhook.uid} className="item-row">
              <div className="item-main">
                <span className="item-title">
                  <Link href={`/factories/${factory.uid}/webhooks/${webhook.uid}`}>{webhook.name}</Link>{' '}
                  <span className={`badge ${webhook.enabled ? 'badge-on' : 'badge-off'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>{' '}
                  <span className="badge">
                    {authModeNames[webhook.auth_mode]}
                    {webhook.signature_scheme ? ` · ${webhook.signature_scheme}` : ''}
                  </span>
                  {!webhook.secret_configured && <span className="badge badge-warn">secret not configured</span>}
                </span>
                <span className="url-line">
                  <code>{webhook.ingress_url}</code>
                  <CopyButton value={webhook.ingress_url} label={`the ingress URL of ${webhook.name}`} />
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {canCreate && (
        <details className="card create-details">
          <summary>Create webhook</summary>
          <CreateWebhookForm
            factoryUid={factory.uid}
            onCreated={(webhook) => {
              setCreated(webhook);
              void invalidateWebhooks(queryClient, factory.uid);
            }}
          />
        </details>
      )}
    </section>
  );
}

function Automations({ factory }: { factory: Factory }) {
  const { client, isAdmin } = useSession();
  const pages = useCursorPages();
  const automations = useQuery(automationsQuery(client, factory.uid, pages.cursor, AUTOMATIONS_PAGE));
  return (
    <section aria-labelledby="automations-heading">
      <div className="section-header">
        <h2 id="automations-heading">Automations</h2>
        {isAdmin && factory.definition_source === 'api' && (
          <Link href={`/factories/${factory.uid}/automations/new`} className="button">
            New automation
          </Link>
        )}
      </div>
      <ErrorNotice error={automations.error} />
      {automations.data && automations.data.data.length === 0 && !pages.hasPrevious && <p className="muted">No automations yet.</p>}
      {automations.data && automations.data.data.length > 0 && (
        <ul className="item-list card" aria-label="Automations">
          {automations.data.data.map((automation) => (
            <li key={automation.uid} className="item-row">
              <div className="item-main">
                <span className="item-title">
                  <Link href={`/factories/${factory.uid}/automations/${automation.uid}`}>{automation.name}</Link>{' '}
                  <span className={`badge ${automation.enabled ? 'badge-on' : 'badge-off'}`}>{automation.enabled ? 'enabled' : 'disabled'}</span>
                </span>
                <span className="hint">
                  {automation.selected_webhooks.length === 0
                    ? 'No webhook selected'
                    : `Webhooks: ${automation.selected_webhooks.map((w) => (w.state === 'enabled' ? (w.name ?? w.uid) : `${w.name ?? w.uid} (${w.state})`)).join(', ')}`}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager pages={pages} nextCursor={automations.data?.page_info.next_cursor} what="automations" />
    </section>
  );
}

/** Dispatch a run to the factory (members may); the new run's page follows. */
function DispatchRun({ factoryUid }: { factoryUid: string }) {
  const { client } = useSession();
  const [, navigate] = useLocation();
  const [prompt, setPrompt] = useState('');
  const [title, setTitle] = useState('');
  const dispatch = useMutation({
    mutationFn: () => client.factories.runs.create(factoryUid, { prompt, ...(title.trim() !== '' && { title: title.trim() }) }),
    onSuccess: (run) => navigate(`/runs/${run.run_id}`),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch.mutate();
  };
  return (
    <details className="card create-details">
      <summary>Dispatch a run</summary>
      <form onSubmit={submit} aria-label="Dispatch a run">
        <label htmlFor="dispatch-prompt">Prompt</label>
        <textarea id="dispatch-prompt" required value={prompt} onChange={(e) => setPrompt(e.target.value)} />
        <label htmlFor="dispatch-title">Title (optional)</label>
        <input id="dispatch-title" maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
        <ErrorNotice error={dispatch.error} title="Not dispatched" />
        <div className="actions">
          <button type="submit" className="primary" disabled={dispatch.isPending || prompt.trim() === ''}>
            {dispatch.isPending ? 'Dispatching…' : 'Dispatch run'}
          </button>
        </div>
      </form>
    </details>
  );
}
