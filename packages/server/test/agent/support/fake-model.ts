/**
 * A fake OpenAI-compatible Chat Completions server on 127.0.0.1 (real HTTP): each POST
 * /v1/chat/completions takes the next scripted reply — a streamed text answer, streamed tool calls, an
 * HTTP error, a non-streamed JSON completion, or a stream that never ends — and every request is
 * recorded (parsed body and headers) for exact assertions.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export type Reply =
  | { kind: 'text'; content: string; usage?: Usage; sliceBytes?: number }
  | { kind: 'tools'; calls: Array<{ id: string; name: string; arguments: string }>; content?: string; usage?: Usage }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'json'; content: string; usage?: Usage }
  /** Streams `partial` as content, then holds the response open until the client goes away. */
  | { kind: 'hang'; partial?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  at: number;
}

export const text = (content: string, usage?: Usage): Reply => ({ kind: 'text', content, ...(usage ? { usage } : {}) });
export const toolCalls = (calls: Array<{ id: string; name: string; arguments: unknown }>, usage?: Usage): Reply => ({
  kind: 'tools',
  calls: calls.map((c) => ({ ...c, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) })),
  ...(usage ? { usage } : {}),
});
export const status = (code: number, body?: unknown, headers?: Record<string, string>): Reply => ({
  kind: 'status',
  status: code,
  ...(body !== undefined ? { body } : {}),
  ...(headers ? { headers } : {}),
});
export const usage = (prompt: number, completion: number): Usage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

export class FakeModel {
  readonly requests: RecordedRequest[] = [];
  /** Responses the client abandoned (cancel): resolved when a hanging reply's connection closes. */
  readonly abandoned: Array<Promise<void>> = [];
  /**
   * What `GET /v1/models` answers (the OpenAI-compatible model list): these ids, or a 500 for `'fail'`.
   * Those requests are counted here, not recorded in `requests`, and take no scripted reply.
   */
  models: string[] | 'fail' = [];
  modelListRequests = 0;
  #replies: Array<Reply | ((req: RecordedRequest) => Reply)> = [];
  #waiters: Array<{ count: number; resolve: () => void }> = [];
  #server: http.Server;
  url = '';

  private constructor() {
    this.#server = http.createServer((req, res) => void this.#handle(req, res));
  }

  static async start(): Promise<FakeModel> {
    const model = new FakeModel();
    await new Promise<void>((resolve) => model.#server.listen(0, '127.0.0.1', resolve));
    const { port } = model.#server.address() as AddressInfo;
    model.url = `http://127.0.0.1:${port}/v1`;
    return model;
  }

  reply(...replies: Array<Reply | ((req: RecordedRequest) => Reply)>): this {
    this.#replies.push(...replies);
    return this;
  }

  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/v1/models') {
      this.modelListRequests++;
      if (this.models === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the model list is down' } }));
      } else {
        const data = this.models.map((id) => ({ id, object: 'model', created: 1, owned_by: 'test' }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
      }
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: raw ? JSON.parse(raw) : undefined,
      at: Date.now(),
    };
    this.requests.push(recorded);
    this.#waiters = this.#waiters.filter((w) => (this.requests.length >= w.count ? (w.resolve(), false) : true));

    const next = this.#replies.shift();
    const reply = typeof next === 'function' ? next(recorded) : next;
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'no scripted reply left' } }));
      return;
    }
    const model = (recorded.body as { model?: string } | undefined)?.model ?? 'unknown';
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const usageChunk = (u: Usage) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: u })}\n\n`;

    switch (reply.kind) {
      case 'status':
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body ?? { error: { message: `scripted ${reply.status}` } }));
        return;
      case 'json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }],
            ...(reply.usage ? { usage: reply.usage } : {}),
          }),
        );
        return;
      case 'hang': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ role: 'assistant', content: reply.partial ?? '' }));
        this.abandoned.push(new Promise((resolve) => res.on('close', () => resolve())));
        return;
      }
      case 'text': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let body = chunk({ role: 'assistant', content: '' });
        // Several content deltas, as providers send them.
        for (const piece of reply.content.match(/.{1,4}/gs) ?? []) body += chunk({ content: piece });
        body += chunk({}, 'stop');
        if (reply.usage) body += usageChunk(reply.usage);
        body += 'data: [DONE]\n\n';
        await writeSliced(res, body, reply.sliceBytes);
        return;
      }
      case 'tools': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let body = chunk({ role: 'assistant', content: reply.content ?? null });
        reply.calls.forEach((call, index) => {
          body += chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
          for (const piece of call.arguments.match(/.{1,5}/gs) ?? []) {
            body += chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
          }
        });
        body += chunk({}, 'tool_calls');
        if (reply.usage) body += usageChunk(reply.usage);
        body += 'data: [DONE]\n\n';
        await writeSliced(res, body);
        return;
      }
    }
  }
}

/** Writes the body in slices (so SSE lines cross read boundaries) with a tick between them. */
async function writeSliced(res: http.ServerResponse, body: string, sliceBytes?: number): Promise<void> {
  if (!sliceBytes) {
    res.end(body);
    return;
  }
  for (let i = 0; i < body.length; i += sliceBytes) {
    res.write(body.slice(i, i + sliceBytes));
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}
