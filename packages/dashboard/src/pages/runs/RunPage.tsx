/**
 * One run (`/runs/:runId`, where a run's session_link lands): what it was asked, where it came from, its
 * configuration, state history and transcript, kept live by the run's event stream
 * (`GET /agent/runs/{runId}/events`, replayed from the first event), and the follow-up and cancel actions.
 */
import { isTerminalRunState, type RunContentEvent, type RunItem, type RunStateEvent } from '@agent-runs/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { conversationQuery, invalidateRun, runQuery } from '../../api/runs';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { JsonView } from '../../components/JsonView';
import { PageHeader } from '../../components/Layout';
import { StateBadge } from '../../components/StateBadge';
import { Time } from '../../components/Time';
import { useClient } from '../../session';
import { Artifacts } from './Artifacts';
import { RanIn, Usage } from './RunContext';
import { useEventStream } from './live';
import { saveFile } from './save-file';
import { LiveIndicator } from './LiveIndicator';
import { mergeConversation, Transcript } from './Transcript';
import './runs.css';

interface SeenStateEvent {
  id: string | undefined;
  data: RunStateEvent;
}

export function RunPage({ runId }: { runId: string }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const run = useQuery(runQuery(client, runId));
  const conversation = useQuery(conversationQuery(client, runId));
  const reread = () => void invalidateRun(queryClient, runId);

  const [stateEvents, setStateEvents] = useState<SeenStateEvent[]>([]);
  const [contentEvents, setContentEvents] = useState<RunContentEvent[]>([]);
  // '0': the first stream replays every event of the run; later ones resume after the last seen.
  const lastEventId = useRef('0');
  const [following, setFollowing] = useState(true);
  // Blocks come one event at a time (50 a second and more from a busy agent, thousands when a finished run's
  // stream replays): they are added to the transcript together, once per frame.
  const arriving = useRef<RunContentEvent[]>([]);
  const frame = useRef<number | undefined>(undefined);
  useEffect(() => () => cancelAnimationFrame(frame.current ?? 0), []);
  const addBlock = (block: RunContentEvent) => {
    arriving.current.push(block);
    frame.current ??= requestAnimationFrame(() => {
      frame.current = undefined;
      const added = arriving.current;
      arriving.current = [];
      setContentEvents((seen) => [...seen, ...added]);
    });
  };
  // The stream opens once the conversation is read: its replay of every block would otherwise compete with
  // that read for the server and the page, and the transcript is drawn from the conversation.
  const live = useEventStream(client, runId, following && !conversation.isPending, {
    open: (streamClient) => streamClient.agent.runs.events(runId, { lastEventId: lastEventId.current }),
    onEvent: (event) => {
      if (event.id !== undefined) {
        // A finished run's stream repeats its terminal state when resumed with nothing newer.
        if (Number(event.id) <= Number(lastEventId.current)) return;
        lastEventId.current = event.id;
      }
      if (event.event === 'state') setStateEvents((seen) => [...seen, { id: event.id, data: event.data }]);
      else addBlock(event.data);
    },
    // The stream ends after a terminal state: read the finished run (usage, status) and its conversation.
    onEnd: () => {
      setFollowing(false);
      reread();
    },
  });

  const latestEvent = stateEvents[stateEvents.length - 1]?.data;
  const current: RunItem | undefined = run.data && withLatestState(run.data, latestEvent);
  // Someone re-queued the finished run (a follow-up): follow its events again.
  if (current && !following && !isTerminalRunState(current.state)) setFollowing(true);

  const steps = useMemo(() => mergeConversation(conversation.data, contentEvents), [conversation.data, contentEvents]);

  if (!current) {
    return (
      <>
        <PageHeader title="Run" />
        <ErrorNotice error={run.error} title="Could not load the run" />
        {run.isPending && (
          <p className="loading" role="status">
            Loading the run…
          </p>
        )}
      </>
    );
  }

  const terminal = isTerminalRunState(current.state);
  const followup = (
    <FollowupForm
      runId={runId}
      terminal={terminal}
      blocked={current.state === 'BLOCKED'}
      onSent={() => {
        setFollowing(true);
        reread();
      }}
    />
  );
  return (
    <>
      <PageHeader title={current.title || 'Run'}>
        {following && <LiveIndicator status={live.status} failure={live.failure} />}
        {!terminal && (
          <ConfirmButton
            label="Cancel run"
            title="Cancel this run?"
            confirmLabel="Cancel the run"
            danger
            onConfirm={async () => {
              await client.agent.runs.cancel(runId);
              reread();
            }}
          >
            <p>
              The run stops now: a model call or command in progress is aborted and its state becomes CANCELLED. Its conversation so far is kept. A cancelled
              run cannot be resumed with a follow-up; start a new run instead.
            </p>
          </ConfirmButton>
        )}
      </PageHeader>

      <div className="run-summary">
        <div>
          <RunDetails run={current} />
          <RanIn run={current} />
        </div>
        <section className="card" aria-labelledby="history-heading">
          <h2 id="history-heading">State history</h2>
          {stateEvents.length === 0 ? (
            <p className="muted">No state changes received yet.</p>
          ) : (
            <ol className="state-history">
              {stateEvents.map(({ id, data }, i) => (
                <li key={id ?? i}>
                  <StateBadge state={data.state} />
                  <Time value={data.updated_at} />
                  {data.status_message && <span className="muted">{data.status_message.message}</span>}
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>

      {current.status_message && <StatusMessage run={current} />}
      {/* A blocked run waits for an answer: the box sits under its question. */}
      {current.state === 'BLOCKED' && followup}

      <h2>Prompt</h2>
      <pre className="prompt">{current.prompt}</pre>

      <section aria-labelledby="transcript-heading">
        <h2 id="transcript-heading">Transcript</h2>
        <ErrorNotice error={conversation.error} title="Could not load the conversation" />
        {conversation.isPending ? <p className="muted">Loading the conversation…</p> : <Transcript key={runId} steps={steps} />}
      </section>

      {current.state !== 'CANCELLED' && current.state !== 'BLOCKED' && followup}

      <h2>Configuration</h2>
      {current.agent_config && Object.keys(current.agent_config).length > 0 ? (
        <JsonView value={current.agent_config} />
      ) : (
        <p className="muted">Defaults (no configuration given).</p>
      )}
      <Usage run={current} />

      <Attachments run={current} />
      <Artifacts run={current} />
    </>
  );
}

/** The run as read, with the state of a newer state event from the stream. */
function withLatestState(run: RunItem, event: RunStateEvent | undefined): RunItem {
  if (!event || Date.parse(event.updated_at) < Date.parse(run.updated_at)) return run;
  const { status_message: _previous, ...rest } = run;
  return { ...rest, state: event.state, updated_at: event.updated_at, ...(event.status_message ? { status_message: event.status_message } : {}) };
}

function RunDetails({ run }: { run: RunItem }) {
  return (
    <section className="card" aria-labelledby="details-heading">
      <h2 id="details-heading">Details</h2>
      <dl className="fields">
        <dt>State</dt>
        <dd>
          <StateBadge state={run.state} />
        </dd>
        <dt>Run ID</dt>
        <dd>
          <code>{run.run_id}</code> <CopyButton value={run.run_id} label="run ID" />
        </dd>
        <dt>Source</dt>
        <dd>{run.source ?? '—'}</dd>
        <dt>Creator</dt>
        <dd>
          {run.creator ? (
            <>
              {run.creator.display_name}{' '}
              <span className="muted">
                ({run.creator.type}, <code>{run.creator.uid}</code>)
              </span>
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time value={run.created_at} />
        </dd>
        <dt>Started</dt>
        <dd>
          <Time value={run.started_at} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time value={run.updated_at} />
        </dd>
        {run.session_id && (
          <>
            <dt>Session</dt>
            <dd>
              <code>{run.session_id}</code>
              {run.session_link && (
                <>
                  {' '}
                  <CopyButton value={run.session_link} label="session link" />
                </>
              )}
            </dd>
          </>
        )}
        {run.factory_uid && (
          <>
            <dt>Factory</dt>
            <dd>
              <Link href={`/factories/${run.factory_uid}`}>{run.factory_uid}</Link>
            </dd>
          </>
        )}
        {run.automation_id && (
          <>
            <dt>Automation</dt>
            <dd>
              {run.factory_uid ? (
                <Link href={`/factories/${run.factory_uid}/automations/${run.automation_id}`}>{run.automation_id}</Link>
              ) : (
                <code>{run.automation_id}</code>
              )}
            </dd>
          </>
        )}
        {run.delivery_id && (
          <>
            <dt>Webhook delivery</dt>
            {/* The run does not name the delivery's webhook, so there is no page to link to. */}
            <dd>
              <code>{run.delivery_id}</code>
            </dd>
          </>
        )}
        {run.conversation_id && (
          <>
            <dt>Conversation</dt>
            <dd>
              <code>{run.conversation_id}</code>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

function StatusMessage({ run }: { run: RunItem }) {
  const status = run.status_message;
  if (!status) return null;
  const failed = run.state === 'FAILED' || run.state === 'ERROR';
  return (
    <div className={`notice ${failed ? 'notice-error' : ''}`} role="status" aria-label="Status message">
      {run.state === 'BLOCKED' && <>The agent asks: </>}
      <strong>{status.message}</strong>
      {status.error_code && (
        <>
          {' '}
          · code <code>{status.error_code}</code>
        </>
      )}
      {status.retryable !== undefined && <> · {status.retryable ? 'a follow-up or a new run may succeed' : 'retrying will not help'}</>}
    </div>
  );
}

function FollowupForm({ runId, terminal, blocked, onSent }: { runId: string; terminal: boolean; blocked: boolean; onSent(): void }) {
  const client = useClient();
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await client.agent.runs.followup(runId, { message });
      setMessage('');
      onSent();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card followup" onSubmit={send}>
      <label htmlFor="followup-message">{blocked ? 'Your answer' : 'Follow-up message'}</label>
      <textarea id="followup-message" required value={message} onChange={(e) => setMessage(e.target.value)} aria-describedby="followup-hint" />
      <p className="hint" id="followup-hint">
        {blocked
          ? 'The run waits for this answer to its question: sending re-queues it and it continues with your answer.'
          : terminal
            ? 'Sending re-queues the run: it continues the same conversation as a new turn.'
            : 'Delivered to the agent at its next turn.'}
      </p>
      <ErrorNotice error={error} title="Could not send the follow-up" />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || message.trim() === ''}>
          {blocked ? 'Answer' : 'Send'}
        </button>
      </div>
    </form>
  );
}

function Attachments({ run }: { run: RunItem }) {
  const client = useClient();
  const [error, setError] = useState<unknown>(null);
  if (!run.attachments || run.attachments.length === 0) return null;
  const download = async (name: string) => {
    setError(null);
    try {
      const response = await client.agent.runs.attachment(run.run_id, name);
      saveFile(await response.blob(), name);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section aria-labelledby="attachments-heading">
      <h2 id="attachments-heading">Attachments</h2>
      <ul className="attachments">
        {run.attachments.map((file) => (
          <li key={file.file_name}>
            <button type="button" onClick={() => download(file.file_name)} aria-label={`Download ${file.file_name}`}>
              Download
            </button>
            <code className="break">{file.file_name}</code>
            <span className="muted">
              {file.mime_type}, {file.size.toLocaleString()} bytes
            </span>
          </li>
        ))}
      </ul>
      <ErrorNotice error={error} title="Could not download" />
    </section>
  );
}
