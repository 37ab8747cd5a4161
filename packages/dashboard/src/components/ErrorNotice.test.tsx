// A failed call is shown in the server's words: the problem's detail and each validation message at its path.
import { APIError } from '@agent-runs/sdk';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, it } from 'vitest';
import { createClient } from '../api/client';
import { installMockApi, problem } from '../testing/mock-api';
import { ErrorNotice } from './ErrorNotice';

it("shows a 422's detail and its messages at their paths", async () => {
  const api = installMockApi();
  api.on('POST /factories', () =>
    problem(422, 'validation_failed', 'The factory is not valid.', {
      errors: [
        { path: '$.name', message: 'must not be empty' },
        { path: '', message: 'has an unknown property' },
      ],
    }),
  );
  const error = await createClient('ar_test_key')
    .factories.create({ name: '' })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(APIError);

  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () => root.render(<ErrorNotice error={error} title="Not created" />));
  expect(container.querySelector('[role="alert"] strong')!.textContent).toBe('Not created: ');
  expect(container.querySelector('[role="alert"]')!.textContent).toContain('The factory is not valid.');
  expect([...container.querySelectorAll('.field-errors li')].map((li) => li.textContent)).toEqual([
    '$.name must not be empty',
    '(body) has an unknown property',
  ]);
  act(() => root.unmount());
});

it('shows nothing without an error', async () => {
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () => root.render(<ErrorNotice error={null} />));
  expect(container.innerHTML).toBe('');
  act(() => root.unmount());
});
