// The runs page through the whole app against a request mock: the table follows the team stream (a row's
// new state, a new run's row) without a reload, and the filters go to the API as the URL has them.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { run } from '../../testing/fixtures';
import { eventStream, installMockApi, page, type MockApi } from '../../testing/mock-api';
import { renderApp, waitFor } from '../../testing/render';

let api: MockApi;
let stream: ReturnType<typeof eventStream>;
let serverRuns: Array<ReturnType<typeof run>>;
let unmount: () => void;
const rows = () =>
  [...document.querySelectorAll('main tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')]
      .slice(0, 2)
      .map((td) => td.textContent)
      .join(' '),
  );

beforeEach(() => {
  api = installMockApi();
  stream = eventStream();
  serverRuns = [run('a', 'Alpha', 'INPROGRESS')];
  api.on('GET /agent/run-events', () => stream.response());
  api.on('GET /agent/runs', () => page('runs', serverRuns));
});
afterEach(() => unmount());

it('follows the team stream: a row gets its new state, a new run gets its row', async () => {
  ({ unmount } = await renderApp(api, '/runs'));
  await waitFor(() => {
    expect(rows()).toEqual(['Alpha INPROGRESS']);
    expect(document.querySelector('.runs-toolbar')!.textContent).toContain('Live');
  });

  stream.send('state', { run_id: 'a', state: 'SUCCEEDED', updated_at: '2026-11-01T10:00:09.000Z' });
  await waitFor(() => expect(rows()).toEqual(['Alpha SUCCEEDED']));

  serverRuns = [run('b', 'Bravo', 'QUEUED'), run('a', 'Alpha', 'SUCCEEDED', '2026-11-01T10:00:09.000Z')];
  stream.send('state', { run_id: 'b', state: 'QUEUED', updated_at: '2026-11-01T10:00:10.000Z' });
  await waitFor(() => expect(rows()).toEqual(['Bravo QUEUED', 'Alpha SUCCEEDED']));
});

it("asks the API for the URL's filters", async () => {
  ({ unmount } = await renderApp(api, '/runs?state=FAILED&state=ERROR&name=nightly'));
  await waitFor(() => expect(rows()).toEqual(['Alpha INPROGRESS']));
  expect(api.requests).toContain('GET /agent/runs?sort_by=created_at&sort_order=desc&state=FAILED&state=ERROR&name=nightly');
});
