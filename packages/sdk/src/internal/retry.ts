/** Server-requested waits are honoured up to this; beyond it (or when negative) the SDK backs off itself. */
export const MAX_RETRY_AFTER_MS = 60_000;
export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;

/**
 * Whether a failed response may be retried (the retry budget aside). `x-should-retry: false` and a
 * problem body with `retryable: false` always win; `x-should-retry: true` makes any status retryable;
 * otherwise 408, 409, 429 and ≥ 500 are.
 */
export async function shouldRetryResponse(response: Response): Promise<boolean> {
  const header = response.headers.get('x-should-retry');
  if (header === 'false') return false;
  const status = response.status;
  if (header !== 'true' && !(status === 408 || status === 409 || status === 429 || status >= 500)) return false;
  return !(await saysNotRetryable(response));
}

/** Reads the problem body of a clone, so the response itself stays unread for the caller. */
async function saysNotRetryable(response: Response): Promise<boolean> {
  if (!/json/i.test(response.headers.get('content-type') ?? '')) return false;
  try {
    const body = JSON.parse(await response.clone().text()) as { retryable?: unknown } | null;
    return body?.retryable === false;
  } catch {
    return false;
  }
}

/**
 * How long to wait before retry number `retryIndex + 1`: `retry-after-ms`, else `Retry-After` (seconds or
 * an HTTP date) when it asks for 0–60 s; otherwise exponential backoff.
 */
export function retryDelayMs(headers: Headers | undefined, retryIndex: number): number {
  const requested = requestedDelayMs(headers);
  if (requested !== undefined && requested >= 0 && requested <= MAX_RETRY_AFTER_MS) return requested;
  return backoffDelayMs(retryIndex);
}

function requestedDelayMs(headers: Headers | undefined): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms) {
    const value = parseFloat(ms);
    if (!Number.isNaN(value)) return value;
  }
  const retryAfter = headers?.get('retry-after');
  if (retryAfter) {
    const seconds = parseFloat(retryAfter);
    if (!Number.isNaN(seconds)) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return date - Date.now();
  }
  return undefined;
}

/** 0.5 s doubling per retry up to 8 s, minus up to 25 % jitter (never more than the nominal delay). */
export function backoffDelayMs(retryIndex: number): number {
  const nominal = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retryIndex, MAX_RETRY_DELAY_MS);
  return nominal * (1 - Math.random() * 0.25);
}
