/**
 * The model's view of a run, built from the run:
 * - system prompt: `base_prompt`, then the `skill_spec` skill's SKILL.md ("uses a skill as the base
 *   prompt"); no system message when both are absent;
 * - first user message: the run's prompt (for webhook runs it already holds the envelope). Attachments
 *   (already written into the working directory by the engine) follow as extra text parts: text-like
 *   ones (`*.json`, `*.md`, `*.txt`, …, or a `text/*`/JSON/YAML/XML mime type, valid UTF-8) up to
 *   MAX_INLINE_ATTACHMENT_BYTES each and MAX_INLINE_TOTAL_BYTES together are inlined in full — so
 *   `event-payload.json` reaches the model with the prompt; any other file is named with its path in the
 *   working directory and its size;
 * - a resumed run: the recorded conversation, turned back into chat messages.
 */
import path from 'node:path';
import type { ConversationTurn } from '../../runs/contract';
import type { RunAttachment } from '../runner';
import type { LoadedSkill } from '../../skills/resolve';
import type { ChatContentPart, ChatMessage, ChatToolCall } from './model-client';
import { recordedArguments, recordedOutputText, truncate } from './model-tools';

export const MAX_INLINE_ATTACHMENT_BYTES = 256 * 1024;
export const MAX_INLINE_TOTAL_BYTES = 512 * 1024;

const TEXT_EXTENSIONS = new Set(['.json', '.md', '.markdown', '.txt', '.csv', '.tsv', '.yaml', '.yml', '.xml', '.log', '.ndjson', '.jsonl', '.html', '.toml']);

export function systemPrompt(basePrompt: string | undefined, skill: LoadedSkill | undefined): string | undefined {
  const parts: string[] = [];
  if (basePrompt?.trim()) parts.push(basePrompt);
  if (skill) parts.push(skill.content);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function isTextLike(attachment: RunAttachment): boolean {
  const mime = attachment.mimeType.toLowerCase().split(';')[0]!.trim();
  const textMime =
    mime.startsWith('text/') ||
    mime === 'application/json' ||
    mime.endsWith('+json') ||
    mime === 'application/yaml' ||
    mime === 'application/x-yaml' ||
    mime === 'application/xml' ||
    mime.endsWith('+xml') ||
    mime === 'application/x-ndjson';
  return textMime || TEXT_EXTENSIONS.has(path.extname(attachment.fileName).toLowerCase());
}

function decodeUtf8(data: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}

/** One text part per attachment: its content when inlined, else where to find it. */
export function attachmentParts(attachments: RunAttachment[], workDir: string): ChatContentPart[] {
  let budget = MAX_INLINE_TOTAL_BYTES;
  return attachments.map((a) => {
    const where = path.join(workDir, a.fileName);
    const header = `Attached file ${a.fileName} (${a.mimeType}, ${a.data.length} bytes; also at ${where})`;
    if (isTextLike(a) && a.data.length <= MAX_INLINE_ATTACHMENT_BYTES && a.data.length <= budget) {
      const text = decodeUtf8(a.data);
      if (text !== undefined) {
        budget -= a.data.length;
        return { type: 'text', text: `${header}:\n\n${text}` };
      }
    }
    return { type: 'text', text: `${header}. Its content is not included here; read it from the working directory.` };
  });
}

export function firstUserMessage(prompt: string, attachments: RunAttachment[], workDir: string): ChatMessage {
  if (attachments.length === 0) return { role: 'user', content: prompt };
  return { role: 'user', content: [{ type: 'text', text: prompt }, ...attachmentParts(attachments, workDir)] };
}

const textOf = (content: Array<{ type: string }>): string =>
  content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('\n\n');

/**
 * Chat messages of a recorded conversation (resume). User text → user messages (the first one also
 * gets the attachments again); assistant text and actions → assistant messages with tool calls; each
 * action result → a tool message. A call whose result was never recorded (the run stopped in between)
 * gets a tool message saying so, because every tool call needs an answer. The skill_spec load recorded
 * at start is skipped: the system prompt holds that skill already.
 */
export function messagesFromHistory(
  history: ConversationTurn[],
  functionNameFor: (action: { category: string; name: string }) => string,
  attachments: { parts: ChatContentPart[] },
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let firstUser = true;
  let open: Map<string, true> | undefined; // tool calls of the last assistant message still without a result

  const closeOpenCalls = () => {
    for (const id of open?.keys() ?? []) {
      messages.push({ role: 'tool', tool_call_id: id, content: 'Error: the run stopped before this tool call finished.' });
    }
    open = undefined;
  };

  for (const turn of history) {
    for (const message of turn.messages) {
      if (message.role === 'user') {
        closeOpenCalls();
        const text = textOf(message.content);
        if (firstUser && attachments.parts.length > 0) {
          messages.push({ role: 'user', content: [{ type: 'text', text }, ...attachments.parts] });
        } else if (text) {
          messages.push({ role: 'user', content: text });
        }
        firstUser = false;
      } else if (message.role === 'assistant') {
        const actions = message.content.filter(
          (b): b is Extract<typeof b, { type: 'action' }> => b.type === 'action' && !b.id.startsWith(SKILL_SPEC_ACTION_PREFIX),
        );
        const text = textOf(message.content);
        if (actions.length === 0 && !text) continue;
        closeOpenCalls();
        const toolCalls: ChatToolCall[] = actions.map((a) => ({
          id: a.id,
          type: 'function',
          function: { name: functionNameFor(a), arguments: recordedArguments(a) },
        }));
        messages.push(toolCalls.length > 0 ? { role: 'assistant', content: text || null, tool_calls: toolCalls } : { role: 'assistant', content: text });
        if (toolCalls.length > 0) open = new Map(toolCalls.map((c) => [c.id, true]));
      } else if (message.role === 'tool') {
        for (const block of message.content) {
          if (block.type !== 'action_result' || !open?.has(block.action_id)) continue;
          open.delete(block.action_id);
          const text = truncate(recordedOutputText(block.output));
          messages.push({ role: 'tool', tool_call_id: block.action_id, content: block.state === 'completed' ? text : `Error: ${text}` });
        }
      }
    }
  }
  closeOpenCalls();
  return messages;
}

/** Id prefix of the action that records the skill_spec load at run start. */
export const SKILL_SPEC_ACTION_PREFIX = 'skill_spec_';
