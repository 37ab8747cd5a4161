import { describe, expect, it } from 'vitest';

import { parseSSE, type ServerSentEvent } from '../../src/core/sse';
import { textStream } from '../utils/mock-fetch';

async function collect(chunks: string[], lastEventId?: string): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of parseSSE(textStream(chunks), { lastEventId })) events.push(event);
  return events;
}

/** Every way of cutting `text` into two chunks gives the same events as the whole. */
async function expectSplitInvariant(text: string) {
  const whole = await collect([text]);
  const bytes = new TextEncoder().encode(text);
  for (let cut = 1; cut < bytes.length; cut++) {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const events: ServerSentEvent[] = [];
    for await (const event of parseSSE(stream)) events.push(event);
    expect(events, `cut at byte ${cut}`).toEqual(whole);
  }
  return whole;
}

describe('parseSSE', () => {
  it('parses event, id, data and retry', async () => {
    expect(await collect(['event: state\nid: 7\nretry: 2500\ndata: {"state":"QUEUED"}\n\n'])).toEqual([
      { event: 'state', id: '7', data: '{"state":"QUEUED"}', retry: 2500 },
    ]);
  });

  it('joins multi-line data with newlines and defaults the event type to message', async () => {
    expect(await collect(['data: line one\ndata: line two\ndata\n\n'])).toEqual([
      { event: 'message', id: undefined, data: 'line one\nline two\n', retry: undefined },
    ]);
  });

  it('ignores comments (keepalives) and unknown fields', async () => {
    expect(await collect([': keepalive\n\n', 'foo: bar\n: another\ndata: x\n\n'])).toEqual([{ event: 'message', id: undefined, data: 'x', retry: undefined }]);
  });

  it('strips only one leading space of a value, and accepts no space', async () => {
    const [a, b] = await collect(['data:  two spaces\n\n', 'data:none\n\n']);
    expect(a!.data).toBe(' two spaces');
    expect(b!.data).toBe('none');
  });

  it('accepts CRLF, LF and CR line ends, split anywhere across chunks (also inside UTF-8)', async () => {
    const text = 'event: content\r\nid: 1\r\ndata: héllo 🌍\r\n\r\nevent: state\rid: 2\rdata: b\r\rdata: c\n\n';
    const events = await expectSplitInvariant(text);
    expect(events.map((e) => [e.event, e.id, e.data])).toEqual([
      ['content', '1', 'héllo 🌍'],
      ['state', '2', 'b'],
      ['message', '2', 'c'],
    ]);
  });

  it('keeps the last event id across events and starts from the given one', async () => {
    const events = await collect(['data: a\n\nid: 5\ndata: b\n\ndata: c\n\n'], '3');
    expect(events.map((e) => e.id)).toEqual(['3', '5', '5']);
  });

  it('does not dispatch an event without data, nor an unterminated last event', async () => {
    expect(await collect(['event: state\nid: 9\n\n', 'data: tail'])).toEqual([]);
  });

  it('ignores a non-numeric retry and an id containing NUL', async () => {
    const [event] = await collect(['id: 1\n\nretry: soon\nid: a\u0000b\ndata: x\n\n']);
    expect(event).toEqual({ event: 'message', id: '1', data: 'x', retry: undefined });
  });

  it('strips a leading byte order mark', async () => {
    expect((await collect(['\uFEFFdata: x\n\n']))[0]!.data).toBe('x');
  });

  it('cancels the body when the consumer stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    // oxlint-disable-next-line no-unreachable-loop -- leaving the loop after one event is what must cancel the stream
    for await (const event of parseSSE(stream)) {
      expect(event.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
