/**
 * A run's environment setup log (docs/decisions.md §Write-only environment variables and the setup log):
 * what each setup command printed, kept for admins only (`GET /agent/runs/{runId}/setup-log`), never in
 * a status message or a run event members read. The writer (engine/environment-setup.ts) has already
 * replaced the environment's secret values; this module stores and reads, always within the team.
 */
import type { Insertable, Selectable } from 'kysely';
import type { components } from '@agent-runs/contract';
import type { RunSetupLogsTable } from '../db/tables';
import { resourceNotFound } from '../problems';
import { findRunState, type Db } from './repository';
import { teamScope } from '../db/scoped';

type RunSetupLog = components['schemas']['RunSetupLog'];
type SetupLogEntry = components['schemas']['SetupLogEntry'];

export type SetupLogRecord = Omit<Insertable<RunSetupLogsTable>, 'position'>;

/** Appends one command's entry after the run's last one. A run is executed by one worker at a time. */
export async function appendSetupLogEntry(db: Db, record: SetupLogRecord): Promise<void> {
  const team = teamScope(db, record.team_id);
  const last = await team
    .selectFrom('run_setup_logs')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('run_id', '=', record.run_id)
    .executeTakeFirst();
  await team.insertInto('run_setup_logs', { ...record, position: Number(last?.position ?? 0) + 1 }).execute();
}

export async function getRunSetupLog(db: Db, teamId: string, runId: string): Promise<RunSetupLog> {
  if (!(await findRunState(db, teamId, runId))) throw resourceNotFound(`Run ${runId} not found.`);
  const rows = await teamScope(db, teamId).selectFrom('run_setup_logs').selectAll().where('run_id', '=', runId).orderBy('position').execute();
  return { run_id: runId, entries: rows.map(toEntry) };
}

const toEntry = (row: Selectable<RunSetupLogsTable>): SetupLogEntry => ({
  environment_id: row.environment_id,
  position: row.command_position,
  command_count: row.command_count,
  command: row.command,
  started_at: row.started_at,
  finished_at: row.finished_at,
  exit_code: row.exit_code,
  result: row.result,
  output: row.output,
  output_truncated: row.output_truncated === 1,
});
