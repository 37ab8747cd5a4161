// The team stream written into the query cache, fed events through a request mock; the patch batching and
// the once-a-second re-read are checked on vitest's clock.
import type { AgentRuns, RunListParams, RunStateEvent } from '@agent-runs/sdk';
import { notifyManager, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../testing/fixtures';
import { eventStream, installMockApi, json, page, type MockApi } from '../testing/mock-api';
import { waitFor } from '../testing/render';
import { createClient } from './client';
import { PATCH_INTERVAL_MS, REREAD_INTERVAL_MS, useRunEventsIntoCache } from './run-events';
import { runsQuery } from './runs';

const LATER = '2026-11-01T10:00:05.000Z';
const state = (runId: string, next: RunStateEvent['state'], updatedAt = LATER): RunStateEvent => ({ run_id: runId, state: next, updated_at: updatedAt });

function RunsList({ client, params }: { client: AgentRuns; params: RunListParams }) {
  const runs = useQuery(runsQuery(client, params));
  const live = useRunEventsIntoCache(client);
  return (
    <>
      <p id="live">{live.status}</p>
      <ul>
        {runs.data?.runs.map((r) => (
          <li key={r.run_id}>{`${r.title}: ${r.state}`}</li>
        ))}
      </ul>
    </>
  );
}

describe('useRunEventsIntoCache', () => {
  let api: MockApi;
  let stream: ReturnType<typeof eventStream>;
  let serverRuns: Array<ReturnType<typeof run>>;
  let queryClient: QueryClient;
  let root: Root;
  const rows = () => [...document.querySelectorAll('li')].map((li) => li.textContent);
  const listReads = () => api.count('GET /agent/runs');

  beforeEach(() => {
    // Only the hook's timers and clock are faked: React and React Query keep running on setImmediate.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    notifyManager.setScheduler((callback) => void setImmediate(callback));
    api = installMockApi();
    stream = eventStream();
    serverRuns = [run('a', 'Alpha', 'QUEUED'), run('b', 'Bravo', 'QUEUED')];
    api.on('GET /agent/run-events', () => stream.response());
    api.on('GET /agent/runs', (request) => {
      const wanted = new URL(request.url).searchParams.getAll('state');
      return page(
        'runs',
        serverRuns.filter((r) => wanted.length === 0 || wanted.includes(r.state)),
      );
    });
  });
  afterEach(async () => {
    act(() => root.unmount());
    vi.useRealTimers();
  });

  async function show(params: RunListParams = {}) {
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const client = createClient('ar_test_key');
    const container = document.createElement('div');
    document.body.replaceChildren(container);
    root = createRoot(container);
    await act(async () =>
      root.render(
        <QueryClientProvider client={queryClient}>
          <RunsList client={client} params={params} />
        </QueryClientProvider>,
      ),
    );
    // Live, the list shown, and the re-read that every (re)connection asks for done.
    await waitFor(() => {
      expect(document.querySelector('#live')?.textContent).toBe('live');
      expect(queryClient.isFetching()).toBe(0);
      expect(rows().length).toBeGreaterThan(0);
    });
  }

  it('writes a state change of a row it holds into the cached list, batched, without re-reading the list', async () => {
    await show();
    const reads = listReads();
    stream.send('state', state('a', 'CLAIMED', '2026-11-01T10:00:01.000Z'));
    stream.send('state', state('a', 'INPROGRESS', '2026-11-01T10:00:02.000Z'));
    stream.send('state', state('b', 'CANCELLED'));
    await waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0));
    expect(rows()).toEqual(['Alpha: QUEUED', 'Bravo: QUEUED']);

    await act(() => vi.advanceTimersByTimeAsync(PATCH_INTERVAL_MS));
    await waitFor(() => expect(rows()).toEqual(['Alpha: INPROGRESS', 'Bravo: CANCELLED']));
    expect(listReads()).toBe(reads);
  });

  it('re-reads the list for a run it does not hold, at most once a second however many arrive', async () => {
    await show();
    const reads = listReads();
    serverRuns = [run('c', 'Charlie', 'QUEUED'), ...serverRuns];
    stream.send('state', state('c', 'QUEUED'));
    await act(() => vi.advanceTimersByTimeAsync(PATCH_INTERVAL_MS));
    // The connection's re-read was just now: this one waits for the rest of the second.
    await act(() => vi.advanceTimersByTimeAsync(REREAD_INTERVAL_MS - PATCH_INTERVAL_MS - 1));
    expect(listReads()).toBe(reads);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await waitFor(() => expect(rows()).toEqual(['Charlie: QUEUED', 'Alpha: QUEUED', 'Bravo: QUEUED']));
    expect(listReads()).toBe(reads + 1);

    for (const id of ['d', 'e', 'f']) {
      serverRuns = [run(id, id.toUpperCase(), 'QUEUED'), ...serverRuns];
      stream.send('state', state(id, 'QUEUED'));
      await act(() => vi.advanceTimersByTimeAsync(PATCH_INTERVAL_MS));
    }
    expect(listReads()).toBe(reads + 1);
    await act(() => vi.advanceTimersByTimeAsync(REREAD_INTERVAL_MS));
    await waitFor(() => expect(rows()).toEqual(['F: QUEUED', 'E: QUEUED', 'D: QUEUED', 'Charlie: QUEUED', 'Alpha: QUEUED', 'Bravo: QUEUED']));
    expect(listReads()).toBe(reads + 2);
  });

  it('re-reads a list filtered by state when a row leaves the filter', async () => {
    await show({ state: ['QUEUED'] });
    expect(rows()).toEqual(['Alpha: QUEUED', 'Bravo: QUEUED']);
    serverRuns = [run('a', 'Alpha', 'SUCCEEDED', LATER), serverRuns[1]!];
    stream.send('state', state('a', 'SUCCEEDED'));
    await act(() => vi.advanceTimersByTimeAsync(REREAD_INTERVAL_MS));
    await waitFor(() => expect(rows()).toEqual(['Bravo: QUEUED']));
  });

  it('keeps a newer state over a page that was read before the event arrived', async () => {
    await show();
    // The next read answers only when told, with what the database held before the event.
    let answer: (response: Response) => void = () => {};
    api.on('GET /agent/runs', () => new Promise<Response>((resolve) => (answer = resolve)));
    const before = [run('x', 'X-ray', 'QUEUED'), ...serverRuns];
    stream.send('state', state('x', 'QUEUED'));
    await act(() => vi.advanceTimersByTimeAsync(REREAD_INTERVAL_MS));
    await waitFor(() => expect(queryClient.isFetching()).toBe(1));

    stream.send('state', state('a', 'INPROGRESS'));
    await act(() => vi.advanceTimersByTimeAsync(PATCH_INTERVAL_MS));
    await waitFor(() => expect(rows()).toEqual(['Alpha: INPROGRESS', 'Bravo: QUEUED']));

    answer(json({ runs: before, page_info: { has_next_page: false, next_cursor: null } }));
    await waitFor(() => expect(rows()).toEqual(['X-ray: QUEUED', 'Alpha: INPROGRESS', 'Bravo: QUEUED']));
  });
});
