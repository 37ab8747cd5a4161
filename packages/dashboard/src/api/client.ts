/**
 * The dashboard's only way to the server: the public REST API through the TypeScript SDK, on the origin
 * that served the page (docs/decisions.md, "Dashboard").
 */
import { AgentRuns, APIError } from '@agent-runs/sdk';

export const API_BASE_PATH = '/api/v1';

export function createClient(apiKey: string): AgentRuns {
  return new AgentRuns({
    apiKey,
    baseURL: `${window.location.origin}${API_BASE_PATH}`,
    // A person is waiting: one quick retry, then show the problem.
    maxRetries: 1,
    timeout: 30_000,
    logLevel: 'off',
  });
}

/** What went wrong, in the server's words: a problem's `detail` (or title), else the error's message. */
export function problemText(error: unknown): string {
  if (error instanceof APIError) return error.detail ?? error.title ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The per-field messages of a 422 `validation_failed` (path → message), if the error carries any. */
export function validationErrors(error: unknown): Array<{ path: string; message: string }> {
  return error instanceof APIError && error.errors ? error.errors : [];
}

export const isStatus = (error: unknown, status: number): boolean => error instanceof APIError && error.status === status;
