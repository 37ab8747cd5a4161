/**
 * A stand-in for the model providers the gateway forwards to, on 127.0.0.1 (real HTTP), answering each
 * protocol in its real wire shape, streamed (SSE, several events, written apart) or as one JSON body:
 * OpenAI Chat Completions and Responses, Anthropic Messages, Gemini generateContent and
 * streamGenerateContent. Every request is recorded (method, path with query, headers, parsed body).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** The tokens every answer reports, per protocol (so a test knows what the run must have counted). */
export const FAKE_USAGE = {
  chat: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
  responses: { prompt_tokens: 13, completion_tokens: 5, total_tokens: 18 },
  // input 3 + cache writes 4 + cache reads 5; output 9 (message_delta's cumulative count).
  messages: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
  // thoughts 2 count as output: 6 + 2.
  gemini: { prompt_tokens: 17, completion_tokens: 8, total_tokens: 25 },
} as const;

const sse = (events: Array<{ event?: string; data: unknown }>) =>
  events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`);

function chatAnswer(body: { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } }): { type: string; parts: string[] } {
  const model = body.model ?? 'gpt-test';
  const usage = FAKE_USAGE.chat;
  if (!body.stream) {
    return {
      type: 'application/json',
      parts: [
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there' }, finish_reason: 'stop' }],
          usage,
        }),
      ],
    };
  }
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: Array<{ data: unknown }> = [
    { data: chunk({ role: 'assistant', content: 'Hello' }) },
    { data: chunk({ content: ' there' }) },
    { data: chunk({}, 'stop') },
  ];
  if (body.stream_options?.include_usage) events.push({ data: { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model, choices: [], usage } });
  events.push({ data: '[DONE]' });
  return { type: 'text/event-stream', parts: sse(events) };
}

function responsesAnswer(body: { model?: string; stream?: boolean }): { type: string; parts: string[] } {
  const model = body.model ?? 'gpt-test';
  const usage = {
    input_tokens: 13,
    output_tokens: 5,
    total_tokens: 18,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  const done = {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model,
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Hello there', annotations: [] }] }],
    usage,
  };
  if (!body.stream) return { type: 'application/json', parts: [JSON.stringify(done)] };
  return {
    type: 'text/event-stream',
    parts: sse([
      {
        event: 'response.created',
        data: { type: 'response.created', sequence_number: 0, response: { ...done, status: 'in_progress', output: [], usage: null } },
      },
      {
        event: 'response.output_text.delta',
        data: { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hello' },
      },
      {
        event: 'response.output_text.delta',
        data: { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, delta: ' there' },
      },
      { event: 'response.completed', data: { type: 'response.completed', sequence_number: 3, response: done } },
    ]),
  };
}

function messagesAnswer(body: { model?: string; stream?: boolean }): { type: string; parts: string[] } {
  const model = body.model ?? 'claude-test';
  const message = { id: 'msg_1', type: 'message', role: 'assistant', model, content: [] as unknown[], stop_reason: null, stop_sequence: null };
  if (!body.stream) {
    const usage = { input_tokens: 3, cache_creation_input_tokens: 4, cache_read_input_tokens: 5, output_tokens: 9 };
    return {
      type: 'application/json',
      parts: [JSON.stringify({ ...message, content: [{ type: 'text', text: 'Hello there' }], stop_reason: 'end_turn', usage })],
    };
  }
  return {
    type: 'text/event-stream',
    parts: sse([
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: { ...message, usage: { input_tokens: 3, cache_creation_input_tokens: 4, cache_read_input_tokens: 5, output_tokens: 1 } },
        },
      },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'ping', data: { type: 'ping' } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' there' } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]),
  };
}

function geminiAnswer(stream: boolean, alt: string | null, model: string): { type: string; parts: string[] } {
  const chunk = (text: string, final: boolean) => ({
    candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(final ? { finishReason: 'STOP' } : {}) }],
    // Every chunk carries the usage so far; the last one is complete.
    usageMetadata: final
      ? { promptTokenCount: 17, candidatesTokenCount: 6, thoughtsTokenCount: 2, totalTokenCount: 25 }
      : { promptTokenCount: 17, totalTokenCount: 17 },
    modelVersion: model,
    responseId: 'resp-1',
  });
  if (!stream) return { type: 'application/json', parts: [JSON.stringify(chunk('Hello there', true))] };
  if (alt === 'sse') return { type: 'text/event-stream', parts: sse([{ data: chunk('Hello', false) }, { data: chunk(' there', true) }]) };
  // Without alt=sse the stream is one JSON array, written as it grows.
  return { type: 'application/json', parts: [`[${JSON.stringify(chunk('Hello', false))}`, `,\r\n${JSON.stringify(chunk(' there', true))}]`] };
}

/** A request's body parsed as JSON (undefined when empty; the text itself when it is not JSON). */
export async function readJsonBody(req: http.IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  try {
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return raw;
  }
}

export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export class FakeProviders {
  readonly requests: ProviderRequest[] = [];
  /** Between two parts of a streamed answer, so a client sees the first before the last is written. */
  partGapMs = 5;
  #server: http.Server;
  url = '';

  /** The settings that point the gateway's three providers here, with these operator keys. */
  providerSettings(keys: { openai: string; anthropic: string; gemini: string }): Record<string, string> {
    return {
      OPENAI_BASE_URL: `${this.url}/v1`,
      OPENAI_API_KEY: keys.openai,
      ANTHROPIC_BASE_URL: this.url,
      ANTHROPIC_API_KEY: keys.anthropic,
      GEMINI_BASE_URL: this.url,
      GEMINI_API_KEY: keys.gemini,
    };
  }

  private constructor() {
    this.#server = http.createServer((req, res) => void this.#handle(req, res));
  }

  static async start(): Promise<FakeProviders> {
    const fake = new FakeProviders();
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  close(): Promise<void> {
    return closeServer(this.#server);
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readJsonBody(req);
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    const url = new URL(req.url ?? '/', this.url);
    const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
    const answer = url.pathname.endsWith('/chat/completions')
      ? chatAnswer(body)
      : url.pathname.endsWith('/responses')
        ? responsesAnswer(body)
        : url.pathname === '/v1/messages'
          ? messagesAnswer(body)
          : gemini
            ? geminiAnswer(gemini[2] === 'streamGenerateContent', url.searchParams.get('alt'), gemini[1]!)
            : undefined;
    if (!answer) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
    res.writeHead(200, { 'content-type': answer.type, 'openai-organization': 'org-operator', 'x-request-id': 'req_1' });
    for (const [index, part] of answer.parts.entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, this.partGapMs));
      res.write(part);
    }
    res.end();
  }
}
