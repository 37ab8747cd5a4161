export type HTTPMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A header value of `null` removes a header the client would otherwise send. */
export type HeadersInput = Record<string, string | null | undefined> | Headers;

/** Options every method accepts as its last argument. */
export interface RequestOptions {
  /** Per-attempt timeout in milliseconds (until response headers arrive). Default: the client's (60 000). */
  timeout?: number;
  /** Retries after the first attempt. Default: the client's (2). */
  maxRetries?: number;
  /** Aborts the request (and any retry wait); the call rejects with APIUserAbortError. */
  signal?: AbortSignal | null;
  /** Extra headers; `null` removes a default header. */
  headers?: HeadersInput;
  /** `Idempotency-Key` for a POST. Default: a fresh UUID per call, reused on every retry. */
  idempotencyKey?: string;
  /** Extra query parameters, merged over the method's own. */
  query?: Record<string, unknown>;
}

/** Options of the generic `client.get/post/put/patch/delete` methods. */
export interface GenericRequestOptions extends RequestOptions {
  /** JSON body (any value `JSON.stringify` accepts). */
  body?: unknown;
}

/** Everything the request loop needs to send (and resend, for the next page) one logical request. */
export interface FinalRequestOptions extends GenericRequestOptions {
  method: HTTPMethod;
  /** Path under the base URL; `{name}` segments are filled from `pathParams`. */
  path: string;
  pathParams?: Record<string, string | number>;
  /** Hand back the unread Response (Server-Sent Events) instead of parsing the body. */
  stream?: boolean;
}
