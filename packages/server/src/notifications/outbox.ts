/**
 * The notification outbox: every run state change (runs/transitions.ts, and the insert of a QUEUED run)
 * calls `recordInTransaction` inside its own transaction, which writes one row per event and matching
 * subscription (notification_messages). The rows commit or roll back with the change itself, so a change
 * that commits always has its events — across a crash too — and one that rolls back has none. The
 * delivery workers (./delivery.ts) send them.
 *
 * Cost for a team without subscriptions: nothing for a transition (its UPDATE … RETURNING already says so,
 * `hasReceivers`), one indexed read for a new run. With one that matches: that read, the
 * previous state when the transition did not pin it (one read of the run's event log), one multi-row insert
 * and a notice to the delivery workers (runs/signals.ts).
 */
import type { AliasableExpression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { newId } from '../crypto/ids';
import type { Database } from '../db/tables';
import { runStatusMessage, sessionLinkOf } from '../runs/repository';
import type { RunSignals } from '../runs/signals';
import type { NotifiedRun, RunStateChange, RunStateChangeRecorder } from '../runs/state-changes';
import type { RunState } from '../runs/states';
import type { Settings } from '../settings';
import { eventTypesOf, orderKeyOf, type NotificationEvent, type NotificationEventType, type NotificationRunData } from './events';
import { findEnabledSubscriptionFilters, insertMessages, type MessageRow, type SubscriptionMatchRow } from './repository';

const matches = (subscription: SubscriptionMatchRow, run: NotifiedRun, type: NotificationEventType): boolean =>
  (JSON.parse(subscription.event_types) as string[]).includes(type) &&
  (subscription.factory_id === null || subscription.factory_id === run.factory_id) &&
  (subscription.automation_id === null || subscription.automation_id === run.automation_id);

export class NotificationOutbox implements RunStateChangeRecorder {
  constructor(
    private readonly settings: Pick<Settings, 'publicBaseUrl'>,
    private readonly runSignals: RunSignals,
  ) {}

  /**
   * Whether the run's team has an enabled subscription: most teams have none, and then the outbox costs no
   * statement of its own.
   */
  hasReceivers(eb: ExpressionBuilder<Database, 'runs'>): AliasableExpression<SqlBool> {
    return eb.exists(eb.selectFrom('notification_subscriptions as s').select('s.id').whereRef('s.team_id', '=', 'runs.team_id').where('s.enabled', '=', 1));
  }

  /** Records the events of `change` for every matching enabled subscription of the run's team, inside `tx`. */
  async recordInTransaction(tx: Kysely<Database>, change: RunStateChange): Promise<void> {
    const { run } = change;
    if (change.teamHasSubscriptions === false) return;
    const subscriptions = await findEnabledSubscriptionFilters(tx, run.team_id);
    if (subscriptions.length === 0) return;
    const events = eventTypesOf(run.state as RunState)
      .map((type) => ({ type, receivers: subscriptions.filter((s) => matches(s, run, type)) }))
      .filter((event) => event.receivers.length > 0);
    if (events.length === 0) return;

    const data = this.runData(run, change.sequence, await change.previousState());
    const at = run.updated_at;
    const rows: MessageRow[] = [];
    for (const { type, receivers } of events) {
      const body: NotificationEvent = { id: newId('evt', new Date(at)), type, timestamp: at, data };
      const payload = JSON.stringify(body);
      for (const subscription of receivers) {
        rows.push({
          id: newId('msg', new Date(at)),
          team_id: run.team_id,
          subscription_id: subscription.id,
          event_id: body.id,
          event_type: type,
          run_id: run.id,
          order_key: orderKeyOf(change.sequence, type),
          payload,
          status: 'pending',
          attempts: 0,
          window_attempts: 0,
          next_attempt_at: at,
          window_start: at,
          lease_owner: null,
          lease_expires_at: null,
          created_at: at,
          updated_at: at,
        });
      }
    }
    await insertMessages(tx, run.team_id, rows);
    await this.runSignals.announceInTransaction(tx, 'notifications', run.team_id, run.id);
  }

  /** The event's `data` (contract: NotificationRunData): the run as it is right after the change, never its prompt. */
  private runData(run: NotifiedRun, sequence: number, previousState: RunState | null): NotificationRunData {
    const data: NotificationRunData = {
      run_id: run.id,
      title: run.title,
      state: run.state as RunState,
      previous_state: previousState,
      source: run.source as NotificationRunData['source'],
      factory_uid: run.factory_id,
      automation_id: run.automation_id,
      session_link: sessionLinkOf(this.settings.publicBaseUrl, run),
      sequence,
      created_at: run.created_at,
      updated_at: run.updated_at,
    };
    const status = runStatusMessage(run);
    if (status) data.status_message = status;
    if (run.delivery_id) data.delivery_id = run.delivery_id;
    if (run.metadata) data.metadata = JSON.parse(run.metadata) as NotificationRunData['metadata'];
    return data;
  }
}
