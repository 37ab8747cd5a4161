/**
 * A stand-in model provider on 127.0.0.1 (real HTTP) that drives a coding-agent CLI through one tool call
 * and a final answer, in the provider's real streamed wire shape: OpenAI Responses (Codex), Anthropic
 * Messages (Claude Code), and with ./scripted-gemini-chat.ts Gemini (Gemini CLI) and Chat Completions (opencode).
 *
 * A request that offers tools and carries no result of the scripted call yet is answered with that call;
 * one that carries its result (or offers no tools: a CLI's side request) with the final text. Every
 * request is recorded (path, headers, body), so a test sees which key reached the provider.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readJsonBody } from '../../gateway/fake-providers';
import { chatAnswer, geminiAnswer } from './scripted-gemini-chat';

export interface ScriptedCall {
  /** The tool the CLI offers for it (`exec_command` for Codex, `Bash` for Claude Code). */
  name: string;
  arguments: Record<string, unknown>;
}

export interface Script {
  responses: ScriptedCall;
  messages: ScriptedCall;
  gemini?: ScriptedCall;
  chat?: ScriptedCall;
  finalText: string;
  /** Asked instead when the request holds `marker` (a prompt that wants a tool call that never ends, say). */
  alternative?: { marker: string; responses: ScriptedCall; messages: ScriptedCall };
}

/** The script's call for this request body: the alternative's when the body holds its marker. */
function scriptedCall(script: Script, protocol: 'responses' | 'messages', body: unknown): ScriptedCall {
  const alternative = script.alternative;
  return alternative && JSON.stringify(body).includes(alternative.marker) ? alternative[protocol] : script[protocol];
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** The usage every answer reports, per protocol (what a run must have counted per model call). */
export const SCRIPTED_USAGE = {
  responses: { input_tokens: 40, output_tokens: 10, total_tokens: 50 },
  messages: { input_tokens: 30, output_tokens: 12 },
} as const;

const CALL_ID = 'call_harness_1';
const GEMINI_MODEL_PATH = /\/models\/([^/:]+):(generateContent|streamGenerateContent)(\?|$)/;

const callOf = (call: ScriptedCall) => ({ name: call.name, arguments: JSON.stringify(call.arguments) });

const sse = (events: Array<{ event?: string; data: unknown }>) =>
  events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`).join('');

function responsesAnswer(body: { model?: string; input?: unknown[]; tools?: unknown[] }, script: Script): string {
  const model = body.model ?? 'gpt-test';
  const answered = JSON.stringify(body.input ?? []).includes('"function_call_output"');
  const usage = { ...SCRIPTED_USAGE.responses, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  const item =
    !answered && (body.tools?.length ?? 0) > 0
      ? { type: 'function_call', id: 'fc_1', call_id: CALL_ID, ...callOf(scriptedCall(script, 'responses', body)), status: 'completed' }
      : { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: script.finalText, annotations: [] }] };
  const response = { id: `resp_${answered ? 2 : 1}`, object: 'response', created_at: 1, status: 'completed', model, output: [item], usage };
  const events: Array<{ event: string; data: Record<string, unknown> }> = [
    { event: 'response.created', data: { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } } },
    { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item } },
  ];
  if (item.type === 'message') {
    events.push({
      event: 'response.output_text.delta',
      data: { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: script.finalText },
    });
  }
  events.push(
    { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
    { event: 'response.completed', data: { type: 'response.completed', response } },
  );
  return sse(events.map((e, i) => ({ event: e.event, data: { ...e.data, sequence_number: i } })));
}

function messagesAnswer(body: { model?: string; messages?: unknown[]; tools?: unknown[] }, script: Script): string {
  const model = body.model ?? 'claude-test';
  const answered = JSON.stringify(body.messages ?? []).includes('"tool_result"');
  const call = !answered && (body.tools?.length ?? 0) > 0;
  const { input_tokens, output_tokens } = SCRIPTED_USAGE.messages;
  const start = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens, output_tokens: 1 },
  };
  const block = call
    ? [
        {
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_harness_1', name: callOf(scriptedCall(script, 'messages', body)).name, input: {} },
          },
        },
        {
          event: 'content_block_delta',
          data: {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: callOf(scriptedCall(script, 'messages', body)).arguments },
          },
        },
      ]
    : [
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: script.finalText } } },
      ];
  return sse([
    { event: 'message_start', data: { type: 'message_start', message: start } },
    ...block,
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: call ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens } },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
}

export class ScriptedProvider {
  readonly requests: RecordedRequest[] = [];
  url = '';
  #server: http.Server;

  private constructor(private readonly script: Script) {
    this.#server = http.createServer((req, res) => void this.#handle(req, res));
  }

  static async start(script: Script): Promise<ScriptedProvider> {
    const provider = new ScriptedProvider(script);
    await new Promise<void>((resolve) => provider.#server.listen(0, '127.0.0.1', resolve));
    provider.url = `http://127.0.0.1:${(provider.#server.address() as AddressInfo).port}`;
    return provider;
  }

  /** The model requests (not a CLI's probes of its base URL). */
  modelRequests(): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.path.endsWith('/responses') || r.path.startsWith('/v1/messages') || r.path.endsWith('/chat/completions') || GEMINI_MODEL_PATH.test(r.path),
    );
  }

  close(): Promise<void> {
    return closeServer(this.#server);
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body: unknown = await readJsonBody(req);
    this.requests.push({ path: req.url ?? '', headers: req.headers, body });
    const pathname = new URL(req.url ?? '/', this.url).pathname;
    if (req.method === 'POST' && pathname.endsWith('/responses')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(responsesAnswer(body as never, this.script));
    } else if (req.method === 'POST' && pathname === '/v1/messages') {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(messagesAnswer(body as never, this.script));
    } else if (req.method === 'POST' && pathname.endsWith('/chat/completions') && this.script.chat) {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(chatAnswer(body as never, this.script.chat, this.script.finalText));
    } else if (req.method === 'POST' && GEMINI_MODEL_PATH.test(pathname) && this.script.gemini) {
      const [, model, method] = GEMINI_MODEL_PATH.exec(pathname)!;
      const answer = geminiAnswer(body as never, this.script.gemini, this.script.finalText, model!, method === 'streamGenerateContent');
      res.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    } else if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"type":"not_found_error","message":"no such route"}}');
    }
  }
}
