// The run form through the whole app (session, routes, query client) against a request mock: the server's
// 422 is shown at the field its path names, and a created run's page follows.
import { act } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { environment } from '../../testing/fixtures';
import { installMockApi, json, page, problem, type MockApi } from '../../testing/mock-api';
import { renderApp, typeInto, waitFor } from '../../testing/render';

let api: MockApi;
let unmount: () => void;

beforeEach(async () => {
  api = installMockApi();
  api.on('GET /agent/environments', () => page('environments', [environment('env_1', 'node')]));
  api.on('GET /agent/models', () => json({ default_model_id: 'echo', models: [{ id: 'echo' }] }));
  ({ unmount } = await renderApp(api, '/runs/new'));
  await waitFor(() => expect(document.querySelector('#run-environment option[value="env_1"]')).not.toBeNull());
});
afterEach(() => unmount());

const submit = () =>
  act(async () => {
    document.querySelector('form')!.requestSubmit();
  });

it("shows a 422's messages at the fields their paths name, and the problem's detail", async () => {
  api.on('POST /agent/runs', () =>
    problem(422, 'validation_failed', 'The request is not valid.', {
      errors: [
        { path: '$.config.model_id', message: 'is not a model this server runs' },
        { path: '$.config.model_id', message: 'is too long' },
      ],
    }),
  );
  typeInto(document.querySelector('#run-prompt')!, 'Say hello.');
  typeInto(document.querySelector('#run-model')!, 'no-such-model');
  await submit();

  await waitFor(() => expect(document.querySelector('#run-model-error')?.textContent).toBe('is not a model this server runs; is too long'));
  expect(document.querySelector('#run-model')!.getAttribute('aria-invalid')).toBe('true');
  expect(document.querySelector('#run-prompt')!.getAttribute('aria-invalid')).toBeNull();
  expect(document.querySelector('[role="alert"]')!.textContent).toContain('Could not start the run: The request is not valid.');
  expect(api.count('POST /agent/runs')).toBe(1);
});

it('checks the MCP servers JSON before asking the server', async () => {
  typeInto(document.querySelector('#run-prompt')!, 'Say hello.');
  typeInto(document.querySelector('#run-mcp-servers')!, '["not", "an object"]');
  await submit();
  await waitFor(() => expect(document.querySelector('#run-mcp-servers-error')?.textContent).toContain('must be a JSON object'));
  expect(api.count('POST /agent/runs')).toBe(0);
});

it("goes to the new run's page once it is created", async () => {
  api.on('POST /agent/runs', () => json({ run_id: '6f1c2c1e-7d3b-4c55-9a53-0d7b3b1f2a10', state: 'QUEUED' }, 201));
  typeInto(document.querySelector('#run-prompt')!, 'Say hello.');
  await submit();
  await waitFor(() => expect(window.location.pathname).toBe('/runs/6f1c2c1e-7d3b-4c55-9a53-0d7b3b1f2a10'));
});
