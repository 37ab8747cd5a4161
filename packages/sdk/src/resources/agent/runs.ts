import { runStateValues, type components, type operations } from '@agent-runs/contract';
import { APIPromise } from '../../core/api-promise';
import { AgentRunsError, APIUserAbortError } from '../../core/error';
import type { PagePromise } from '../../core/pagination';
import { APIResource } from '../../core/resource';
import { EventStream, type ServerSentEvent } from '../../core/sse';
import { headersRecord } from '../../internal/headers';
import type { RequestOptions } from '../../internal/request-options';
import { anySignal, sleep } from '../../internal/signals';
import type { RunByExternalReferenceResponse } from './artifacts';

type Schemas = components['schemas'];

export type RunItem = Schemas['RunItem'];
export type RunState = Schemas['RunState'];
export type RunSourceType = Schemas['RunSourceType'];
export type RunCreatorInfo = Schemas['RunCreatorInfo'];
export type RunStatusMessage = Schemas['RunStatusMessage'];
export type AmbientAgentConfig = Schemas['AmbientAgentConfig'];
export type MCPServerConfig = Schemas['MCPServerConfig'];
export type MCPStdioServerConfig = Schemas['MCPStdioServerConfig'];
export type MCPHttpServerConfig = Schemas['MCPHttpServerConfig'];
export type MCPWarpServerConfig = Schemas['MCPWarpServerConfig'];
export type RunAttachmentInput = Schemas['RunAttachmentInput'];
export type RunAttachment = Schemas['RunAttachment'];
export type RunUsage = Schemas['RunUsage'];
export type RunAgentRequest = Schemas['RunAgentRequest'];
export type RunAgentResponse = Schemas['RunAgentResponse'];
export type RunFollowupRequest = Schemas['RunFollowupRequest'];
export type ListRunsResponse = Schemas['ListRunsResponse'];
export type ConversationResponse = Schemas['ConversationResponse'];
export type RunSetupLog = Schemas['RunSetupLog'];
export type SetupLogEntry = Schemas['SetupLogEntry'];
export type ConversationStep = Schemas['ConversationStep'];
export type ConversationMessage = Schemas['ConversationMessage'];
export type MessageRole = Schemas['MessageRole'];
export type ContentBlock = Schemas['ContentBlock'];
export type TextBlock = Schemas['TextBlock'];
export type ActionBlock = Schemas['ActionBlock'];
export type ActionResultBlock = Schemas['ActionResultBlock'];
export type EventBlock = Schemas['EventBlock'];
export type ActionCategory = Schemas['ActionCategory'];
/** One line of `transcript()`: one message of the run's conversation. */
export type TranscriptLine = Schemas['TranscriptLine'];
/** `data` of an `event: state` SSE event. */
export type RunStateEvent = Schemas['RunStateEvent'];
/** `data` of an `event: content` SSE event. */
export type RunContentEvent = Schemas['RunContentEvent'];
/** Query of `runs.list`: filters, sort and page (`limit`, `cursor`). */
export type RunListParams = NonNullable<operations['listRuns']['parameters']['query']>;

// A Record over RunState: a state added to the contract fails the type check here until it is classified.
const IS_TERMINAL: Record<RunState, boolean> = {
  QUEUED: false,
  PENDING: false,
  CLAIMED: false,
  INPROGRESS: false,
  BLOCKED: false,
  SUCCEEDED: true,
  FAILED: true,
  ERROR: true,
  CANCELLED: true,
};

/** States a run ends in: its events stop there (only a follow-up re-queues a SUCCEEDED, FAILED or ERROR run). */
export const TERMINAL_RUN_STATES: ReadonlySet<RunState> = new Set(runStateValues.filter((state) => IS_TERMINAL[state]));

export function isTerminalRunState(state: string | undefined): boolean {
  return state !== undefined && (TERMINAL_RUN_STATES as ReadonlySet<string>).has(state);
}

/** Where `runs.wait()` stops: a terminal state, or BLOCKED (the run asked a question and waits for `runs.answer()`). */
export function isSettledRunState(state: string | undefined): boolean {
  return state === 'BLOCKED' || isTerminalRunState(state);
}

/** The question a BLOCKED run asks (its `status_message.message`); undefined for a run in any other state. */
export function runQuestion(run: Pick<RunItem, 'state' | 'status_message'>): string | undefined {
  return run.state === 'BLOCKED' ? run.status_message?.message : undefined;
}

/** One event of `runs.events()`: `id` is the SSE id to resume after. Unknown event types are skipped. */
export type RunEvent = { event: 'state'; id: string | undefined; data: RunStateEvent } | { event: 'content'; id: string | undefined; data: RunContentEvent };

export interface RunEventsParams {
  /** Resume after this event id (sent as `Last-Event-ID`). */
  lastEventId?: string;
}

export interface RunEventsOptions extends RequestOptions {
  /** Consecutive reconnections without a new event before giving up. Default 5. */
  maxReconnects?: number;
  /** Wait before reconnecting until the server sends `retry:`. Default 1000 ms. */
  reconnectDelayMs?: number;
}

export interface RunWaitOptions extends RequestOptions {
  /** Interval of the polling fallback. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Give up (AgentRunsError) after this long. Default 1 hour. */
  maxWaitMs?: number;
}

export class Runs extends APIResource {
  /** Starts a run. `POST /agent/runs` (createRun). */
  create(body: RunAgentRequest, options?: RequestOptions): APIPromise<RunAgentResponse> {
    return this._client._operation('post', '/agent/runs', { body }, options);
  }

  /**
   * Starts a run through the deprecated alias `POST /agent/run` (createRunLegacy).
   * @deprecated use {@link create}.
   */
  createLegacy(body: RunAgentRequest, options?: RequestOptions): APIPromise<RunAgentResponse> {
    return this._client._operation('post', '/agent/run', { body }, options);
  }

  /**
   * Lists runs, newest update first by default. `GET /agent/runs` (listRuns).
   * Await for one page, or `for await (const run of client.agent.runs.list(…))` for every run.
   */
  list(query?: RunListParams, options?: RequestOptions): PagePromise<RunItem> {
    return this._client._list('/agent/runs', 'runs', { params: { query } }, options);
  }

  /**
   * The run of the team that published an EXTERNAL_REFERENCE artifact with exactly this URL (the latest
   * one when several did). `GET /agent/run-by-external-reference` (getRunByExternalReferenceURL).
   */
  retrieveByExternalReference(url: string, options?: RequestOptions): APIPromise<RunByExternalReferenceResponse> {
    return this._client._operation('get', '/agent/run-by-external-reference', { params: { query: { url } } }, options);
  }

  /** `GET /agent/runs/{runId}` (getRun). */
  retrieve(runId: string, options?: RequestOptions): APIPromise<RunItem> {
    return this._client._operation('get', '/agent/runs/{runId}', { params: { path: { runId } } }, options);
  }

  /**
   * Cancels a run; answers the run id. A run already terminal (SUCCEEDED, FAILED, ERROR, CANCELLED) →
   * BadRequestError; a PENDING run → ConflictError (retryable), as in the Oz API.
   * `POST /agent/runs/{runId}/cancel` (cancelRun).
   */
  cancel(runId: string, options?: RequestOptions): APIPromise<string> {
    return this._client._operation('post', '/agent/runs/{runId}/cancel', { params: { path: { runId } } }, options);
  }

  /**
   * Answers the question of a BLOCKED run (read it with `runQuestion`): a follow-up with `text` as its message, so
   * the run is re-queued and continues its conversation with the answer. Sent to a run in another state it
   * is an ordinary follow-up.
   */
  answer(runId: string, text: string, options?: RequestOptions): APIPromise<RunAgentResponse> {
    return this.followup(runId, { message: text }, options);
  }

  /** Sends a follow-up message to a run. `POST /agent/runs/{runId}/followups` (createRunFollowup). */
  followup(runId: string, body: RunFollowupRequest, options?: RequestOptions): APIPromise<RunAgentResponse> {
    return this._client._operation('post', '/agent/runs/{runId}/followups', { params: { path: { runId } }, body }, options);
  }

  /** The run's conversation, step by step. `GET /agent/runs/{runId}/conversation` (getRunConversation). */
  conversation(runId: string, options?: RequestOptions): APIPromise<ConversationResponse> {
    return this._client._operation('get', '/agent/runs/{runId}/conversation', { params: { path: { runId } } }, options);
  }

  /**
   * What the run's environment setup commands printed (admin keys only; secrets replaced by `***`).
   * `GET /agent/runs/{runId}/setup-log` (getRunSetupLog).
   */
  setupLog(runId: string, options?: RequestOptions): APIPromise<RunSetupLog> {
    return this._client._operation('get', '/agent/runs/{runId}/setup-log', { params: { path: { runId } } }, options);
  }

  /**
   * A stored attachment (e.g. `event-payload.json`), as the unread `Response`: read it with
   * `.json()`, `.text()`, `.arrayBuffer()` or `.body`. `GET /agent/runs/{runId}/attachments/{name}`
   * (getRunAttachment).
   */
  attachment(runId: string, name: string, options?: RequestOptions): APIPromise<Response> {
    return this._client.request<Response>({
      ...options,
      method: 'get',
      path: '/agent/runs/{runId}/attachments/{name}',
      pathParams: { runId, name },
      headers: { Accept: '*/*', ...headersRecord(options?.headers) },
      stream: true,
    });
  }

  /**
   * The run's transcript: JSON Lines, one message of the conversation per line (`TranscriptLine`), as the
   * unread `Response` (read it with `.text()`). The server answers a 302 to a signed URL that expires
   * (as the Oz API); `fetch` follows it. `GET /agent/runs/{runId}/transcript` (getRunTranscript).
   */
  transcript(runId: string, options?: RequestOptions): APIPromise<Response> {
    return this._client.request<Response>({
      ...options,
      method: 'get',
      path: '/agent/runs/{runId}/transcript',
      pathParams: { runId },
      headers: { Accept: 'application/x-ndjson', ...headersRecord(options?.headers) },
      stream: true,
    });
  }

  /**
   * The transcript behind a download URL `transcript()` was redirected to, by its `token` (no API key is
   * needed for it). `GET /agent/runs/{runId}/transcript/download` (downloadRunTranscript).
   */
  downloadTranscript(runId: string, token: string, options?: RequestOptions): APIPromise<Response> {
    return this._client.request<Response>({
      ...options,
      method: 'get',
      path: '/agent/runs/{runId}/transcript/download',
      pathParams: { runId },
      query: { ...options?.query, token },
      headers: { Accept: 'application/x-ndjson', ...headersRecord(options?.headers) },
      stream: true,
    });
  }

  /**
   * The run's events (`state`, `content`) as they happen, from the start or after `lastEventId`.
   * Reconnects with `Last-Event-ID` when the connection drops, and ends after the terminal `state`
   * event. `GET /agent/runs/{runId}/events` (streamRunEvents).
   *
   *     for await (const event of client.agent.runs.events(runId)) {
   *       if (event.event === 'state') console.log(event.data.state);
   *     }
   */
  events(runId: string, params: RunEventsParams = {}, options: RunEventsOptions = {}): EventStream<RunEvent> {
    const { maxReconnects, reconnectDelayMs, signal, ...requestOptions } = options;
    return new EventStream<RunEvent>({
      lastEventId: params.lastEventId,
      maxReconnects,
      reconnectDelayMs,
      signal,
      connect: (lastEventId, streamSignal) =>
        this._client
          .request<Response>({
            ...requestOptions,
            method: 'get',
            path: '/agent/runs/{runId}/events',
            pathParams: { runId },
            headers: {
              ...headersRecord(requestOptions.headers),
              ...(lastEventId !== undefined ? { 'Last-Event-ID': lastEventId } : {}),
            },
            signal: streamSignal,
            stream: true,
          })
          .asResponse(),
      transform: toRunEvent,
      isTerminal: (event) => event.event === 'state' && isTerminalRunState(event.data.state),
    });
  }

  /**
   * The state changes of every run of the team as they happen (`state` events of all the team's runs,
   * a new run's first `QUEUED` included), for live run lists. No replay and no ids: open the stream, then
   * read the list (`list()`), and re-read the list after a reconnection, since changes made while the
   * connection was down are not sent. Never ends by itself: stop it with `signal` or
   * `stream.controller.abort()`. Counts toward the key's open event streams. Per server process today
   * (see the contract). `GET /agent/run-events` (streamTeamRunEvents).
   *
   *     for await (const event of client.agent.runs.teamEvents()) {
   *       if (event.event === 'state') console.log(event.data.run_id, event.data.state);
   *     }
   */
  teamEvents(options: RunEventsOptions = {}): EventStream<RunEvent> {
    const { maxReconnects, reconnectDelayMs, signal, ...requestOptions } = options;
    return new EventStream<RunEvent>({
      maxReconnects,
      reconnectDelayMs,
      signal,
      connect: (_lastEventId, streamSignal) =>
        this._client
          .request<Response>({
            ...requestOptions,
            method: 'get',
            path: '/agent/run-events',
            headers: headersRecord(requestOptions.headers),
            signal: streamSignal,
            stream: true,
          })
          .asResponse(),
      transform: toRunEvent,
      isTerminal: () => false,
    });
  }

  /**
   * Starts a run and resolves with it once it is terminal (SUCCEEDED, FAILED, ERROR or CANCELLED) or
   * BLOCKED on a question (read it with `runQuestion`, answer with `answer()`, then `wait()` again).
   * Follows the event stream, and polls `retrieve` if the stream is unavailable.
   */
  async createAndWait(body: RunAgentRequest, options: RunWaitOptions = {}): Promise<RunItem> {
    const { pollIntervalMs, maxWaitMs, ...requestOptions } = options;
    const created = await this.create(body, requestOptions);
    const { idempotencyKey: _unused, ...readOptions } = requestOptions;
    return this.wait(created.run_id, { ...readOptions, pollIntervalMs, maxWaitMs });
  }

  /** Resolves with the run once it is terminal or BLOCKED, as `isSettledRunState` says: events first, polling as the fallback. */
  async wait(runId: string, options: RunWaitOptions = {}): Promise<RunItem> {
    const { pollIntervalMs = 1000, maxWaitMs = 3_600_000, signal: userSignal, ...requestOptions } = options;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), maxWaitMs);
    const { signal, dispose } = anySignal([userSignal, deadline.signal]);
    const fail = (err: unknown): never => {
      if (userSignal?.aborted) throw err instanceof APIUserAbortError ? err : new APIUserAbortError({ cause: err });
      if (deadline.signal.aborted) {
        throw new AgentRunsError(`Run ${runId} did not reach a terminal state (or BLOCKED) within ${maxWaitMs} ms.`);
      }
      throw err;
    };
    try {
      try {
        for await (const event of this.events(runId, {}, { ...requestOptions, signal })) {
          if (event.event === 'state' && isSettledRunState(event.data.state)) break;
        }
      } catch (err) {
        if (signal.aborted) fail(err);
        // No usable event stream: poll below.
      }
      while (true) {
        const run = await this.retrieve(runId, { ...requestOptions, signal }).catch(fail);
        if (isSettledRunState(run.state)) return run;
        await sleep(pollIntervalMs, signal).catch(fail);
      }
    } finally {
      clearTimeout(timer);
      dispose();
    }
  }
}

function toRunEvent(event: ServerSentEvent): RunEvent | undefined {
  if (event.event !== 'state' && event.event !== 'content') return undefined;
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return undefined;
  }
  return { event: event.event, id: event.id, data } as RunEvent;
}
