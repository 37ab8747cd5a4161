/**
 * What records a run's state changes inside the change's own transaction: the notification outbox
 * (notifications/outbox.ts). The runs module names only this port, so notifications build on runs and not
 * the other way round (docs/architecture.md §Order inside the domain).
 */
import type { AliasableExpression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database, RunsTable } from '../db/tables';
import type { RunState } from './states';

/** The columns of a run an event reports. */
export type NotifiedRun = Pick<
  RunsTable,
  | 'id'
  | 'team_id'
  | 'title'
  | 'state'
  | 'source'
  | 'factory_id'
  | 'automation_id'
  | 'delivery_id'
  | 'metadata'
  | 'session_id'
  | 'status_message'
  | 'created_at'
  | 'updated_at'
>;

export interface RunStateChange {
  /** The run right after the change. */
  run: NotifiedRun;
  /**
   * False when the statement that changed the run already found the team without an enabled subscription
   * (`hasReceivers` in its RETURNING): nothing to read then. Undefined: not known.
   */
  teamHasSubscriptions?: boolean;
  /** The number of the change's `state` event in the run's log. */
  sequence: number;
  /** The state before the change (null: the run was just created); asked only when a subscription matches. */
  previousState: () => Promise<RunState | null>;
}

export interface RunStateChangeRecorder {
  /**
   * Whether the run's team has anyone to tell, as a column of a statement on `runs` (the state change's
   * UPDATE … RETURNING): most teams have no one, and then recording costs no statement of its own.
   */
  hasReceivers(eb: ExpressionBuilder<Database, 'runs'>): AliasableExpression<SqlBool>;
  /** Records what `change` means for the run's team, inside `tx`. */
  recordInTransaction(tx: Kysely<Database>, change: RunStateChange): Promise<void>;
}
