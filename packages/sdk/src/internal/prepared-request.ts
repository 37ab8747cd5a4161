/**
 * What openapi-fetch builds for an SDK method call when no middleware is registered: the final URL,
 * method, merged headers and serialized body, without constructing a `Request`. The retry loop sends
 * these fields with `fetch(url, init)`; skipping the `Request` (and the AbortSignal and body stream
 * it allocates) is most of the SDK's overhead budget over raw fetch. Middleware gets real Requests.
 */
export class PreparedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | null;
  readonly redirect: RequestRedirect | undefined;
  readonly credentials: RequestCredentials | undefined;

  constructor(url: string, init: RequestInit & { headers: Headers }) {
    this.url = url;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = init.headers;
    this.body = init.body ?? null;
    this.redirect = init.redirect;
    this.credentials = init.credentials;
  }
}
