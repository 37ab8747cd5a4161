/**
 * The event types of outbound notifications and the body each event is sent as (contract:
 * NotificationEventType, NotificationEvent). The types come from runs/states.ts: `run.state_changed` for
 * every change, and one type per notified state (the terminal ones and BLOCKED).
 */
import type { components } from '@agent-runs/contract';
import { isNotifiedState, type NotifiedState, type RunState } from '../runs/states';

type Schemas = components['schemas'];
export type NotificationEvent = Schemas['NotificationEvent'];
export type NotificationRunData = Schemas['NotificationRunData'];

const STATE_CHANGED = 'run.state_changed';
type DerivedEventType = typeof STATE_CHANGED | `run.${Lowercase<NotifiedState>}`;
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * The contract's enum, held against runs/states.ts: when a notified state has no event type in the contract,
 * or the contract names one no notified state has, this is `never` and every use fails the type check.
 */
export type NotificationEventType = SameSet<Schemas['NotificationEventType'], DerivedEventType> extends true ? DerivedEventType : never;

/** The events one change into `state` makes, in their delivery order: every change, then the notified state's own. */
export function eventTypesOf(state: RunState): NotificationEventType[] {
  if (!isNotifiedState(state)) return [STATE_CHANGED];
  return [STATE_CHANGED, `run.${state.toLowerCase() as Lowercase<NotifiedState>}`];
}

/** Position of an event within its run's delivery order (NotificationMessagesTable.order_key). */
export const orderKeyOf = (sequence: number, type: NotificationEventType): number => sequence * 2 + (type === STATE_CHANGED ? 0 : 1);
