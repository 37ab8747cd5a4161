/**
 * The scripted provider's answers (./scripted-provider.ts) in two more wire protocols, streamed as the
 * providers stream them: Gemini `streamGenerateContent?alt=sse` (and `generateContent`, which Gemini CLI
 * uses for side requests) for Gemini CLI, OpenAI Chat Completions for opencode.
 *
 * Same rule as the others: a request that offers tools and carries no result of the scripted call yet
 * gets that call; one that carries its result (or offers no tools) gets the final text.
 */
import type { ScriptedCall } from './scripted-provider';

/** The usage every answer reports (what a run must have counted per model call). */
export const SCRIPTED_GEMINI_CHAT_USAGE = {
  gemini: { promptTokenCount: 20, candidatesTokenCount: 6, thoughtsTokenCount: 2, totalTokenCount: 28 },
  chat: { prompt_tokens: 25, completion_tokens: 9, total_tokens: 34 },
} as const;

const sse = (events: unknown[]) => events.map((data) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');

interface GeminiBody {
  contents?: Array<{ parts?: Array<Record<string, unknown>> }>;
  tools?: Array<{ functionDeclarations?: unknown[] }>;
}

/** A Gemini answer: the SSE stream, or (not streamed) the one JSON response. */
export function geminiAnswer(body: GeminiBody, call: ScriptedCall, finalText: string, model: string, streamed: boolean): { type: string; body: string } {
  const answered = (body.contents ?? []).some((c) => (c.parts ?? []).some((p) => 'functionResponse' in p));
  const offersTools = (body.tools ?? []).some((t) => (t.functionDeclarations?.length ?? 0) > 0);
  const parts = offersTools && !answered ? [{ functionCall: { name: call.name, args: call.arguments } }] : [{ text: finalText }];
  const chunk = (content: unknown[], final: boolean) => ({
    candidates: [{ content: { role: 'model', parts: content }, index: 0, ...(final ? { finishReason: 'STOP' } : {}) }],
    // Gemini reports the usage so far in every chunk; the last one is complete.
    usageMetadata: final ? SCRIPTED_GEMINI_CHAT_USAGE.gemini : { promptTokenCount: SCRIPTED_GEMINI_CHAT_USAGE.gemini.promptTokenCount },
    modelVersion: model,
    responseId: `resp-${answered ? 2 : 1}`,
  });
  if (!streamed) return { type: 'application/json', body: JSON.stringify(chunk(parts, true)) };
  // Two chunks, as Gemini streams: the usage so far first (no parts yet), the answer and its final usage last.
  return { type: 'text/event-stream', body: sse([chunk([], false), chunk(parts, true)]) };
}

interface ChatBody {
  model?: string;
  messages?: Array<{ role?: string }>;
  tools?: unknown[];
}

/** A streamed Chat Completion, with the usage chunk the gateway asks for. */
export function chatAnswer(body: ChatBody, call: ScriptedCall, finalText: string): string {
  const model = body.model ?? 'chat-test';
  const answered = (body.messages ?? []).some((m) => m.role === 'tool');
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: unknown[] = [chunk({ role: 'assistant', content: '' })];
  if ((body.tools?.length ?? 0) > 0 && !answered) {
    const args = JSON.stringify(call.arguments);
    events.push(
      chunk({ tool_calls: [{ index: 0, id: 'call_harness_1', type: 'function', function: { name: call.name, arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 10) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(10) } }] }),
      chunk({}, 'tool_calls'),
    );
  } else {
    events.push(chunk({ content: finalText }), chunk({}, 'stop'));
  }
  events.push({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: SCRIPTED_GEMINI_CHAT_USAGE.chat }, '[DONE]');
  return sse(events);
}
