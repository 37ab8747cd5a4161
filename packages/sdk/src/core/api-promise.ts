import { type APIResponseProps, defaultParseResponse } from '../internal/parse';

/** The executor of every APIPromise, hoisted so that constructing one allocates no closure. */
function resolveNull(resolve: (value: never) => void): void {
  resolve(null as never);
}

/**
 * The promise every API method returns. Awaiting it gives the parsed body; `.withResponse()` gives the
 * body and the `Response`; `.asResponse()` gives the `Response` without reading its body. The request
 * starts at once; the body is read only when the data is asked for.
 */
export class APIPromise<T> extends Promise<T> {
  private parsedPromise: Promise<T> | undefined;

  constructor(
    private readonly responsePromise: Promise<APIResponseProps>,
    private readonly parseResponse: (props: APIResponseProps) => T | Promise<T> = defaultParseResponse,
  ) {
    // The executor must not touch the response: then/catch/finally below do, so that asResponse()
    // can hand back an unread body.
    super(resolveNull);
  }

  /** A promise of the same response, parsed and then transformed. */
  _thenUnwrap<U>(transform: (data: T, props: APIResponseProps) => U | Promise<U>): APIPromise<U> {
    return new APIPromise(this.responsePromise, async (props) => transform(await this.parseResponse(props), props));
  }

  /** The raw `Response`, body unread: status and headers are readable without parsing. */
  asResponse(): Promise<Response> {
    return this.responsePromise.then((props) => props.response);
  }

  /** The parsed data together with the raw `Response` (its body already consumed) and its request id. */
  async withResponse(): Promise<{ data: T; response: Response; requestId: string | undefined }> {
    const [data, response] = await Promise.all([this.parse(), this.asResponse()]);
    return { data, response, requestId: response.headers.get('x-request-id') ?? undefined };
  }

  private parse(): Promise<T> {
    this.parsedPromise ??= this.responsePromise.then((props) => this.parseResponse(props));
    return this.parsedPromise;
  }

  // oxlint-disable-next-line unicorn/no-thenable -- an APIPromise is a Promise: awaiting it parses the response
  override then<TResult1 = T, TResult2 = never>(
    onfulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | null,
    onrejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    return this.parse().then(onfulfilled, onrejected);
  }

  override catch<TResult = never>(onrejected?: ((reason: unknown) => TResult | PromiseLike<TResult>) | null): Promise<T | TResult> {
    return this.parse().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.parse().finally(onfinally);
  }
}
