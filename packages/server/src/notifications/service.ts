/**
 * Notification subscription rules (contract: the Notifications tag; docs/decisions.md §Outbound notifications):
 *
 * - at most `notifications.subscriptionsPerTeam` (20) per team (409 limit_exceeded), counted under the
 *   team's row lock so concurrent creates cannot pass it;
 * - the URL is checked when set (./target.ts; 400 naming `$.url`) and again by every delivery;
 * - a filter names a factory and/or an automation of the team (422 naming the field otherwise);
 * - the signing secret is generated here, encrypted with ctx.secrets, answered only by create and
 *   rotate-secret, never logged; a rotation keeps the previous secret signing for
 *   `notifications.secretOverlapHours`;
 * - disabling is `disabled_reason: manual`; enabling clears the reason and the failing period;
 * - replay re-queues one event of the subscription, due now, with a new retry window.
 */
import { toggleAction, type AuditTrail } from '../audit/trail';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import { isDeadlock } from '../db/dialect';
import { findTeamAutomation } from '../automations/repository';
import { findFactory } from '../factories/repository';
import type { components } from '@agent-runs/contract';
import { filterFingerprint, keysetPage, newestFirst } from '../pagination';
import { conflict, invalidRequest, limitExceeded, resourceNotFound, validationFailed } from '../problems';
import { lockTeam } from '../teams/repository';
import {
  countSubscriptions,
  deleteSubscriptionRow,
  findMessage,
  findSubscription,
  insertSubscription,
  listAttemptRows,
  listSubscriptionRows,
  requeueMessage,
  updateSubscriptionRow,
  type AttemptRow,
  type SubscriptionRow,
} from './repository';
import { generateNotificationSecret } from './signing';
import { NotificationTargets } from './target';

type Schemas = components['schemas'];
export type NotificationSubscriptionView = Schemas['NotificationSubscription'];
export type NotificationSubscriptionWithSecretView = Schemas['NotificationSubscriptionWithSecret'];
export type CreateNotificationSubscriptionInput = Schemas['CreateNotificationSubscriptionRequest'];
export type UpdateNotificationSubscriptionInput = Schemas['UpdateNotificationSubscriptionRequest'];
type NotificationFilterInput = Schemas['NotificationFilter'];

type Ctx = Pick<ServerContext, 'db' | 'clock' | 'secrets' | 'settings'>;

export function toSubscriptionView(ctx: Pick<ServerContext, 'clock'>, row: SubscriptionRow): NotificationSubscriptionView {
  const overlapEnds = row.previous_secret !== null ? row.previous_secret_expires_at : null;
  return {
    uid: row.id,
    url: row.url,
    description: row.description,
    event_types: JSON.parse(row.event_types) as NotificationSubscriptionView['event_types'],
    filter: { factory_uid: row.factory_id, automation_id: row.automation_id },
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    failing_since: row.failing_since,
    previous_secret_expires_at: overlapEnds !== null && overlapEnds > toTimestamp(ctx.clock.now()) ? overlapEnds : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const toAttemptView = (row: AttemptRow): Schemas['NotificationAttempt'] => ({
  uid: row.id,
  event_id: row.event_id,
  event_type: row.event_type,
  run_id: row.run_id,
  attempt: Number(row.attempt),
  attempted_at: row.attempted_at,
  outcome: row.outcome,
  status_code: row.status_code === null ? null : Number(row.status_code),
  latency_ms: row.latency_ms === null ? null : Number(row.latency_ms),
  error: row.error,
  response_excerpt: row.response_excerpt,
  next_attempt_at: row.next_attempt_at,
});

/** The URL as it will be dialled (WHATWG-normalised), or 400 naming `$.url`. */
function checkedUrl(ctx: Pick<ServerContext, 'settings'>, raw: string): string {
  const refusal = new NotificationTargets(ctx.settings.notifications).refusal(raw);
  if (refusal) throw invalidRequest(`url ${refusal}.`, [{ path: '$.url', message: refusal }]);
  return new URL(raw).href;
}

/** The filter's references, each checked to be the team's (422 naming the field otherwise). */
async function checkedFilter(
  ctx: Pick<ServerContext, 'db'>,
  teamId: string,
  filter: NotificationFilterInput | undefined,
): Promise<{ factory_id: string | null; automation_id: string | null }> {
  const factoryId = filter?.factory_uid ?? null;
  const automationId = filter?.automation_id ?? null;
  if (factoryId !== null && !(await findFactory(ctx.db, teamId, factoryId))) {
    throw validationFailed(`filter.factory_uid ${factoryId} names no factory of this team.`, {
      errors: [{ path: '$.filter.factory_uid', message: 'names no factory of this team' }],
    });
  }
  if (automationId !== null) {
    const automation = await findTeamAutomation(ctx.db, teamId, automationId);
    if (!automation) {
      throw validationFailed(`filter.automation_id ${automationId} names no automation of this team.`, {
        errors: [{ path: '$.filter.automation_id', message: 'names no automation of this team' }],
      });
    }
    if (factoryId !== null && automation.factory_id !== factoryId) {
      throw validationFailed(`Automation ${automationId} belongs to another factory than ${factoryId}: no run would match.`, {
        errors: [{ path: '$.filter.automation_id', message: 'is an automation of another factory than filter.factory_uid' }],
      });
    }
  }
  return { factory_id: factoryId, automation_id: automationId };
}

async function requireSubscription(ctx: Pick<ServerContext, 'db'>, teamId: string, subscriptionUid: string): Promise<SubscriptionRow> {
  const row = await findSubscription(ctx.db, teamId, subscriptionUid);
  if (!row) throw resourceNotFound(`Notification subscription ${subscriptionUid} not found.`);
  return row;
}

export async function createSubscription(
  ctx: Ctx,
  teamId: string,
  input: CreateNotificationSubscriptionInput,
  audit: AuditTrail,
): Promise<NotificationSubscriptionWithSecretView> {
  const url = checkedUrl(ctx, input.url);
  const filter = await checkedFilter(ctx, teamId, input.filter);
  const secret = generateNotificationSecret();
  const now = ctx.clock.now();
  const nowTs = toTimestamp(now);
  const enabled = input.enabled !== false;
  const row: SubscriptionRow = {
    id: newId('sub', now),
    team_id: teamId,
    url,
    description: input.description ?? null,
    event_types: JSON.stringify(input.event_types),
    ...filter,
    enabled: enabled ? 1 : 0,
    disabled_reason: enabled ? null : 'manual',
    disabled_at: enabled ? null : nowTs,
    failing_since: null,
    secret: ctx.secrets.encrypt(secret),
    previous_secret: null,
    previous_secret_expires_at: null,
    created_at: nowTs,
    updated_at: nowTs,
  };
  await ctx.db.transaction().execute(async (tx) => {
    // Serialises creates of the team, so the count cannot be raced past the limit.
    await lockTeam(tx, teamId);
    const limit = ctx.settings.notifications.subscriptionsPerTeam;
    if ((await countSubscriptions(tx, teamId)) >= limit) {
      throw limitExceeded(`A team holds at most ${limit} notification subscriptions; delete one before creating another.`);
    }
    await insertSubscription(tx, row);
    await audit.record(tx, row.id);
  });
  return { ...toSubscriptionView(ctx, row), secret };
}

export async function listSubscriptions(
  ctx: Ctx,
  teamId: string,
  query: { limit: number; cursor?: string },
): Promise<Schemas['ListNotificationSubscriptionsResponse']> {
  const { items, page_info } = await keysetPage({
    ...query,
    ...newestFirst,
    fetch: (after, limit) => listSubscriptionRows(ctx.db, teamId, { limit, after }),
    toItems: (rows) => rows.map((row) => toSubscriptionView(ctx, row)),
  });
  return { subscriptions: items, page_info };
}

export async function getSubscription(ctx: Ctx, teamId: string, subscriptionUid: string): Promise<NotificationSubscriptionView> {
  return toSubscriptionView(ctx, await requireSubscription(ctx, teamId, subscriptionUid));
}

export async function updateSubscription(
  ctx: Ctx,
  teamId: string,
  subscriptionUid: string,
  input: UpdateNotificationSubscriptionInput,
  audit: AuditTrail,
): Promise<NotificationSubscriptionView> {
  const current = await requireSubscription(ctx, teamId, subscriptionUid);
  const nowTs = toTimestamp(ctx.clock.now());
  const changes: Parameters<typeof updateSubscriptionRow>[3] = { updated_at: nowTs };
  if (input.url !== undefined) changes.url = checkedUrl(ctx, input.url);
  if (input.filter !== undefined) Object.assign(changes, await checkedFilter(ctx, teamId, input.filter));
  if (input.event_types !== undefined) changes.event_types = JSON.stringify(input.event_types);
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled === false && current.enabled === 1) Object.assign(changes, { enabled: 0, disabled_reason: 'manual', disabled_at: nowTs });
  if (input.enabled === true && current.enabled === 0) Object.assign(changes, { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null });
  const updated = await ctx.db.transaction().execute(async (tx) => {
    const row = await updateSubscriptionRow(tx, teamId, current.id, changes);
    if (!row) throw resourceNotFound(`Notification subscription ${subscriptionUid} not found.`);
    await audit.record(tx, row.id, toggleAction(input));
    return row;
  });
  return toSubscriptionView(ctx, updated);
}

/** Attempts at a delete that PostgreSQL chose as a deadlock's victim before the answer is an error. */
const DELETE_ATTEMPTS = 3;

export async function deleteSubscription(ctx: Ctx, teamId: string, subscriptionUid: string, audit: AuditTrail): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.db.transaction().execute(async (tx) => {
        if (!(await deleteSubscriptionRow(tx, teamId, subscriptionUid))) throw resourceNotFound(`Notification subscription ${subscriptionUid} not found.`);
        await audit.record(tx, subscriptionUid);
      });
      return;
    } catch (err) {
      // The cascade to the subscription's outbox locks its messages after the subscription, while a delivery
      // worker locks a message before touching its subscription: PostgreSQL aborts one of the two.
      if (!isDeadlock(err) || attempt >= DELETE_ATTEMPTS) throw err;
    }
  }
}

export async function rotateSubscriptionSecret(
  ctx: Ctx,
  teamId: string,
  subscriptionUid: string,
  audit: AuditTrail,
): Promise<NotificationSubscriptionWithSecretView> {
  const current = await requireSubscription(ctx, teamId, subscriptionUid);
  const secret = generateNotificationSecret();
  const now = ctx.clock.now();
  const overlapMs = ctx.settings.notifications.secretOverlapHours * 3_600_000;
  const updated = await ctx.db.transaction().execute(async (tx) => {
    const row = await updateSubscriptionRow(tx, teamId, current.id, {
      secret: ctx.secrets.encrypt(secret),
      // Only the secret just replaced keeps signing: one rotated out earlier stops now (contract: rotate-secret).
      previous_secret: overlapMs > 0 ? current.secret : null,
      previous_secret_expires_at: overlapMs > 0 ? toTimestamp(new Date(now.getTime() + overlapMs)) : null,
      updated_at: toTimestamp(now),
    });
    if (!row) throw resourceNotFound(`Notification subscription ${subscriptionUid} not found.`);
    await audit.record(tx, row.id);
    return row;
  });
  return { ...toSubscriptionView(ctx, updated), secret };
}

export async function listAttempts(
  ctx: Ctx,
  teamId: string,
  subscriptionUid: string,
  query: { limit: number; cursor?: string; eventId?: string; runId?: string },
): Promise<Schemas['ListNotificationAttemptsResponse']> {
  await requireSubscription(ctx, teamId, subscriptionUid);
  const filters = { eventId: query.eventId, runId: query.runId };
  const { items, page_info } = await keysetPage({
    limit: query.limit,
    ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    sortKey: 'attempted_at',
    order: 'desc',
    scope: filterFingerprint({ event_id: query.eventId, run_id: query.runId }),
    keyOf: (row: AttemptRow) => ({ value: row.attempted_at, id: row.id }),
    fetch: (after, limit) => listAttemptRows(ctx.db, teamId, subscriptionUid, filters, { limit, after }),
    toItems: (rows) => rows.map(toAttemptView),
  });
  return { attempts: items, page_info };
}

export async function replayEvent(
  ctx: Ctx & Pick<ServerContext, 'runSignals'>,
  teamId: string,
  subscriptionUid: string,
  eventId: string,
  audit: AuditTrail,
): Promise<Schemas['ReplayNotificationEventResponse']> {
  const subscription = await requireSubscription(ctx, teamId, subscriptionUid);
  const message = await findMessage(ctx.db, teamId, subscription.id, eventId);
  if (!message)
    throw resourceNotFound(`Event ${eventId} of notification subscription ${subscriptionUid} not found (never recorded for it, or past retention).`);
  if (subscription.enabled !== 1)
    throw conflict(`Notification subscription ${subscriptionUid} is disabled; enable it before replaying its events.`, {
      headers: { 'x-should-retry': 'false' },
    });
  const now = toTimestamp(ctx.clock.now());
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await requeueMessage(tx, teamId, message.id, now)))
      throw resourceNotFound(`Event ${eventId} of notification subscription ${subscriptionUid} not found.`);
    await ctx.runSignals.announceInTransaction(tx, 'notifications', teamId, message.run_id);
    await audit.record(tx, eventId);
  });
  ctx.runSignals.notifyRunEvent(teamId, message.run_id);
  return { event_id: eventId, subscription_uid: subscription.id, next_attempt_at: now };
}
