/**
 * Automations table access and its webhook index. EVERY query takes the team id (the ingress gets it from
 * the webhook it resolved, so even delivery-time reads are team-scoped).
 */
import type { Kysely, Selectable, Updateable } from 'kysely';
import { compiledQuery } from '../db/compiled-query';
import { newestFirstPage } from '../db/keyset';
import type { AutomationsTable, Database, WebhookDeliveriesTable, WebhooksTable } from '../db/tables';
import type { KeysetAfter } from '../pagination';
import { teamScope } from '../db/scoped';
import { deleteRow, isNameTaken, updateRow } from '../db/team-rows';

export type AutomationRow = Selectable<AutomationsTable>;

export async function insertAutomation(db: Kysely<Database>, row: AutomationRow): Promise<void> {
  await teamScope(db, row.team_id).insertInto('automations', row).execute();
}

export async function findAutomation(db: Kysely<Database>, teamId: string, factoryId: string, automationId: string): Promise<AutomationRow | undefined> {
  return teamScope(db, teamId).selectFrom('automations').selectAll().where('factory_id', '=', factoryId).where('id', '=', automationId).executeTakeFirst();
}

/** The team's automation of whichever factory (a notification subscription's filter names it alone). */
export function findTeamAutomation(db: Kysely<Database>, teamId: string, automationId: string): Promise<AutomationRow | undefined> {
  return teamScope(db, teamId).selectFrom('automations').selectAll().where('id', '=', automationId).executeTakeFirst();
}

/** Newest first, after `page.after` (the previous page's last row). Fetches limit + 1. */
export async function listAutomationRows(
  db: Kysely<Database>,
  teamId: string,
  factoryId: string,
  page: { limit: number; after?: KeysetAfter | undefined },
): Promise<AutomationRow[]> {
  const query = teamScope(db, teamId).selectFrom('automations').selectAll().where('factory_id', '=', factoryId);
  return newestFirstPage(query, 'created_at', page).execute();
}

/** Every automation of a factory (definition apply diffs against them). */
export async function listAllAutomationRows(db: Kysely<Database>, teamId: string, factoryId: string): Promise<AutomationRow[]> {
  return teamScope(db, teamId).selectFrom('automations').selectAll().where('factory_id', '=', factoryId).orderBy('created_at').orderBy('id').execute();
}

export function isAutomationNameTaken(db: Kysely<Database>, teamId: string, factoryId: string, name: string, exceptId?: string): Promise<boolean> {
  return isNameTaken(db, teamId, 'automations', name, { within: { factory_id: factoryId }, exceptId });
}

export function updateAutomationRow(
  db: Kysely<Database>,
  teamId: string,
  automationId: string,
  changes: Updateable<AutomationsTable>,
): Promise<AutomationRow | undefined> {
  return updateRow(db, teamId, 'automations', automationId, changes);
}

export async function deleteAutomationRow(db: Kysely<Database>, teamId: string, automationId: string): Promise<boolean> {
  // The index rows go first: SQLite only cascades with foreign_keys on, and this must not depend on it.
  const team = teamScope(db, teamId);
  await team.deleteFrom('automation_webhooks').where('automation_id', '=', automationId).execute();
  return deleteRow(db, teamId, 'automations', automationId);
}

/** Rewrites the automation's webhook index to exactly `webhookIds`. */
export async function replaceAutomationWebhooks(db: Kysely<Database>, teamId: string, automationId: string, webhookIds: readonly string[]): Promise<void> {
  const team = teamScope(db, teamId);
  await team.deleteFrom('automation_webhooks').where('automation_id', '=', automationId).execute();
  // One row per insert: SQLite and large multi-row inserts do not mix well; an automation names few webhooks.
  for (const webhookId of new Set(webhookIds)) {
    await team.insertInto('automation_webhooks', { automation_id: automationId, webhook_id: webhookId }).execute();
  }
}

export type WebhookStateRow = Pick<Selectable<WebhooksTable>, 'id' | 'name' | 'enabled' | 'deleted_at' | 'definition_file'>;

/** The factory's webhooks among `webhookIds`, deleted ones included (for `selected_webhooks`). */
export async function findWebhookStates(db: Kysely<Database>, teamId: string, factoryId: string, webhookIds: readonly string[]): Promise<WebhookStateRow[]> {
  if (webhookIds.length === 0) return [];
  return teamScope(db, teamId)
    .selectFrom('webhooks')
    .select(['id', 'name', 'enabled', 'deleted_at', 'definition_file'])
    .where('factory_id', '=', factoryId)
    .where('id', 'in', [...new Set(webhookIds)])
    .execute();
}

/** Every webhook of the factory, deleted ones included (what `webhook_ids` may refer to). */
export async function listFactoryWebhookRefs(db: Kysely<Database>, teamId: string, factoryId: string): Promise<WebhookStateRow[]> {
  return teamScope(db, teamId)
    .selectFrom('webhooks')
    .select(['id', 'name', 'enabled', 'deleted_at', 'definition_file'])
    .where('factory_id', '=', factoryId)
    .execute();
}

/** The factory's live webhooks, whole rows (definition apply diffs against them). */
export async function listLiveFactoryWebhooks(db: Kysely<Database>, teamId: string, factoryId: string): Promise<Array<Selectable<WebhooksTable>>> {
  return teamScope(db, teamId)
    .selectFrom('webhooks')
    .selectAll()
    .where('factory_id', '=', factoryId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** What the delivery-time matcher needs to know is current: id and version of each candidate. */
export interface CandidateAutomation {
  id: string;
  updated_at: string;
}

/**
 * Enabled automations of the factory selecting the webhook (the index lookup of every accepted delivery),
 * in creation order. Only ids and versions: the filters come from the compiled-filter cache.
 */
export async function listEnabledCandidates(db: Kysely<Database>, teamId: string, factoryId: string, webhookId: string): Promise<CandidateAutomation[]> {
  return (await selectEnabledCandidates(db, teamId, factoryId, webhookId)).rows;
}

/** Compiled once (db/compiled-query.ts): it runs for every accepted delivery. */
const selectEnabledCandidates = compiledQuery((db, teamId: string, factoryId: string, webhookId: string) =>
  teamScope(db, teamId)
    .selectFrom('automation_webhooks as aw')
    .innerJoin('automations as a', 'a.id', 'aw.automation_id')
    .select(['a.id', 'a.updated_at'])
    .where('aw.webhook_id', '=', webhookId)
    .where('a.team_id', '=', teamId)
    .where('a.factory_id', '=', factoryId)
    .where('a.enabled', '=', 1)
    .orderBy('a.created_at')
    .orderBy('a.id'),
);

/** Stored triggers of some automations (cache misses of the compiled-filter cache). */
export async function findTriggers(
  db: Kysely<Database>,
  teamId: string,
  automationIds: readonly string[],
): Promise<Array<Pick<AutomationRow, 'id' | 'updated_at' | 'triggers'>>> {
  if (automationIds.length === 0) return [];
  return teamScope(db, teamId)
    .selectFrom('automations')
    .select(['id', 'updated_at', 'triggers'])
    .where('id', 'in', [...automationIds])
    .execute();
}

/** Name, prompt and config of the automations that matched (what their runs are made of). */
export async function findRunTemplates(
  db: Kysely<Database>,
  teamId: string,
  automationIds: readonly string[],
): Promise<Array<Pick<AutomationRow, 'id' | 'name' | 'prompt' | 'config'>>> {
  if (automationIds.length === 0) return [];
  return teamScope(db, teamId)
    .selectFrom('automations')
    .select(['id', 'name', 'prompt', 'config'])
    .where('id', 'in', [...automationIds])
    .execute();
}

/**
 * A delivery of any webhook of the factory (deleted webhooks included: their log stays readable), with its
 * stored payload — what Test filter evaluates against.
 */
export async function findFactoryDelivery(
  db: Kysely<Database>,
  teamId: string,
  factoryId: string,
  deliveryId: string,
): Promise<Pick<Selectable<WebhookDeliveriesTable>, 'id' | 'webhook_id' | 'label' | 'payload'> | undefined> {
  return teamScope(db, teamId)
    .selectFrom('webhook_deliveries')
    .select(['id', 'webhook_id', 'label', 'payload'])
    .where('factory_id', '=', factoryId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}
