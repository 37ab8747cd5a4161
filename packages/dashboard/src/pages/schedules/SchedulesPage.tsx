/**
 * Scheduled agents (`/schedules`): each with its cron expression and time zone, its next slot and what its
 * last firing did (a run, a slot skipped because the previous run was still going, or why it could not
 * start), and the runs it started (the runs list filtered by `schedule_id`). Admins create, edit, pause,
 * resume and delete (x-required-role in the contract); members read.
 */
import type { ScheduledAgentItem } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { invalidateSchedules, schedulesQuery } from '../../api/schedules';
import { useSession } from '../../session';

const PAGE_SIZE = 50;

const OUTCOMES: Record<string, string> = {
  run_created: 'started a run',
  skipped_overlap: 'skipped: the previous run was still going',
  spawn_failed: 'could not start a run',
};

/** The IANA zones this browser knows (the server checks against its own database and says so). */
const timeZones = (): string[] => {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return supported.includes('UTC') ? supported : ['UTC', ...supported];
};

export function SchedulesPage() {
  const { client, isAdmin } = useSession();
  const pages = useCursorPages();
  const [creating, setCreating] = useState(false);
  const schedules = useQuery(schedulesQuery(client, pages.cursor, PAGE_SIZE));
  return (
    <>
      <PageHeader title="Schedules">
        {isAdmin && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New schedule
          </button>
        )}
      </PageHeader>
      <p className="hint">
        A schedule starts one run of its prompt at every slot its cron expression names in its time zone. A slot whose previous run is still going is skipped;
        slots missed while the server was down fire once.
      </p>
      {creating && (
        <ScheduleForm
          onDone={() => {
            setCreating(false);
            pages.reset();
          }}
        />
      )}
      <ErrorNotice error={schedules.error} />
      {schedules.data && schedules.data.schedules.length === 0 && !pages.hasPrevious && <p className="muted">No schedules yet.</p>}
      <ul className="item-list" aria-label="Schedules">
        {schedules.data?.schedules.map((schedule) => (
          <ScheduleItem key={schedule.id} schedule={schedule} />
        ))}
      </ul>
      <Pager pages={pages} nextCursor={schedules.data?.nextCursor} what="schedules" />
    </>
  );
}

function ScheduleItem({ schedule }: { schedule: ScheduledAgentItem }) {
  const { client, isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const invalidate = () => invalidateSchedules(queryClient);
  const toggle = useMutation({
    mutationFn: () => (schedule.enabled ? client.agent.schedules.pause(schedule.id) : client.agent.schedules.resume(schedule.id)),
    onSuccess: invalidate,
  });
  const history = schedule.history;
  if (editing) return <ScheduleForm schedule={schedule} onDone={() => setEditing(false)} />;
  return (
    <li className="card" aria-label={`Schedule ${schedule.name}`}>
      <div className="item-row">
        <div className="item-main">
          <div>
            <strong className="item-title">{schedule.name}</strong>{' '}
            <span className={`badge ${schedule.enabled ? 'state-succeeded' : ''}`}>{schedule.enabled ? 'active' : 'paused'}</span>
          </div>
          <div>
            <code>{schedule.cron_schedule}</code> <span className="muted">in {schedule.time_zone}</span>
          </div>
        </div>
        {isAdmin && (
          <div className="actions">
            <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
              {schedule.enabled ? 'Pause' : 'Resume'}
            </button>
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <ConfirmButton
              label={`Delete ${schedule.name}`}
              title={`Delete schedule ${schedule.name}?`}
              confirmLabel="Delete schedule"
              danger
              onConfirm={async () => {
                await client.agent.schedules.delete(schedule.id);
                await invalidate();
              }}
            >
              <p>No more runs start from it. The runs it started stay, and still list under its id.</p>
            </ConfirmButton>
          </div>
        )}
      </div>
      <ErrorNotice error={toggle.error} title="Could not change the schedule" />
      {schedule.prompt && <pre className="prompt">{schedule.prompt}</pre>}
      <dl className="fields" aria-label={`Firings of ${schedule.name}`}>
        <dt>Next slot</dt>
        <dd>{history.next_run ? <Time value={history.next_run} /> : <span className="muted">none (paused)</span>}</dd>
        <dt>Last firing</dt>
        <dd>
          {history.last_fired_at ? (
            <>
              <Time value={history.last_fired_at} /> — {OUTCOMES[history.last_outcome ?? ''] ?? history.last_outcome}
              {history.last_run_id && (
                <>
                  {' '}
                  (<Link href={`/runs/${history.last_run_id}`}>its run</Link>)
                </>
              )}
            </>
          ) : (
            <span className="muted">not fired yet</span>
          )}
        </dd>
        {schedule.last_spawn_error && (
          <>
            <dt>Why it could not start</dt>
            <dd className="status-message failed">{schedule.last_spawn_error}</dd>
          </>
        )}
        <dt>Skipped slots</dt>
        <dd>{history.skipped_slots.toLocaleString()}</dd>
        <dt>Runs</dt>
        <dd>
          <Link href={`/runs?schedule_id=${encodeURIComponent(schedule.id)}`}>Runs it started</Link>
        </dd>
      </dl>
    </li>
  );
}

/** Create (no `schedule`) or edit one; the server's 400 (cron grammar, minimum interval, zone) is shown as it says it. */
function ScheduleForm({ schedule, onDone }: { schedule?: ScheduledAgentItem; onDone(): void }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState(schedule?.name ?? '');
  const [cron, setCron] = useState(schedule?.cron_schedule ?? '0 9 * * 1-5');
  const [timeZone, setTimeZone] = useState(schedule?.time_zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC');
  const [prompt, setPrompt] = useState(schedule?.prompt ?? '');
  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), cron_schedule: cron.trim(), time_zone: timeZone, prompt };
      return schedule
        ? client.agent.schedules.update(schedule.id, { ...body, enabled: schedule.enabled, agent_config: schedule.agent_config ?? {} })
        : client.agent.schedules.create(body);
    },
    onSuccess: async () => {
      await invalidateSchedules(queryClient);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const id = schedule?.id ?? 'new';
  return (
    <form className="card" onSubmit={submit} aria-label={schedule ? `Edit ${schedule.name}` : 'New schedule'}>
      <h2 className="card-heading">{schedule ? `Edit ${schedule.name}` : 'New schedule'}</h2>
      <div className="form-row">
        <div>
          <label htmlFor={`schedule-name-${id}`}>Name</label>
          <input id={`schedule-name-${id}`} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`schedule-cron-${id}`}>Cron expression</label>
          <input
            id={`schedule-cron-${id}`}
            required
            spellCheck={false}
            value={cron}
            onChange={(e) => setCron(e.target.value)}
            aria-describedby={`schedule-cron-hint-${id}`}
          />
        </div>
        <div>
          <label htmlFor={`schedule-zone-${id}`}>Time zone</label>
          <select id={`schedule-zone-${id}`} value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
            {(timeZones().includes(timeZone) ? timeZones() : [timeZone, ...timeZones()]).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="hint" id={`schedule-cron-hint-${id}`}>
        Five fields: minute, hour, day of month, month, day of week — e.g. <code>0 9 * * 1-5</code> is 09:00 on weekdays, in the time zone chosen.
      </p>
      <label htmlFor={`schedule-prompt-${id}`}>Prompt</label>
      <textarea id={`schedule-prompt-${id}`} required value={prompt} onChange={(e) => setPrompt(e.target.value)} />
      <ErrorNotice error={save.error} title="Not saved" />
      <div className="actions">
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : schedule ? 'Save schedule' : 'Create schedule'}
        </button>
      </div>
    </form>
  );
}
