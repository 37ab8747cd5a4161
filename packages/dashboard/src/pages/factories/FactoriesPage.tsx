import { definitionSourceValues, type DefinitionSource } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { factoriesQuery, invalidateFactoryLists } from '../../api/factories';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useSession } from '../../session';
import { definitionSourceNames } from './webhook-text';
import './factories.css';

const PAGE_SIZE = 50;

/** The team's factories, newest first; admins create one (its definition source is fixed at creation). */
export function FactoriesPage() {
  const { client, isAdmin } = useSession();
  const pages = useCursorPages();
  const factories = useQuery(factoriesQuery(client, pages.cursor, PAGE_SIZE));

  return (
    <>
      <PageHeader title="Factories" />
      {isAdmin && <CreateFactoryForm />}
      <ErrorNotice error={factories.error} />
      {factories.isPending && (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
      {factories.data && factories.data.data.length === 0 && !pages.hasPrevious && <p className="muted">No factories yet.</p>}
      {factories.data && factories.data.data.length > 0 && (
        <ul className="item-list card" aria-label="Factories">
          {factories.data.data.map((factory) => (
            <li key={factory.uid} className="item-row">
              <div className="item-main">
                <Link href={`/factories/${factory.uid}`} className="item-title">
                  {factory.name}
                </Link>
                <span className="hint">
                  <code>{factory.uid}</code> · created <Time value={factory.created_at} />
                </span>
              </div>
              <span className={`badge source-${factory.definition_source}`}>{definitionSourceNames[factory.definition_source]}</span>
            </li>
          ))}
        </ul>
      )}
      <Pager pages={pages} nextCursor={factories.data?.page_info.next_cursor} what="factories" />
    </>
  );
}

function CreateFactoryForm() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [source, setSource] = useState<DefinitionSource>('api');
  const create = useMutation({
    mutationFn: () => client.factories.create({ name: name.trim(), definition_source: source }),
    onSuccess: (factory) => {
      void invalidateFactoryLists(queryClient);
      navigate(`/factories/${factory.uid}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <details className="card create-details">
      <summary>Create a factory</summary>
      <form onSubmit={submit} aria-label="Create a factory">
        <div className="form-row">
          <div>
            <label htmlFor="factory-name">Name</label>
            <input id="factory-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div>
            <label htmlFor="factory-source">Definitions</label>
            <select id="factory-source" value={source} onChange={(e) => setSource(e.target.value as DefinitionSource)}>
              {definitionSourceValues.map((value) => (
                <option key={value} value={value}>
                  {definitionSourceNames[value]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="hint">
          Fixed at creation. A managed factory's webhooks and automations are changed here and through the API; a files factory's only by applying its
          definition files (here only Enabled can be toggled).
        </p>
        <ErrorNotice error={create.error} title="Not created" />
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending || name.trim() === ''}>
            {create.isPending ? 'Creating…' : 'Create factory'}
          </button>
        </div>
      </form>
    </details>
  );
}
