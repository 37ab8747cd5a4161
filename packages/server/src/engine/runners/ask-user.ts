/**
 * How an agent asks the person who started its run (docs/decisions.md §Blocked runs): the model runner's
 * `ask_user` tool (`{question}`) and the command runner's stdout line `::ask_user::{"question": "…"}`.
 * Either way the execution ends BLOCKED with the question as the run's status message, and the answer
 * comes back as a follow-up that resumes the run.
 *
 * The question is recorded in the conversation as the agent's own text, as a person reads a chat, and
 * that is also how a resumed model sees it: its question, then the answer as the next user message. The
 * tool call itself is the mechanism, not an action of the run.
 */
import { blockedOn, MAX_QUESTION_CHARS } from '../../runs/blocked';
import type { RunOutcome } from '../runner';
import type { ChatTool, ChatToolCall } from './model-client';

export const ASK_USER = 'ask_user';
export const ASK_USER_LINE_PREFIX = '::ask_user::';

export type ParsedQuestion = { ok: true; question: string } | { ok: false; error: string };

/** The question of `{question}` (a parsed tool call's arguments or an `::ask_user::` line). */
export function parseQuestion(value: unknown): ParsedQuestion {
  const question = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { question?: unknown }).question : undefined;
  if (typeof question !== 'string' || question.trim() === '') return { ok: false, error: 'ask_user needs {"question": "<what you need to know>"}' };
  const trimmed = question.trim();
  if (trimmed.length > MAX_QUESTION_CHARS) return { ok: false, error: `the question is longer than ${MAX_QUESTION_CHARS} characters; ask a shorter one` };
  return { ok: true, question: trimmed };
}

/** Parses `text` as JSON and then as `{question}`. */
export function parseQuestionJson(text: string): ParsedQuestion {
  try {
    return parseQuestion(JSON.parse(text));
  } catch {
    return { ok: false, error: 'ask_user needs one JSON object {"question": "…"}' };
  }
}

/** What an execution that asked `question` ends with. */
export const blockedOutcome = (question: string): RunOutcome => ({ state: 'BLOCKED', statusMessage: blockedOn(question) });

export function askUserDefinition(): ChatTool {
  return {
    type: 'function',
    function: {
      name: ASK_USER,
      description:
        'Ask the person who started this run a question and stop until they answer. Use it only when you cannot go on ' +
        'without a decision or information only they have; do not use it to report progress or results. Other tool calls ' +
        'of the same answer run first. Their answer comes back as the next user message; your workspace is kept.',
      parameters: {
        type: 'object',
        properties: {
          question: { type: 'string', description: `The question, self-contained (they may not have read the run), at most ${MAX_QUESTION_CHARS} characters.` },
        },
        required: ['question'],
        additionalProperties: false,
      },
    },
  };
}

/** The ask_user calls of one model answer, apart from its other tool calls. */
export interface AskedQuestions {
  /** The questions of the valid calls, joined: the run blocks on it once the other calls ran. */
  question: string | undefined;
  /** Invalid ask_user calls and the tool error each gets back (the model then asks again, or goes on). */
  refused: Array<{ callId: string; content: string }>;
  otherCalls: ChatToolCall[];
}

export function separateQuestions(calls: ChatToolCall[]): AskedQuestions {
  const questions: string[] = [];
  const refused: AskedQuestions['refused'] = [];
  const otherCalls: ChatToolCall[] = [];
  for (const call of calls) {
    if (call.function.name !== ASK_USER) {
      otherCalls.push(call);
      continue;
    }
    const parsed = parseQuestionJson(call.function.arguments);
    if (parsed.ok) questions.push(parsed.question);
    else refused.push({ callId: call.id, content: `Error: ${parsed.error}` });
  }
  return { question: questions.length > 0 ? questions.join('\n\n').slice(0, MAX_QUESTION_CHARS) : undefined, refused, otherCalls };
}
