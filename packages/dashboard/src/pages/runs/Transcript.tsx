/**
 * A run's conversation as a transcript: the conversation read from the API, grown by the `content` events
 * of the run's stream.
 */
import type { ConversationMessage, ConversationResponse, ConversationStep, RunContentEvent } from '@agent-runs/sdk';
import { JsonView } from '../../components/JsonView';
import { Time } from '../../components/Time';
import { ArtifactEntry } from './Artifacts';
import { consoleCards, type ConsoleItem } from './console-items';
import { ToolCall } from './ToolCall';

/**
 * The conversation with the streamed blocks it does not hold yet. The stream replays the run's events from
 * the start, and the conversation is made of those same events (one block each, grouped by message_id, in
 * order), so the k-th event of a message is its k-th block: it is added only when the message has fewer.
 */
export function mergeConversation(conversation: ConversationResponse | undefined, events: readonly RunContentEvent[]): ConversationStep[] {
  const steps: ConversationStep[] = (conversation?.steps ?? []).map((step) => ({
    ...step,
    messages: step.messages.map((message) => ({ ...message, content: [...message.content] })),
  }));
  const stepById = new Map(steps.map((step) => [step.id, step]));
  const messageById = new Map<string, ConversationMessage>();
  for (const step of steps) for (const message of step.messages) for (const id of message.message_ids ?? []) messageById.set(id, message);

  const blocksSeen = new Map<string, number>();
  for (const event of events) {
    const index = blocksSeen.get(event.message_id) ?? 0;
    blocksSeen.set(event.message_id, index + 1);
    const known = messageById.get(event.message_id);
    if (known) {
      if (known.content.length <= index) known.content.push(event.block);
      continue;
    }
    let step = stepById.get(event.step_id);
    if (!step) {
      step = { id: event.step_id, started_at: event.timestamp, messages: [], steps: [] };
      steps.push(step);
      stepById.set(step.id, step);
    }
    const message: ConversationMessage = { role: event.role, timestamp: event.timestamp, message_ids: [event.message_id], content: [event.block] };
    step.messages.push(message);
    messageById.set(event.message_id, message);
  }
  return steps;
}

function Item({ item }: { item: ConsoleItem }) {
  switch (item.kind) {
    case 'output':
      return (
        <div className="block-text">
          {item.parts.map((part, i) =>
            part.stream === 'stderr' ? (
              <span key={i} className="stderr" title="stderr">
                {part.text}
              </span>
            ) : (
              <span key={i}>{part.text}</span>
            ),
          )}
        </div>
      );
    case 'tool':
      return <ToolCall action={item.action} result={item.result} />;
    case 'artifact':
      return (
        <div className="block-artifact">
          <ArtifactEntry artifact={item.artifact} />
        </div>
      );
    case 'event':
      return (
        <div className="block-event">
          <div className="meta">{eventTitle(item.event.name)}</div>
          {typeof item.event.data === 'string' ? <pre>{item.event.data}</pre> : <JsonView value={item.event.data} openDepth={1} />}
        </div>
      );
  }
}

/** Events a reader meets, in words; any other by its name. */
function eventTitle(name: string): string {
  switch (name) {
    case 'artifact_rejected':
      return 'Artifact refused';
    case 'ask_user_rejected':
      return 'Question refused';
    default:
      return `Event: ${name}`;
  }
}

export function Transcript({ steps }: { steps: ConversationStep[] }) {
  if (steps.length === 0) return <p className="muted">Nothing yet: the conversation starts when the run does.</p>;
  return (
    <div className="transcript">
      {steps.map((step, i) => (
        <section key={step.id} className="step" aria-label={`Turn ${i + 1}`}>
          <h3>
            Turn {i + 1}
            {i > 0 ? ' (follow-up)' : ''} · <Time value={step.started_at} />
          </h3>
          <div className="transcript">
            {consoleCards(step.messages).map((card, j) => (
              <article key={j} className={`message role-${card.role}`}>
                <div className="meta">
                  {card.role} · <Time value={card.timestamp} />
                </div>
                {card.items.map((item, k) => (
                  <Item key={k} item={item} />
                ))}
              </article>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
