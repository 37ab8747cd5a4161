/**
 * The gateway's usage meter on answers cut anywhere: every protocol's stream fed one byte at a time (events
 * split across reads, CRLF line ends), JSON bodies, answers cut short, and answers that report nothing.
 */
import { describe, expect, it } from 'vitest';
import { UsageMeter } from '../../src/engine/gateway/metering';
import type { Protocol } from '../../src/engine/gateway/protocols';

function meter(protocol: Protocol, contentType: string, body: string, sliceBytes = 1) {
  const m = new UsageMeter(protocol, contentType);
  const bytes = Buffer.from(body, 'utf8');
  for (let i = 0; i < bytes.length; i += sliceBytes) m.feed(bytes.subarray(i, i + sliceBytes));
  return m.finish();
}
const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\r\n\r\n`).join('');

describe('UsageMeter', () => {
  it('reads the Chat Completions usage chunk of a stream split anywhere, multi-byte text included', () => {
    const body = sse(
      { choices: [{ delta: { content: 'héllo ✓' } }] },
      { choices: [], usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } },
      '[DONE]',
    );
    expect(meter('chat', 'text/event-stream; charset=utf-8', body)).toEqual({ prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 });
  });

  it('adds Anthropic cache tokens to the prompt and takes the last cumulative output count', () => {
    const body =
      'event: message_start\n' +
      sse({ type: 'message_start', message: { usage: { input_tokens: 10, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 1 } } }) +
      'event: message_delta\n' +
      sse({ type: 'message_delta', usage: { output_tokens: 40 } });
    expect(meter('messages', 'text/event-stream', body, 7)).toEqual({ prompt_tokens: 60, completion_tokens: 40, total_tokens: 100 });
  });

  it('counts what a cut-off Anthropic stream reported so far', () => {
    const body = sse({ type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } }) + 'data: {"type":"content_block_del';
    expect(meter('messages', 'text/event-stream', body)).toEqual({ prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 });
  });

  it('reads Responses usage from response.completed and from a JSON body', () => {
    const usage = { input_tokens: 8, output_tokens: 3, total_tokens: 11 };
    expect(
      meter(
        'responses',
        'text/event-stream',
        sse({ type: 'response.created', response: { usage: null } }, { type: 'response.completed', response: { usage } }),
      ),
    ).toEqual({
      prompt_tokens: 8,
      completion_tokens: 3,
      total_tokens: 11,
    });
    expect(meter('responses', 'application/json', JSON.stringify({ object: 'response', usage }), 5)).toEqual({
      prompt_tokens: 8,
      completion_tokens: 3,
      total_tokens: 11,
    });
  });

  it('takes the last Gemini usageMetadata, thoughts as output, in SSE and in the JSON-array stream', () => {
    const chunks = [
      { usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } },
      { usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, thoughtsTokenCount: 4, totalTokenCount: 12 } },
    ];
    const expected = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 };
    expect(meter('gemini', 'text/event-stream', sse(...chunks))).toEqual(expected);
    expect(meter('gemini', 'application/json', JSON.stringify(chunks), 3)).toEqual(expected);
  });

  it('reports nothing for answers without usage and for routes it does not meter', () => {
    expect(meter('chat', 'text/event-stream', sse({ choices: [{ delta: { content: 'usage' } }] }, '[DONE]'))).toBeUndefined();
    expect(meter('chat', 'application/json', '{"truncated":')).toBeUndefined();
    expect(meter('other', 'application/json', JSON.stringify({ usage: { prompt_tokens: 1 } }))).toBeUndefined();
  });
});
