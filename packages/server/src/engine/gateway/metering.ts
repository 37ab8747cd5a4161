/**
 * Token counts read from a provider's answer while it streams past, in each protocol's own usage fields:
 * - Chat Completions: `usage` (the final chunk of a stream with `stream_options.include_usage`);
 * - Responses: `response.completed` (or `.incomplete`/`.failed`) `response.usage`, or the body's `usage`;
 * - Anthropic Messages: `message_start` `message.usage` (input, cache writes and reads) then `message_delta`
 *   `usage` (output so far, cumulative);
 * - Gemini: `usageMetadata` of the last chunk (cumulative), thoughts counted as output.
 * Only events that mention usage are parsed, after their bytes were already forwarded.
 */
import { StringDecoder } from 'node:string_decoder';
import type { TokenUsage } from '../../runs/contract';
import type { Protocol } from './protocols';

/** A JSON answer bigger than this is forwarded but not read (no real usage-bearing answer comes close). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

type Counts = { prompt?: number; completion?: number; total?: number };
type Json = Record<string, unknown>;

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
const obj = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const sum = (...values: unknown[]): number | undefined => {
  const present = values.map(num).filter((v): v is number => v !== undefined);
  return present.length > 0 ? present.reduce((a, b) => a + b, 0) : undefined;
};

/** Folds one JSON object (an event or a whole answer) of `protocol` into the counts so far. */
function absorb(protocol: Protocol, counts: Counts, message: Json): void {
  switch (protocol) {
    case 'chat': {
      const usage = obj(message.usage);
      if (usage) Object.assign(counts, { prompt: num(usage.prompt_tokens), completion: num(usage.completion_tokens), total: num(usage.total_tokens) });
      return;
    }
    case 'responses': {
      const usage = obj(obj(message.response)?.usage) ?? obj(message.usage);
      if (usage) Object.assign(counts, { prompt: num(usage.input_tokens), completion: num(usage.output_tokens), total: num(usage.total_tokens) });
      return;
    }
    case 'messages': {
      const usage = obj(obj(message.message)?.usage) ?? obj(message.usage);
      if (!usage) return;
      const prompt = sum(usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens);
      if (prompt !== undefined) counts.prompt = prompt;
      counts.completion = num(usage.output_tokens) ?? counts.completion;
      return;
    }
    case 'gemini': {
      const usage = obj(message.usageMetadata);
      if (usage) {
        Object.assign(counts, {
          prompt: num(usage.promptTokenCount),
          completion: sum(usage.candidatesTokenCount, usage.thoughtsTokenCount),
          total: num(usage.totalTokenCount),
        });
      }
      return;
    }
    case 'other':
      return;
  }
}

export class UsageMeter {
  readonly #protocol: Protocol;
  readonly #sse: boolean;
  readonly #counts: Counts = {};
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';
  #data: string[] = [];
  #json: Buffer[] = [];
  #jsonBytes = 0;

  constructor(protocol: Protocol, contentType: string | undefined) {
    this.#protocol = protocol;
    this.#sse = (contentType ?? '').includes('text/event-stream');
  }

  feed(chunk: Buffer): void {
    if (this.#protocol === 'other') return;
    if (!this.#sse) {
      this.#jsonBytes += chunk.length;
      if (this.#jsonBytes <= MAX_JSON_BYTES) this.#json.push(chunk);
      return;
    }
    const lines = (this.#pending + this.#decoder.write(chunk)).split('\n');
    this.#pending = lines.pop() ?? '';
    for (const raw of lines) this.#line(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
  }

  /** The tokens the answer reported (what was seen of it, when it was cut short); undefined when it reported none. */
  finish(): TokenUsage | undefined {
    if (this.#sse) {
      this.#line(this.#pending);
      this.#line('');
    } else if (this.#json.length > 0 && this.#jsonBytes <= MAX_JSON_BYTES) {
      this.#absorbText(Buffer.concat(this.#json).toString('utf8'));
    }
    const { prompt, completion, total } = this.#counts;
    if (prompt === undefined && completion === undefined && total === undefined) return undefined;
    const prompt_tokens = prompt ?? 0;
    const completion_tokens = completion ?? 0;
    return { prompt_tokens, completion_tokens, total_tokens: total ?? prompt_tokens + completion_tokens };
  }

  #line(line: string): void {
    if (line === '') {
      const data = this.#data.join('\n');
      this.#data = [];
      // Cheap filter: most events carry text deltas, and only the ones naming usage are worth parsing.
      if (data.includes('sage')) this.#absorbText(data);
    } else if (line.startsWith('data:')) {
      this.#data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
  }

  #absorbText(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // `[DONE]`, a truncated answer: nothing to count
    }
    // Gemini's streamGenerateContent without `alt=sse` answers one JSON array of chunks.
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      const message = obj(item);
      if (message) absorb(this.#protocol, this.#counts, message);
    }
  }
}
