/**
 * A run's conversation as a transcript: the conversation read from the API, grown by the `content` events
 * of the run's stream.
 */
import type { ConversationMessage, ConversationResponse, ConversationStep, RunContentEvent } from '@agent-runs/sdk';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { JsonView } from '../../components/JsonView';
import { Time } from '../../components/Time';
import { ArtifactEntry } from './Artifacts';
import { consoleCards, consoleItems, itemAnchor, type ConsoleItem } from './console-items';
import { ToolCall } from './ToolCall';

/** Items a run's page opens on, the last ones; "Show earlier" reveals this many more at a time. */
export const TRANSCRIPT_WINDOW = 200;

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

function Item({ item, id }: { item: ConsoleItem; id: string }) {
  switch (item.kind) {
    case 'output':
      return (
        <div className="block-text" id={id}>
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
      return <ToolCall id={id} action={item.action} result={item.result} />;
    case 'artifact':
      return (
        <div className="block-artifact" id={id}>
          <ArtifactEntry artifact={item.artifact} />
        </div>
      );
    case 'event':
      return (
        <div className="block-event" id={id}>
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

/** A turn's items, and where its first one stands among the whole transcript's. */
interface TurnItems {
  step: ConversationStep;
  items: ConsoleItem[];
  first: number;
}

function turnItems(steps: readonly ConversationStep[]): TurnItems[] {
  let first = 0;
  return steps.map((step) => {
    const items = consoleItems(step.messages);
    const turn = { step, items, first };
    first += items.length;
    return turn;
  });
}

const ANCHOR = /^#turn-(\d+)-item-(\d+)$/;

/** The transcript index of the item a `#turn-<n>-item-<k>` link names, if the transcript holds it. */
function linkedIndex(turns: readonly TurnItems[], hash: string): number | undefined {
  const match = ANCHOR.exec(hash);
  const turn = match && turns[Number(match[1]) - 1];
  const k = match ? Number(match[2]) - 1 : -1;
  return turn && k < turn.items.length ? turn.first + k : undefined;
}

/**
 * The transcript, windowed (docs/decisions.md §The run page at scale): a page opens on the last
 * TRANSCRIPT_WINDOW items; what arrives live is added below them (and kept in view while the end is);
 * "Show earlier" reveals more above, and a link to a hidden item reveals down to it.
 */
export function Transcript({ steps }: { steps: ConversationStep[] }) {
  const turns = useMemo(() => turnItems(steps), [steps]);
  const last = turns[turns.length - 1];
  const total = last ? last.first + last.items.length : 0;
  // Fixed once the page opens (not "the last N"), so live items never push what a person reads away.
  const [start, setStart] = useState(() => Math.max(0, total - TRANSCRIPT_WINDOW));

  const turnsNow = useRef(turns);
  turnsNow.current = turns;
  const scrollTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    const reveal = () => {
      const index = linkedIndex(turnsNow.current, window.location.hash);
      if (index === undefined) return;
      scrollTo.current = window.location.hash.slice(1);
      setStart((shown) => Math.min(shown, index));
    };
    reveal();
    window.addEventListener('hashchange', reveal);
    return () => window.removeEventListener('hashchange', reveal);
  }, []);
  // The browser looked for a linked item before the transcript was read: scroll to it once it is drawn.
  useEffect(() => {
    const element = scrollTo.current && document.getElementById(scrollTo.current);
    if (!element) return;
    scrollTo.current = undefined;
    element.scrollIntoView({ block: 'center' });
  });

  // Following the live end: while the transcript's end is on screen, items that arrive keep it there.
  const end = useRef<HTMLDivElement>(null);
  const atEnd = useRef(false);
  const empty = steps.length === 0;
  const drawnTotal = useRef(total);
  useEffect(() => {
    if (!end.current) return;
    const observer = new IntersectionObserver(([entry]) => (atEnd.current = entry?.isIntersecting ?? false));
    observer.observe(end.current);
    return () => observer.disconnect();
  }, [empty]);
  useLayoutEffect(() => {
    if (total > drawnTotal.current && atEnd.current) end.current?.scrollIntoView({ block: 'nearest' });
    drawnTotal.current = total;
  });

  if (empty) return <p className="muted">Nothing yet: the conversation starts when the run does.</p>;
  return (
    <div className="transcript">
      {start > 0 && (
        <div className="transcript-earlier" role="group" aria-label="Earlier items">
          <span className="muted">
            {start.toLocaleString()} earlier {start === 1 ? 'item is' : 'items are'} hidden (find in page searches what is shown).
          </span>
          <button type="button" onClick={() => setStart(Math.max(0, start - TRANSCRIPT_WINDOW))}>
            Show {Math.min(start, TRANSCRIPT_WINDOW).toLocaleString()} earlier
          </button>
          <button type="button" onClick={() => setStart(0)}>
            Show all {total.toLocaleString()}
          </button>
        </div>
      )}
      {turns.map(({ step, items, first }, i) => {
        // A turn wholly above the window is left out; an empty one after it still shows its heading.
        if (first < start && first + items.length <= start) return null;
        const from = Math.max(0, start - first);
        return <Turn key={step.id} step={step} turn={i + 1} items={items} from={from} />;
      })}
      <div ref={end} className="transcript-end" />
    </div>
  );
}

function Turn({ step, turn, items, from }: { step: ConversationStep; turn: number; items: ConsoleItem[]; from: number }) {
  let index = from;
  return (
    <section className="step" aria-label={`Turn ${turn}`}>
      <h3>
        Turn {turn}
        {turn > 1 ? ' (follow-up)' : ''} · <Time value={step.started_at} />
      </h3>
      <div className="transcript">
        {consoleCards(items.slice(from)).map((card) => {
          const first = index;
          index += card.items.length;
          return (
            <article key={first} className={`message role-${card.role}`}>
              <div className="meta">
                {card.role} ·{' '}
                <a href={`#${itemAnchor(turn, first)}`} title="Link to this item">
                  <Time value={card.timestamp} />
                </a>
              </div>
              {card.items.map((item, k) => (
                <Item key={first + k} item={item} id={itemAnchor(turn, first + k)} />
              ))}
            </article>
          );
        })}
      </div>
    </section>
  );
}
