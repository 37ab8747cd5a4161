/**
 * The team's runs: filters in the URL, cursor pages, and states kept live by the team's event stream
 * (`GET /agent/run-events`, written into the query cache by useRunEventsIntoCache).
 */
import { runSourceTypeValues, runStateValues } from '@agent-runs/sdk';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useRunEventsIntoCache } from '../../api/run-events';
import { runsQuery } from '../../api/runs';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { StateBadge } from '../../components/StateBadge';
import { Time } from '../../components/Time';
import { useClient } from '../../session';
import { filtersFromSearch, fromLocalInput, listParams, searchFromFilters, SORTS, TEXT_FILTERS, toLocalInput, type RunFilters, type SortKey } from './filters';
import { LiveIndicator } from './LiveIndicator';
import './runs.css';

export function RunsListPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const canonical = searchFromFilters(filters);
  const apply = (next: RunFilters) => {
    const query = searchFromFilters(next);
    navigate(query ? `/runs?${query}` : '/runs');
  };

  return (
    <>
      <PageHeader title="Runs">
        <Link href="/runs/new" className="button primary">
          New run
        </Link>
      </PageHeader>
      <FiltersForm key={`filters?${canonical}`} filters={filters} onApply={apply} />
      {/* New filters start again at page 1. */}
      <RunsTable key={`runs?${canonical}`} filters={filters} />
    </>
  );
}

const NO_FILTERS = filtersFromSearch('');

function activeFilterCount(filters: RunFilters): number {
  return Object.entries(filters).filter(([key, value]) => key !== 'sort' && key !== 'limit' && value.length > 0).length;
}

function FiltersForm({ filters, onApply }: { filters: RunFilters; onApply(filters: RunFilters): void }) {
  const [draft, setDraft] = useState(filters);
  const set = <K extends keyof RunFilters>(key: K, value: RunFilters[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const active = activeFilterCount(filters);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const text = (key: (typeof TEXT_FILTERS)[number], label: string, hint?: string) => (
    <div>
      <label htmlFor={`filter-${key}`}>{label}</label>
      <input id={`filter-${key}`} value={draft[key]} placeholder={hint} onChange={(e) => set(key, e.target.value)} />
    </div>
  );
  const instant = (key: 'created_after' | 'created_before', label: string) => (
    <div>
      <label htmlFor={`filter-${key.replace('_', '-')}`}>{label}</label>
      <input
        id={`filter-${key.replace('_', '-')}`}
        type="datetime-local"
        step="1"
        value={toLocalInput(draft[key])}
        onChange={(e) => set(key, fromLocalInput(e.target.value))}
      />
    </div>
  );

  return (
    <details className="card run-filters" open={active > 0}>
      <summary>Filters{active > 0 ? ` (${active} active)` : ''}</summary>
      <form onSubmit={submit}>
        <fieldset className="state-filter">
          <legend>State</legend>
          {runStateValues.map((state) => (
            <label key={state} className="inline">
              <input
                type="checkbox"
                checked={draft.state.includes(state)}
                onChange={(e) => set('state', e.target.checked ? [...draft.state, state] : draft.state.filter((s) => s !== state))}
              />
              {state}
            </label>
          ))}
        </fieldset>
        <div className="filters">
          {text('name', 'Config name')}
          {text('model_id', 'Model')}
          {text('creator', 'Creator', 'creator uid, e.g. key_…')}
          <div>
            <label htmlFor="filter-source">Source</label>
            <select id="filter-source" value={draft.source} onChange={(e) => set('source', e.target.value as RunFilters['source'])}>
              <option value="">Any</option>
              {runSourceTypeValues.map((source) => (
                <option key={source} value={source}>
                  {source}
                </option>
              ))}
            </select>
          </div>
          {instant('created_after', 'Created after')}
          {instant('created_before', 'Created before')}
          {text('factory_uid', 'Factory', 'fac_…')}
          {text('automation_id', 'Automation', 'aut_…')}
          {text('schedule_id', 'Schedule', 'sch_…')}
          <div>
            <label htmlFor="filter-sort">Order</label>
            <select id="filter-sort" value={draft.sort} onChange={(e) => set('sort', e.target.value as SortKey)}>
              {Object.entries(SORTS).map(([key, sort]) => (
                <option key={key} value={key}>
                  {sort.label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="filter-limit">Runs per page</label>
            <input id="filter-limit" type="number" min={1} max={500} placeholder="20" value={draft.limit} onChange={(e) => set('limit', e.target.value)} />
          </div>
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button type="button" onClick={() => onApply(NO_FILTERS)} disabled={active === 0}>
            Clear filters
          </button>
        </div>
      </form>
    </details>
  );
}

function RunsTable({ filters }: { filters: RunFilters }) {
  const client = useClient();
  const pages = useCursorPages();
  const params = useMemo(() => ({ ...listParams(filters), ...(pages.cursor ? { cursor: pages.cursor } : {}) }), [filters, pages.cursor]);
  const query = useQuery(runsQuery(client, params));
  const { status, failure } = useRunEventsIntoCache(client);
  const shown = query.data?.runs;
  const filtered = activeFilterCount(filters) > 0;

  return (
    <section aria-label="Runs">
      <div className="runs-toolbar">
        <LiveIndicator status={status} failure={failure} />
      </div>
      <ErrorNotice error={query.error} title="Could not list runs" />
      {query.isPending && (
        <p className="loading" role="status">
          Loading runs…
        </p>
      )}
      {shown && shown.length === 0 && (
        <p className="card muted">{filtered ? 'No runs match these filters.' : 'No runs yet: start one with New run, or let an automation start them.'}</p>
      )}
      {shown && shown.length > 0 && (
        <div className="table-wrap runs-table">
          <table>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">State</th>
                <th scope="col">Source</th>
                <th scope="col">Creator</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((run) => (
                <tr key={run.run_id}>
                  <td className="run-title">
                    <Link href={`/runs/${run.run_id}`}>{run.title || run.run_id}</Link>
                  </td>
                  <td data-label="State">
                    <StateBadge state={run.state} />
                  </td>
                  <td data-label="Source">{run.source ?? <span className="muted">—</span>}</td>
                  <td data-label="Creator">{run.creator?.display_name ?? <span className="muted">—</span>}</td>
                  <td data-label="Created">
                    <Time value={run.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager pages={pages} nextCursor={query.data?.nextCursor} what="runs" />
    </section>
  );
}
