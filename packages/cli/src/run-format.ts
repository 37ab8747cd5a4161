/**
 * How runs, their events and their conversation read for people. Shared by `run` and `runs` (which
 * both print runs), kept out of the command files so neither imports the other.
 */
import type { ArtifactItem, ContentBlock, ConversationResponse, ConversationStep, MessageRole, RunEvent, RunItem, RunSetupLog } from '@agent-runs/sdk';
import { runQuestion } from '@agent-runs/sdk';
import { type Column, cellText, formatFields, formatTime } from './output';

export const RUN_COLUMNS: Column<RunItem>[] = [
  { header: 'RUN ID', value: (run) => run.run_id },
  { header: 'STATE', value: (run) => run.state },
  { header: 'NAME', value: (run) => run.agent_config?.name, maxWidth: 24 },
  { header: 'UPDATED', value: (run) => formatTime(run.updated_at) },
  { header: 'TITLE', value: (run) => run.title, maxWidth: 60 },
];

/** One run as `label: value` lines, JSON field names as labels; a BLOCKED run's status is its `question`. */
export function formatRun(run: RunItem): string {
  const question = runQuestion(run);
  const status =
    run.status_message && question === undefined
      ? `${run.status_message.message}${run.status_message.error_code ? ` (${run.status_message.error_code})` : ''}`
      : undefined;
  const creator = run.creator ? `${run.creator.display_name} (${run.creator.type} ${run.creator.uid})` : undefined;
  return (
    formatFields([
      ['run_id', run.run_id],
      ['title', run.title],
      ['state', run.state],
      ['status', status],
      ['question', question],
      ['name', run.agent_config?.name],
      ['model_id', run.agent_config?.model_id],
      ['source', run.source],
      ['creator', creator],
      ['created_at', formatTime(run.created_at)],
      ['started_at', formatTime(run.started_at)],
      ['updated_at', formatTime(run.updated_at)],
      ['session_link', run.session_link],
      ['factory_uid', run.factory_uid],
      ['automation_id', run.automation_id],
      ['delivery_id', run.delivery_id],
      ['schedule', run.schedule ? `${run.schedule.schedule_name} (${run.schedule.schedule_id}), slot ${formatTime(run.schedule.scheduled_for)}` : undefined],
      ['usage', run.usage ? `${run.usage.total_tokens} tokens` : undefined],
      ['prompt', run.prompt],
    ]) + formatArtifacts(run.artifacts ?? [])
  );
}

/** What a BLOCKED run's page ends with: how to answer its question. */
export const answerHint = (run: RunItem): string =>
  runQuestion(run) === undefined ? '' : `\n\nthe run waits for your answer: agent-runs runs answer ${run.run_id} "<answer>"`;

/** A run's artifacts under an `artifacts:` line, one per line: type, then what identifies it. */
export function formatArtifacts(artifacts: readonly ArtifactItem[]): string {
  if (artifacts.length === 0) return '';
  const lines = artifacts.map((artifact) => `  ${[artifact.artifact_type, ...artifactSummary(artifact)].filter(Boolean).join('  ')}`);
  return `\nartifacts:\n${lines.join('\n')}`;
}

/** What `runs get` shows of one artifact: its uid (for `artifacts get`/`download`) and its name or link. */
function artifactSummary(artifact: ArtifactItem): Array<string | undefined> {
  switch (artifact.artifact_type) {
    case 'FILE':
      return [artifact.data.artifact_uid, artifact.data.filepath, `${artifact.data.size_bytes ?? '?'} bytes`];
    case 'SCREENSHOT':
      return [artifact.data.artifact_uid, artifact.data.mime_type, artifact.data.description];
    case 'PLAN':
      return [artifact.data.artifact_uid, artifact.data.title];
    case 'PULL_REQUEST':
      return [artifact.data.url, `branch ${artifact.data.branch}`];
    case 'EXTERNAL_REFERENCE':
      return [artifact.data.url, artifact.data.reference_type, artifact.data.title];
  }
}

/** One event of `runs watch` as a line: `<time>  <kind>  <what happened>`. */
export function formatEvent(event: RunEvent): string {
  if (event.event === 'state') {
    const { state, updated_at, status_message } = event.data;
    return [formatTime(updated_at), 'state', state, status_message?.message].filter(Boolean).join('  ');
  }
  const { timestamp, role, block } = event.data;
  return formatContent(timestamp, role, block);
}

/** The conversation, one line per content block under a `step <id>` line per turn; nested steps indented. */
export function formatConversation(conversation: ConversationResponse): string {
  const lines: string[] = [];
  for (const { step, depth } of walkSteps(conversation.steps)) {
    const indent = '  '.repeat(depth);
    const times = [formatTime(step.started_at), formatTime(step.completed_at)].filter(Boolean).join(' → ');
    lines.push(`${indent}step ${step.id}${times ? `  ${times}` : ''}`);
    for (const message of step.messages) {
      for (const block of message.content) {
        lines.push(`${indent}  ${formatContent(message.timestamp, message.role, block)}`);
      }
    }
  }
  return lines.length > 0 ? lines.join('\n') : `${conversation.conversation_id}: no steps yet (the run has not started)`;
}

/** Each setup command as a `<time>  command i of n  <result>` line (then `$ command`), then its output, indented. */
export function formatSetupLog(log: RunSetupLog): string {
  if (log.entries.length === 0) return `${log.run_id}: no setup commands ran`;
  return log.entries
    .map((entry) => {
      const head = `${formatTime(entry.started_at)}  command ${entry.position} of ${entry.command_count}  ${entry.result}`;
      const output = entry.output
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => `  ${line}`);
      return [head, `  $ ${entry.command}`, ...(entry.output_truncated ? ['  (earlier output dropped)'] : []), ...(entry.output ? output : [])].join('\n');
    })
    .join('\n');
}

/** The agent's answer: every assistant text block of the conversation, in order, a blank line apart. */
export function answerText(conversation: ConversationResponse): string {
  const texts: string[] = [];
  for (const { step } of walkSteps(conversation.steps)) {
    for (const message of step.messages) {
      if (message.role !== 'assistant') continue;
      for (const block of message.content) if (block.type === 'text') texts.push(block.text);
    }
  }
  return texts.join('\n\n');
}

/** Steps depth first, in conversation order (a turn, then its sub-steps). */
function* walkSteps(steps: readonly ConversationStep[], depth = 0): Generator<{ step: ConversationStep; depth: number }> {
  for (const step of steps) {
    yield { step, depth };
    yield* walkSteps(step.steps ?? [], depth + 1);
  }
}

/** `<time>  <role>  <block>`: a content event of `runs watch` and a block of `runs conversation` alike. */
function formatContent(timestamp: string, role: MessageRole, block: ContentBlock): string {
  return `${formatTime(timestamp)}  ${role}  ${formatBlock(block)}`;
}

function formatBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      // Continuation lines indented under the first; blank ones left blank (no trailing spaces).
      return `text  ${block.text.replace(/\n(?=[^\n])/g, '\n    ')}`;
    case 'action':
      return `action  ${block.category}/${block.name}  ${cellText(JSON.stringify(block.input), 200)}`;
    case 'action_result':
      return `result  ${block.category}/${block.name}  ${block.state}  ${cellText(typeof block.output.text === 'string' ? block.output.text : JSON.stringify(block.output), 200)}`;
    case 'event':
      return `event  ${block.name}${block.data === undefined ? '' : `  ${cellText(JSON.stringify(block.data), 200)}`}`;
    default:
      return cellText(JSON.stringify(block), 200);
  }
}
