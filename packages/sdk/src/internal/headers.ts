import type { HeadersInput } from './request-options';

/** Headers as a record openapi-fetch merges (`null` removes a header). */
export function headersRecord(headers: HeadersInput | undefined): Record<string, string | null | undefined> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  return headers;
}
