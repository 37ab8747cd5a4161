import type { AgentRuns } from '../client';
import { APIPromise } from './api-promise';
import { AgentRunsError } from './error';
import { type APIResponseProps, defaultParseResponse } from '../internal/parse';
import type { FinalRequestOptions } from '../internal/request-options';

export interface PageInfo {
  has_next_page: boolean;
  next_cursor?: string | null;
}

/** Query parameters every list method takes. */
export interface CursorPageParams {
  /** Page size (1–500; default 20 for runs, 50 elsewhere). */
  limit?: number;
  /** `page_info.next_cursor` of the previous page. */
  cursor?: string;
}

/**
 * One page of a list answer `{<plural>: Item[], page_info: {has_next_page, next_cursor}}`.
 * `for await (const item of page)` walks this page and every following one.
 */
export class CursorPage<Item> implements AsyncIterable<Item> {
  /** The items of this page (the answer's `<plural>` array). */
  readonly data: Item[];
  readonly page_info: PageInfo;
  /** The whole parsed answer. */
  readonly body: Record<string, unknown>;
  readonly response: Response;
  readonly #client: AgentRuns;
  readonly #options: FinalRequestOptions;
  readonly #itemsKey: string;

  constructor(client: AgentRuns, response: Response, body: unknown, options: FinalRequestOptions, itemsKey: string) {
    this.#client = client;
    this.#options = options;
    this.#itemsKey = itemsKey;
    this.response = response;
    this.body = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const items = this.body[itemsKey];
    this.data = Array.isArray(items) ? (items as Item[]) : [];
    const pageInfo = this.body['page_info'] as Partial<PageInfo> | undefined;
    this.page_info = { has_next_page: pageInfo?.has_next_page === true, next_cursor: pageInfo?.next_cursor ?? null };
  }

  /** Alias of `data`. */
  get items(): Item[] {
    return this.data;
  }

  getPaginatedItems(): Item[] {
    return this.data;
  }

  hasNextPage(): boolean {
    return this.page_info.has_next_page && !!this.page_info.next_cursor;
  }

  /** Request options of the next page: the same request with `cursor` set, or null on the last page. */
  nextPageRequestOptions(): FinalRequestOptions | null {
    if (!this.hasNextPage()) return null;
    return { ...this.#options, query: { ...this.#options.query, cursor: this.page_info.next_cursor } };
  }

  async getNextPage(): Promise<CursorPage<Item>> {
    const next = this.nextPageRequestOptions();
    if (!next) {
      throw new AgentRunsError('No next page; check `hasNextPage()` before calling `getNextPage()`.');
    }
    return await this.#client.requestAPIList<Item>(this.#itemsKey, next);
  }

  /** This page and every following page, fetched one at a time. */
  async *iterPages(): AsyncGenerator<CursorPage<Item>> {
    let page: CursorPage<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for await (const page of this.iterPages()) {
      yield* page.data;
    }
  }
}

/**
 * What a list method returns: await it for the first page, or `for await` it for every item of every
 * page.
 */
export class PagePromise<Item> extends APIPromise<CursorPage<Item>> implements AsyncIterable<Item> {
  constructor(client: AgentRuns, request: Promise<APIResponseProps>, itemsKey: string) {
    super(request, async (props) => new CursorPage<Item>(client, props.response, await defaultParseResponse(props), props.options, itemsKey));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    const page = await this;
    yield* page;
  }
}
