/**
 * A run's conversation as a transcript: the conversation read from the API, grown by the `content` events
 * of the run's stream.
 */
import type { ContentBlock, ConversationMessage, ConversationResponse, ConversationStep, RunContentEvent } from '@agent-runs/sdk';
import { JsonView } from '../../components/JsonView';
import { Time } from '../../components/Time';

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

const asText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function Value({ value }: { value: unknown }) {
  const text = asText(value);
  return text !== undefined ? <pre>{text}</pre> : <JsonView value={value} openDepth={1} />;
}

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      return <div className="block-text">{block.text}</div>;
    case 'action':
      if (block.name === 'read_skill') {
        return (
          <p className="block-action">
            Loaded skill <strong>{asText(block.input.name) ?? '(unnamed)'}</strong>
          </p>
        );
      }
      return (
        <div className="block-action">
          <div>
            Tool call <code>{block.name}</code> <span className="muted">({block.category})</span>
          </div>
          <JsonView value={block.input} openDepth={1} />
        </div>
      );
    case 'action_result':
      return (
        <details className="block-result" open={block.name !== 'read_skill'}>
          <summary>
            {block.name === 'read_skill' ? 'Skill text' : <>Result of <code>{block.name}</code></>} <span className="badge">{block.state}</span>
          </summary>
          <Value value={typeof block.output.text === 'string' ? block.output.text : block.output} />
        </details>
      );
    case 'event':
      return (
        <div className="block-event">
          <div className="meta">Event: {block.name}</div>
          <Value value={block.data} />
        </div>
      );
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
            {step.messages.map((message, j) => (
              <article key={message.message_ids?.[0] ?? j} className={`message role-${message.role}`}>
                <div className="meta">
                  {message.role} · <Time value={message.timestamp} />
                </div>
                {message.content.map((block, k) => (
                  <Block key={k} block={block} />
                ))}
              </article>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
