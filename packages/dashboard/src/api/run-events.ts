/**
 * The team's run stream (`GET /agent/run-events`) written into the query cache: every cached list of runs
 * gets the new state of the rows it holds, in batches; an event about a run that no list on screen holds
 * (a new run, say), or one that takes a row out of its list's state filter, re-reads the lists on screen,
 * at most once a second however many runs change. The stream does not replay, so every (re)connection
 * re-reads them too (docs/decisions.md §Dashboard, "Live lists").
 */
import type { AgentRuns, RunItem, RunStateEvent } from '@agent-runs/sdk';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useEventStream } from '../pages/runs/live';
import { runKeys, type RunsPage } from './runs';

/** State changes of cached rows are written together, this often. */
export const PATCH_INTERVAL_MS = 100;
/** Re-reading the lists on screen: at most this often. */
export const REREAD_INTERVAL_MS = 1000;

/** Whether `event` says something newer about `run` than the row holds. */
function changes(event: RunStateEvent, run: RunItem): boolean {
  const eventAt = Date.parse(event.updated_at);
  const rowAt = Date.parse(run.updated_at);
  return eventAt > rowAt || (eventAt === rowAt && event.state !== run.state);
}

function patched(page: RunsPage, events: ReadonlyMap<string, RunStateEvent>): RunsPage {
  let changed = false;
  const runs = page.runs.map((run) => {
    const event = events.get(run.run_id);
    if (!event || !changes(event, run)) return run;
    changed = true;
    return { ...run, state: event.state, updated_at: event.updated_at };
  });
  return changed ? { ...page, runs } : page;
}

const listQueries = (queryClient: QueryClient) => queryClient.getQueryCache().findAll({ queryKey: runKeys.lists() });

/**
 * Re-reads the lists of runs on screen at most once per `REREAD_INTERVAL_MS`. A re-read asked for while one
 * is under way runs after it (that one may have missed the change); it never cancels it, so a slow page
 * still arrives under a steady stream of events.
 */
function listRereader(queryClient: QueryClient) {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reading: 'idle' | 'reading' | 'again' = 'idle';
  const reread = () => {
    timer = undefined;
    last = Date.now();
    if (reading !== 'idle') {
      reading = 'again';
      return;
    }
    reading = 'reading';
    void queryClient.invalidateQueries({ queryKey: runKeys.lists() }, { cancelRefetch: false }).finally(() => {
      const again = reading === 'again';
      reading = 'idle';
      if (again) ask();
    });
  };
  const ask = () => {
    if (timer !== undefined) return;
    const wait = last + REREAD_INTERVAL_MS - Date.now();
    if (wait <= 0) reread();
    else timer = setTimeout(reread, wait);
  };
  return { ask, stop: () => clearTimeout(timer) };
}

/**
 * Follows the team's run stream while mounted and keeps the cached lists of runs current; returns whether the
 * stream is live (for a LiveIndicator).
 */
export function useRunEventsIntoCache(client: AgentRuns) {
  const queryClient = useQueryClient();
  const live = useRef<{ onEvent(event: RunStateEvent): void; onOpen(): void }>(undefined);

  useEffect(() => {
    const rereader = listRereader(queryClient);
    let pending = new Map<string, RunStateEvent>();
    // The newest event of each run a cached list holds, written again over a page read before it arrived.
    const latest = new Map<string, RunStateEvent>();
    let patchTimer: ReturnType<typeof setTimeout> | undefined;

    const flush = () => {
      patchTimer = undefined;
      const batch = pending;
      pending = new Map();
      const onScreen = new Set<string>();
      for (const query of listQueries(queryClient)) {
        const page = query.state.data as RunsPage | undefined;
        if (!page) continue;
        const active = query.isActive();
        const stateFilter = (query.queryKey[2] as { state?: string[] } | undefined)?.state ?? [];
        for (const run of page.runs) {
          const event = batch.get(run.run_id);
          if (!event) continue;
          latest.set(run.run_id, event);
          if (!active) continue;
          onScreen.add(run.run_id);
          // A row that left the state filter leaves the page.
          if (stateFilter.length > 0 && !stateFilter.includes(event.state)) rereader.ask();
        }
        const next = patched(page, batch);
        if (next !== page) queryClient.setQueryData(query.queryKey, next);
      }
      if ([...batch.keys()].some((runId) => !onScreen.has(runId))) rereader.ask();
    };

    // A page read before an event arrived must not take its row back to the older state. (`manual` is a
    // write into the cache, such as the patches above, not a page read from the server.)
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
      if (event.query.queryKey[0] !== runKeys.all[0] || event.query.queryKey[1] !== 'list') return;
      const page = event.query.state.data as RunsPage | undefined;
      if (!page) return;
      for (const run of page.runs) {
        const known = latest.get(run.run_id);
        if (known && !changes(known, run)) latest.delete(run.run_id);
      }
      const next = patched(page, latest);
      if (next !== page) queryClient.setQueryData(event.query.queryKey, next);
    });

    live.current = {
      onEvent: (event) => {
        pending.set(event.run_id, event);
        patchTimer ??= setTimeout(flush, PATCH_INTERVAL_MS);
      },
      onOpen: rereader.ask,
    };
    return () => {
      live.current = undefined;
      unsubscribe();
      rereader.stop();
      clearTimeout(patchTimer);
    };
  }, [queryClient]);

  return useEventStream(client, 'team', true, {
    open: (streamClient) => streamClient.agent.runs.teamEvents(),
    onOpen: () => live.current?.onOpen(),
    onEvent: (event) => {
      if (event.event === 'state') live.current?.onEvent(event.data);
    },
  });
}
