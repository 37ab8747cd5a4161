/**
 * GET …/conversation and the transcript download as text produced page by page (docs/decisions.md
 * §Streamed conversations and the per-run output bound): the answers are Oz's ConversationResponse and the
 * JSON Lines transcript, byte for byte what `JSON.stringify` makes of them built whole (./conversation.ts
 * readConversation), but never held whole. What is read is fixed when the answer starts — the run's turns
 * and its events up to its current event number — so a run that goes on writing gives a consistent answer.
 *
 * The blocks of one message are consecutive events (./conversation.ts appends a message at once), which is
 * what lets messages be grouped while reading in event order.
 */
import type { ContentEventData } from './events';
import { conversationIdFor, loadSteps, type ConversationResponse, type StepRow } from './conversation';
import { findRun, type Db, type RunsDeps } from './repository';
import { teamScope } from '../db/scoped';

/** Rows per page: few at first, then as many as make about PAGE_CHARS (at most PAGE_ROWS). */
const FIRST_PAGE_ROWS = 8;
const PAGE_ROWS = 64;
const PAGE_CHARS = 256 * 1024;

type Deps = Pick<RunsDeps, 'db'>;
interface Snapshot {
  teamId: string;
  runId: string;
  lastSeq: number;
}

/** A content event as read for an answer: its block kept as the JSON text it is stored as. */
interface StoredContent {
  step_id: string;
  message_id: string;
  role: ContentEventData['role'];
  timestamp: ContentEventData['timestamp'];
  blockJson: string;
}

const BLOCK_MEMBER = ',"block":';

/**
 * A content event's stored data without parsing its block: ./events.ts stores `JSON.stringify(data)`, whose
 * last member is the block, and JSON.stringify's text of a value is what it makes of that text parsed, so
 * the block's text is sent as it is stored (the bulk of a large conversation is never parsed or copied
 * twice). Data of another shape is parsed whole.
 */
function storedContent(data: string): StoredContent {
  const cut = data.indexOf(BLOCK_MEMBER);
  if (cut > 0 && data.endsWith('}')) {
    const head = JSON.parse(`${data.slice(0, cut)}}`) as Partial<ContentEventData>;
    if (head.step_id !== undefined && head.message_id !== undefined && head.role !== undefined && head.timestamp !== undefined) {
      return {
        step_id: head.step_id,
        message_id: head.message_id,
        role: head.role,
        timestamp: head.timestamp,
        blockJson: data.slice(cut + BLOCK_MEMBER.length, -1),
      };
    }
  }
  const { block, ...head } = JSON.parse(data) as ContentEventData;
  return { ...head, blockJson: JSON.stringify(block) };
}

/** The run's content events up to the snapshot, in order, of one turn or of all; a page at a time. */
async function* contentEvents(db: Db, at: Snapshot, stepId?: string): AsyncGenerator<StoredContent> {
  let afterSeq = 0;
  let limit = FIRST_PAGE_ROWS;
  for (;;) {
    let query = teamScope(db, at.teamId)
      .selectFrom('run_events')
      .select(['seq', 'data'])
      .where('run_id', '=', at.runId)
      .where('seq', '>', afterSeq)
      .where('seq', '<=', at.lastSeq);
    query = stepId === undefined ? query.where('kind', '=', 'content') : query.where('step_id', '=', stepId);
    const page = await query.orderBy('seq').limit(limit).execute();
    if (page.length === 0) return;
    afterSeq = Number(page[page.length - 1]!.seq);
    const full = page.length === limit;
    let chars = 0;
    for (const row of page) chars += row.data.length;
    // The rows are let go of as they are turned into text.
    for (const row of page.splice(0)) yield storedContent(row.data);
    if (!full) return;
    limit = Math.max(1, Math.min(PAGE_ROWS, Math.floor((limit * PAGE_CHARS) / Math.max(chars, 1))));
  }
}

/** `JSON.stringify(value)` without its closing brace, for members that follow. */
const openObject = (value: object): string => JSON.stringify(value).slice(0, -1);

/**
 * Events → messages as text: `open(first event)` starts a message (up to its `"content":[`), blocks follow
 * comma-separated, `close` ends it, `separator` goes between messages.
 */
async function* messagesText(
  events: AsyncIterable<StoredContent>,
  open: (e: StoredContent) => string,
  close: string,
  separator: string,
): AsyncGenerator<string> {
  let current: string | undefined;
  for await (const event of events) {
    const block = event.blockJson;
    if (event.message_id === current) {
      yield `,${block}`;
      continue;
    }
    yield `${current === undefined ? '' : close + separator}${open(event)}${block}`;
    current = event.message_id;
  }
  if (current !== undefined) yield close;
}

const stepHead = (step: StepRow): string =>
  openObject({
    id: step.id,
    ...(step.description !== null ? { description: step.description } : {}),
    ...(step.summary !== null ? { summary: step.summary } : {}),
    started_at: step.started_at,
    ...(step.completed_at !== null ? { completed_at: step.completed_at } : {}),
  });

async function* conversationText(db: Db, at: Snapshot, steps: StepRow[]): AsyncGenerator<string> {
  yield `{"conversation_id":${JSON.stringify(conversationIdFor(at.runId))},"steps":[`;
  for (const [i, step] of steps.entries()) {
    yield `${i === 0 ? '' : ','}${stepHead(step)},"messages":[`;
    yield* messagesText(
      contentEvents(db, at, step.id),
      (e) => `${openObject({ message_ids: [e.message_id], role: e.role, timestamp: e.timestamp })},"content":[`,
      ']}',
      ',',
    );
    yield '],"steps":[]}';
  }
  yield ']}';
}

/** GET …/conversation as text; undefined when the team has no such run. */
export async function streamConversation(deps: Deps, teamId: string, runId: string): Promise<AsyncIterable<string> | undefined> {
  const start = await deps.db.transaction().execute(async (tx) => {
    const run = await findRun({ db: tx }, teamId, runId);
    if (!run) return undefined;
    return { at: { teamId, runId, lastSeq: Number(run.event_seq) }, steps: await loadSteps(tx, teamId, runId) };
  });
  return start && conversationText(deps.db, start.at, start.steps);
}

/** The transcript as JSON Lines text (one message per line, in order); undefined when the team has no such run. */
export async function streamTranscript(deps: Deps, teamId: string, runId: string): Promise<AsyncIterable<string> | undefined> {
  const run = await findRun(deps, teamId, runId);
  if (!run) return undefined;
  return messagesText(
    contentEvents(deps.db, { teamId, runId, lastSeq: Number(run.event_seq) }),
    (e) => `${openObject({ step_id: e.step_id, message_id: e.message_id, role: e.role, timestamp: e.timestamp })},"content":[`,
    ']}\n',
    '',
  );
}

/** The conversation as an object (the engine's tests read it so); undefined when the team has no such run. */
export async function readConversation(deps: Deps, teamId: string, runId: string): Promise<ConversationResponse | undefined> {
  const text = await streamConversation(deps, teamId, runId);
  if (!text) return undefined;
  let json = '';
  for await (const chunk of text) json += chunk;
  return JSON.parse(json) as ConversationResponse;
}
