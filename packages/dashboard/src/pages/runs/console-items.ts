/**
 * A turn's messages as what a person reads in an agent console: the assistant's text and a command's output
 * merged while they follow each other (a command runner records every stdout chunk as a message of its own),
 * each tool call joined with its result (which the conversation records in a message of its own), and the
 * events that have a rendering of their own (artifacts) kept apart from the rest; then consecutive items of
 * one role as one card.
 */
import type { ArtifactItem, ContentBlock, ConversationMessage } from '@agent-runs/sdk';

export type ActionBlock = Extract<ContentBlock, { type: 'action' }>;
export type ActionResultBlock = Extract<ContentBlock, { type: 'action_result' }>;
type EventBlock = Extract<ContentBlock, { type: 'event' }>;

/** One stretch of output: text and stderr in the order they came. */
export interface OutputPart {
  stream: 'text' | 'stderr';
  text: string;
}

type Role = ConversationMessage['role'];

export type ConsoleItem = { role: Role; timestamp: string } & (
  | { kind: 'output'; parts: OutputPart[] }
  | { kind: 'tool'; action: ActionBlock; result?: ActionResultBlock }
  | { kind: 'artifact'; artifact: ArtifactItem }
  | { kind: 'event'; event: EventBlock }
);

/** Consecutive items of one role: one card in the transcript. */
export interface ConsoleCard {
  role: Role;
  timestamp: string;
  items: ConsoleItem[];
}

const stderrText = (block: EventBlock): string | undefined => {
  const data = block.data as { text?: unknown } | null;
  return block.name === 'stderr' && typeof data?.text === 'string' ? data.text : undefined;
};

const isArtifact = (data: unknown): data is ArtifactItem =>
  typeof data === 'object' &&
  data !== null &&
  typeof (data as { artifact_type?: unknown }).artifact_type === 'string' &&
  typeof (data as { data?: unknown }).data === 'object';

export function consoleItems(messages: readonly ConversationMessage[]): ConsoleItem[] {
  const items: ConsoleItem[] = [];
  // A result joins its action wherever it comes (a model may call several tools before any result).
  const toolById = new Map<string, Extract<ConsoleItem, { kind: 'tool' }>>();
  const appendOutput = (role: Role, timestamp: string, part: OutputPart) => {
    const last = items[items.length - 1];
    if (last?.kind === 'output' && last.role === role) {
      const previous = last.parts[last.parts.length - 1];
      if (previous && previous.stream === part.stream) previous.text += part.text;
      else last.parts.push({ ...part });
      return;
    }
    items.push({ kind: 'output', role, timestamp, parts: [{ ...part }] });
  };

  for (const message of messages) {
    for (const block of message.content) {
      switch (block.type) {
        case 'text':
          appendOutput(message.role, message.timestamp, { stream: 'text', text: block.text });
          break;
        case 'action': {
          const item = { kind: 'tool' as const, role: message.role, timestamp: message.timestamp, action: block };
          toolById.set(block.id, item);
          items.push(item);
          break;
        }
        case 'action_result': {
          const action = toolById.get(block.action_id);
          if (action && !action.result) action.result = block;
          // A result without its action (a conversation cut by a limit): shown as a call of its own.
          else
            items.push({
              kind: 'tool',
              role: message.role,
              timestamp: message.timestamp,
              action: { type: 'action', id: block.action_id, category: block.category, name: block.name, input: {} },
              result: block,
            });
          break;
        }
        case 'event': {
          const stderr = stderrText(block);
          if (stderr !== undefined) appendOutput(message.role, message.timestamp, { stream: 'stderr', text: stderr });
          else if (block.name === 'artifact' && isArtifact(block.data))
            items.push({ kind: 'artifact', role: message.role, timestamp: message.timestamp, artifact: block.data });
          else items.push({ kind: 'event', role: message.role, timestamp: message.timestamp, event: block });
          break;
        }
      }
    }
  }
  return items;
}

/**
 * Each item's anchor on the run page, `#turn-<n>-item-<k>` (both from 1): items are only ever appended to a
 * turn (output merges into the last one), so an anchor names the same item for as long as the run lives.
 */
export const itemAnchor = (turn: number, index: number): string => `turn-${turn}-item-${index + 1}`;

/** Items (a turn's, or the part of it on screen) as cards. */
export function consoleCards(items: readonly ConsoleItem[]): ConsoleCard[] {
  const cards: ConsoleCard[] = [];
  for (const item of items) {
    const last = cards[cards.length - 1];
    if (last && last.role === item.role) last.items.push(item);
    else cards.push({ role: item.role, timestamp: item.timestamp, items: [item] });
  }
  return cards;
}
