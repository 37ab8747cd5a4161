/**
 * The event types of outbound notifications and the body each event is sent as (contract:
 * NotificationEventType, NotificationEvent). The types come from runs/states.ts: `run.state_changed` for
 * every change, and one type per terminal state.
 */
import type { components } from '../generated/api';
import { isTerminalState, type RunState, type TerminalState } from '../runs/states';

type Schemas = components['schemas'];
export type NotificationEvent = Schemas['NotificationEvent'];
export type NotificationRunData = Schemas['NotificationRunData'];

const STATE_CHANGED = 'run.state_changed';
type DerivedEventType = typeof STATE_CHANGED | `run.${Lowercase<TerminalState>}`;
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * The contract's enum, held against runs/states.ts: when a terminal state has no event type in the contract,
 * or the contract names one no terminal state has, this is `never` and every use fails the type check.
 */
export type NotificationEventType = SameSet<Schemas['NotificationEventType'], DerivedEventType> extends true ? DerivedEventType : never;

/** The events one change into `state` makes, in their delivery order: every change, then the terminal state's own. */
export function eventTypesOf(state: RunState): NotificationEventType[] {
  if (!isTerminalState(state)) return [STATE_CHANGED];
  return [STATE_CHANGED, `run.${(state as TerminalState).toLowerCase() as Lowercase<TerminalState>}`];
}

/** Position of an event within its run's delivery order (NotificationMessagesTable.order_key). */
export const orderKeyOf = (sequence: number, type: NotificationEventType): number => sequence * 2 + (type === STATE_CHANGED ? 0 : 1);
