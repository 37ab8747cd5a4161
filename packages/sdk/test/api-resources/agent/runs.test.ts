import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { AgentRuns, APIConnectionError, APIUserAbortError, NotFoundError, runQuestion, type Fetch, type RunEvent } from '../../../src/index';
import { json, mockFetch, problem, sequence, settle, sse } from '../../utils/mock-fetch';

const baseURL = 'http://api.test/api/v1';
const client = (fetch: unknown) => new AgentRuns({ apiKey: 'k', baseURL, fetch: fetch as Fetch, logLevel: 'off' });

const run = (state: string) => ({
  run_id: 'r1',
  task_id: 'r1',
  title: 't',
  state,
  prompt: 'p',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:01Z',
});
const stateEvent = (id: number, state: string) =>
  `event: state\nid: ${id}\ndata: ${JSON.stringify({ run_id: 'r1', state, updated_at: '2025-01-01T00:00:00Z' })}\n\n`;
const contentEvent = (id: number, text: string) =>
  `event: content\nid: ${id}\ndata: ${JSON.stringify({
    run_id: 'r1',
    step_id: 's1',
    message_id: 'm1',
    role: 'assistant',
    timestamp: '2025-01-01T00:00:00Z',
    block: { type: 'text', text },
  })}\n\n`;

describe('runs', () => {
  it('sends each operation to its path', async () => {
    const { fetch, calls } = mockFetch((request) => (request.url.endsWith('/cancel') ? json('r1') : json({ run_id: 'r1', task_id: 'r1', state: 'QUEUED' })));
    const runs = client(fetch).agent.runs;
    await runs.create({ prompt: 'hello', title: 'T', attachments: [{ file_name: 'a.txt', mime_type: 'text/plain', data: 'aGk=' }] });
    await runs.createLegacy({ prompt: 'hello' });
    await runs.retrieve('r/1');
    expect(await runs.cancel('r1')).toBe('r1');
    await runs.followup('r1', { message: 'more' });
    await runs.conversation('r1');
    await runs.setupLog('r1');
    expect(calls.map((c) => `${c.request.method} ${new URL(c.request.url).pathname}`)).toEqual([
      'POST /api/v1/agent/runs',
      'POST /api/v1/agent/run',
      'GET /api/v1/agent/runs/r%2F1',
      'POST /api/v1/agent/runs/r1/cancel',
      'POST /api/v1/agent/runs/r1/followups',
      'GET /api/v1/agent/runs/r1/conversation',
      'GET /api/v1/agent/runs/r1/setup-log',
    ]);
    expect(JSON.parse(calls[0]!.body)).toEqual({ prompt: 'hello', title: 'T', attachments: [{ file_name: 'a.txt', mime_type: 'text/plain', data: 'aGk=' }] });
    expect(JSON.parse(calls[4]!.body)).toEqual({ message: 'more' });
    expect(calls[3]!.body).toBe('');
  });

  it('attachment() answers the unread Response', async () => {
    const { fetch, calls } = mockFetch(() => json({ hello: 'world' }));
    const response = await client(fetch).agent.runs.attachment('r1', 'event-payload.json');
    expect(new URL(calls[0]!.request.url).pathname).toBe('/api/v1/agent/runs/r1/attachments/event-payload.json');
    expect(await response.json()).toEqual({ hello: 'world' });
  });
});

describe('agent.downloadArtifact', () => {
  it('follows the redirect to the signed URL and answers the unread Response', async () => {
    const signed = 'http://api.test/api/v1/agent/artifacts/a1/content?token=team_x.1.sig';
    const server = http.createServer((req, res) => {
      if (req.url === '/api/v1/agent/artifacts/a1/download')
        res.writeHead(302, { location: signed.replace('http://api.test', `http://127.0.0.1:${port}`) }).end();
      else res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="r.txt"' }).end(`served ${req.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const response = await new AgentRuns({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}/api/v1` }).agent.downloadArtifact('a1');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="r.txt"');
      expect(await response.text()).toBe('served /api/v1/agent/artifacts/a1/content?token=team_x.1.sig');
    } finally {
      server.close();
    }
  });
});

describe('runs.events', () => {
  it('yields typed events and ends after the terminal state', async () => {
    const { fetch, calls } = mockFetch(() => sse([stateEvent(1, 'QUEUED'), ': keepalive\n\n', contentEvent(2, 'hi'), stateEvent(3, 'SUCCEEDED')]));
    const events: RunEvent[] = [];
    for await (const event of client(fetch).agent.runs.events('r1')) events.push(event);
    expect(events.map((e) => [e.event, e.id])).toEqual([
      ['state', '1'],
      ['content', '2'],
      ['state', '3'],
    ]);
    const content = events[1]!;
    expect(content.event === 'content' && content.data.block).toEqual({ type: 'text', text: 'hi' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.request.headers.get('accept')).toBe('text/event-stream');
    expect(calls[0]!.request.headers.has('last-event-id')).toBe(false);
  });

  it('reconnects with Last-Event-ID when the stream ends or drops before a terminal state', async () => {
    const { fetch, calls } = mockFetch(
      sequence(
        () => sse([stateEvent(1, 'QUEUED'), stateEvent(2, 'INPROGRESS')]),
        () => sse(['retry: 10\n\n', contentEvent(3, 'partial')], { fail: true }),
        () => sse([stateEvent(4, 'SUCCEEDED')]),
      ),
    );
    const stream = client(fetch).agent.runs.events('r1', {}, { reconnectDelayMs: 5 });
    const ids: Array<string | undefined> = [];
    for await (const event of stream) ids.push(event.id);
    expect(ids).toEqual(['1', '2', '3', '4']);
    expect(calls.map((c) => c.request.headers.get('last-event-id'))).toEqual([null, '2', '3']);
    expect(stream.lastEventId).toBe('4');
  });

  it('reads past a replayed terminal state of a resumed run and ends where the server closes', async () => {
    const { fetch, calls } = mockFetch(() => sse([stateEvent(1, 'SUCCEEDED'), stateEvent(2, 'QUEUED'), stateEvent(3, 'SUCCEEDED')]));
    const ids: Array<string | undefined> = [];
    for await (const event of client(fetch).agent.runs.events('r1')) ids.push(event.id);
    expect(ids).toEqual(['1', '2', '3']);
    expect(calls).toHaveLength(1);
  });

  it('resumes from a given lastEventId', async () => {
    const { fetch, calls } = mockFetch(() => sse([stateEvent(8, 'CANCELLED')]));
    for await (const _ of client(fetch).agent.runs.events('r1', { lastEventId: '7' })) void _;
    expect(calls[0]!.request.headers.get('last-event-id')).toBe('7');
  });

  it('gives up after maxReconnects connections without events', async () => {
    const { fetch, calls } = mockFetch(() => sse([': keepalive\n\n']));
    const stream = client(fetch).agent.runs.events('r1', {}, { reconnectDelayMs: 1, maxReconnects: 2 });
    await expect(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    ).rejects.toBeInstanceOf(APIConnectionError);
    expect(calls).toHaveLength(3);
  });

  it('does not reconnect on a status error', async () => {
    const { fetch, calls } = mockFetch(() => problem(404, 'resource_not_found'));
    await expect(
      (async () => {
        for await (const _ of client(fetch).agent.runs.events('nope')) void _;
      })(),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(calls).toHaveLength(1);
  });

  it('rejects a response that is not an event stream without reconnecting', async () => {
    const { fetch, calls } = mockFetch(() => json({ not: 'sse' }));
    await expect(
      (async () => {
        for await (const _ of client(fetch).agent.runs.events('r1')) void _;
      })(),
    ).rejects.toThrow(/Expected a text\/event-stream response, got application\/json/);
    expect(calls).toHaveLength(1);
  });

  it('stops with APIUserAbortError when the caller aborts', async () => {
    const controller = new AbortController();
    const { fetch } = mockFetch(() => sse([stateEvent(1, 'QUEUED')]));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of client(fetch).agent.runs.events('r1', {}, { signal: controller.signal })) {
          seen.push(event.event);
          controller.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(seen).toEqual(['state']);
  });
});

describe('runs.events on an open connection', () => {
  it('an abort while waiting for the next event rejects at once', async () => {
    const controller = new AbortController();
    const { fetch } = mockFetch((request) => {
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          stream.enqueue(new TextEncoder().encode(stateEvent(1, 'QUEUED')));
          // The server keeps the connection open; only the abort ends it.
          request.signal.addEventListener('abort', () => stream.error(new DOMException('aborted', 'AbortError')));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const seen: Array<string | undefined> = [];
    const iterate = (async () => {
      for await (const event of client(fetch).agent.runs.events('r1', {}, { signal: controller.signal })) {
        seen.push(event.id);
        setTimeout(() => controller.abort(), 5);
      }
    })();
    await expect(iterate).rejects.toBeInstanceOf(APIUserAbortError);
    expect(seen).toEqual(['1']);
  });
});

describe('runs.createAndWait', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('creates, follows the events to the terminal state, and answers the run', async () => {
    const { fetch, calls } = mockFetch((request) => {
      const path = new URL(request.url).pathname;
      if (request.method === 'POST') return json({ run_id: 'r1', task_id: 'r1', state: 'QUEUED' });
      if (path.endsWith('/events')) return sse([stateEvent(1, 'INPROGRESS'), stateEvent(2, 'SUCCEEDED')]);
      return json(run('SUCCEEDED'));
    });
    const { value } = await settle(client(fetch).agent.runs.createAndWait({ prompt: 'p' }));
    expect(value).toMatchObject({ run_id: 'r1', state: 'SUCCEEDED' });
    expect(calls.map((c) => `${c.request.method} ${new URL(c.request.url).pathname}`)).toEqual([
      'POST /api/v1/agent/runs',
      'GET /api/v1/agent/runs/r1/events',
      'GET /api/v1/agent/runs/r1',
    ]);
  });

  it('falls back to polling when the event stream is unavailable', async () => {
    let polls = 0;
    const { fetch, calls } = mockFetch((request) => {
      const path = new URL(request.url).pathname;
      if (request.method === 'POST') return json({ run_id: 'r1', task_id: 'r1', state: 'QUEUED' });
      if (path.endsWith('/events')) throw new TypeError('fetch failed');
      return json(run(++polls < 3 ? 'INPROGRESS' : 'FAILED'));
    });
    const runs = client(fetch).withOptions({ maxRetries: 0 }).agent.runs;
    const { value } = await settle(runs.createAndWait({ prompt: 'p' }, { pollIntervalMs: 200 }));
    expect(value).toMatchObject({ state: 'FAILED' });
    expect(polls).toBe(3);
    const gets = calls.filter((c) => new URL(c.request.url).pathname === '/api/v1/agent/runs/r1');
    expect(gets[2]!.at - gets[1]!.at).toBe(200);
  });

  it('stops at BLOCKED: the run asks a question, answer() sends the follow-up', async () => {
    const blocked = { ...run('BLOCKED'), status_message: { message: 'Which branch?' } };
    const { fetch, calls } = mockFetch((request) => {
      const path = new URL(request.url).pathname;
      if (request.method === 'POST') return json({ run_id: 'r1', task_id: 'r1', state: 'QUEUED' });
      // A BLOCKED run's stream stays open for the answer: the wait must not need its end.
      if (path.endsWith('/events')) return sse([stateEvent(1, 'INPROGRESS'), stateEvent(2, 'BLOCKED'), stateEvent(3, 'QUEUED')]);
      return json(blocked);
    });
    const runs = client(fetch).agent.runs;
    const { value } = await settle(runs.createAndWait({ prompt: 'p' }));
    expect(value).toMatchObject({ state: 'BLOCKED' });
    expect(runQuestion(value!)).toBe('Which branch?');
    expect(runQuestion({ state: 'SUCCEEDED' })).toBeUndefined();
    expect(runQuestion({ state: 'FAILED', status_message: { message: 'broke' } })).toBeUndefined();

    await runs.answer('r1', 'main');
    expect(calls.map((c) => `${c.request.method} ${new URL(c.request.url).pathname}`)).toEqual([
      'POST /api/v1/agent/runs',
      'GET /api/v1/agent/runs/r1/events',
      'GET /api/v1/agent/runs/r1',
      'POST /api/v1/agent/runs/r1/followups',
    ]);
    expect(JSON.parse(calls.at(-1)!.body)).toEqual({ message: 'main' });
  });

  it('gives up after maxWaitMs', async () => {
    const { fetch } = mockFetch((request) => {
      if (request.method === 'POST') return json({ run_id: 'r1', task_id: 'r1', state: 'QUEUED' });
      if (new URL(request.url).pathname.endsWith('/events')) return problem(404, 'resource_not_found');
      return json(run('INPROGRESS'));
    });
    const { error } = await settle(client(fetch).agent.runs.createAndWait({ prompt: 'p' }, { pollIntervalMs: 1000, maxWaitMs: 5000 }));
    expect(String(error)).toMatch(/did not reach a terminal state \(or BLOCKED\) within 5000 ms/);
  });
});
