/**
 * The team's runs: filters in the URL, cursor pages, and states kept live by the team's event stream
 * (`GET /agent/run-events`): a row on screen is patched in place; an event about a run not on screen
 * (a new run, say) re-reads the page, at most once a second however many runs change.
 */
import { runSourceTypeValues, runStateValues, type RunItem, type RunStateEvent } from '@agent-runs/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { StateBadge } from '../../components/StateBadge';
import { Time } from '../../components/Time';
import { useClient } from '../../session';
import {
  filtersFromSearch,
  fromLocalInput,
  listParams,
  searchFromFilters,
  SORTS,
  TEXT_FILTERS,
  toLocalInput,
  type RunFilters,
  type SortKey,
} from './filters';
import { useEventStream } from './live';
import { LiveIndicator } from './LiveIndicator';
import './runs.css';

/** Re-reading the page for runs not on screen: at most this often. */
const REFETCH_INTERVAL_MS = 1000;
/** State changes of rows on screen are applied together, this often. */
const PATCH_INTERVAL_MS = 100;

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
      <FiltersForm key={canonical} filters={filters} onApply={apply} />
      {/* New filters start again at page 1. */}
      <RunsTable key={canonical} filters={filters} />
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
            <input
              id="filter-limit"
              type="number"
              min={1}
              max={500}
              placeholder="20"
              value={draft.limit}
              onChange={(e) => set('limit', e.target.value)}
            />
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

/** Calls `fn` at most once per `ms`: at once if the last call is old enough, else once at the end of the wait. */
function useThrottle(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  latest.current = fn;
  const timing = useRef<{ last: number; timer: ReturnType<typeof setTimeout> | undefined }>({ last: 0, timer: undefined });
  useEffect(() => () => clearTimeout(timing.current.timer), []);
  return useCallback(() => {
    const t = timing.current;
    if (t.timer !== undefined) return;
    const wait = t.last + ms - Date.now();
    const call = () => {
      t.timer = undefined;
      t.last = Date.now();
      latest.current();
    };
    if (wait <= 0) call();
    else t.timer = setTimeout(call, wait);
  }, [ms]);
}

/** A state event newer than (or as new as) what the page read wins. */
const isNewer = (event: RunStateEvent, run: RunItem) => Date.parse(event.updated_at) >= Date.parse(run.updated_at);

function RunsTable({ filters }: { filters: RunFilters }) {
  const client = useClient();
  const pages = useCursorPages();
  const params = useMemo(() => ({ ...listParams(filters), ...(pages.cursor ? { cursor: pages.cursor } : {}) }), [filters, pages.cursor]);
  const query = useQuery({
    queryKey: ['runs', 'list', params],
    queryFn: async ({ signal }) => {
      const page = await client.agent.runs.list(params, { signal });
      return { runs: page.data, nextCursor: page.page_info.next_cursor };
    },
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.runs;

  // Live states of the rows on screen, by run id; anything else on the stream means "re-read the page".
  const [live, setLive] = useState<ReadonlyMap<string, RunStateEvent>>(new Map());
  const onScreen = useRef(new Set<string>());
  onScreen.current = new Set(rows?.map((r) => r.run_id));
  const pending = useRef(new Map<string, RunStateEvent>());
  const patchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(patchTimer.current), []);

  // A re-read asked for while one is under way runs after it (that one may have missed the change); it
  // never cancels it, so a slow page still arrives under a steady stream of events.
  const reading = useRef<'idle' | 'reading' | 'again'>('idle');
  const reread = () => {
    if (reading.current !== 'idle') {
      reading.current = 'again';
      return;
    }
    reading.current = 'reading';
    void query.refetch({ cancelRefetch: false }).finally(() => {
      const again = reading.current === 'again';
      reading.current = 'idle';
      if (again) refetch();
    });
  };
  const refetch = useThrottle(reread, REFETCH_INTERVAL_MS);
  const flushPatches = () => {
    patchTimer.current = undefined;
    const batch = pending.current;
    pending.current = new Map();
    setLive((previous) => {
      const next = new Map<string, RunStateEvent>();
      for (const [id, event] of previous) if (onScreen.current.has(id)) next.set(id, event);
      for (const [id, event] of batch) next.set(id, event);
      return next;
    });
  };

  const { status, failure } = useEventStream(client, 'team', true, {
    open: (streamClient) => streamClient.agent.runs.teamEvents(),
    // The stream does not replay: what changed while it was closed is read from the list.
    onOpen: refetch,
    onEvent: (event) => {
      if (event.event !== 'state') return;
      const data = event.data;
      if (!onScreen.current.has(data.run_id)) {
        refetch();
        return;
      }
      pending.current.set(data.run_id, data);
      patchTimer.current ??= setTimeout(flushPatches, PATCH_INTERVAL_MS);
      // A row that left the state filter leaves the page.
      if (filters.state.length > 0 && !filters.state.includes(data.state)) refetch();
    },
  });

  const shown = rows?.map((run) => {
    const event = live.get(run.run_id);
    return event && isNewer(event, run) ? { ...run, state: event.state, updated_at: event.updated_at } : run;
  });
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
        <p className="card muted">
          {filtered ? 'No runs match these filters.' : 'No runs yet: start one with New run, or let an automation start them.'}
        </p>
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
