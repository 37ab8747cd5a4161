/**
 * Component tests render the whole app (session check, routes, the real query client) at a path, signed in
 * with a mocked `GET /api-keys/current`, the way a person's browser would.
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '../app';
import { json, type MockApi } from './mock-api';

export const ADMIN = {
  key: { key_id: 'key_admin', name: 'admin', role: 'admin', created_at: '2026-01-01T00:00:00Z' },
  team: { team_id: 'team_1', name: 'Team one' },
};

export async function renderApp(api: MockApi, path: string, current: unknown = ADMIN) {
  api.on('GET /api-keys/current', () => json(current));
  window.sessionStorage.setItem('agent-runs.api-key', 'ar_test_key');
  window.history.replaceState(null, '', path);
  const container = document.createElement('div');
  document.body.replaceChildren(container);
  const root = createRoot(container);
  await act(async () => root.render(<App />));
  return { container, unmount: () => act(() => root.unmount()) };
}

/**
 * Waits until `check` passes, letting requests and renders run in between. The deadline only bounds a
 * failure; it is read from `performance.now()`, which fake timers leave alone.
 */
export async function waitFor<T>(check: () => T, deadlineMs = 5_000): Promise<T> {
  const start = performance.now();
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (performance.now() - start > deadlineMs) throw error;
      await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
    }
  }
}

/** Types into an input or textarea the way React listens for it. */
export function typeInto(element: Element, value: string) {
  const prototype = element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(prototype, 'value')!.set!.call(element, value);
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export const click = (element: Element | null) =>
  act(async () => {
    (element as HTMLElement).click();
  });
