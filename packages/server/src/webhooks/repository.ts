/** Webhooks table access. Every query is scoped to the caller's team (the ingress lookup is in ingress/resolve.ts). */
import type { Kysely, Selectable, Updateable } from 'kysely';
import { newestFirstPage } from '../db/keyset';
import type { Database, WebhooksTable } from '../db/tables';
import type { KeysetAfter } from '../pagination';
import { teamScope } from '../db/scoped';
import { isNameTaken, updateRow } from '../db/team-rows';

export type WebhookRow = Selectable<WebhooksTable>;

export async function insertWebhook(db: Kysely<Database>, row: WebhookRow): Promise<void> {
  await teamScope(db, row.team_id).insertInto('webhooks', row).execute();
}

/** The webhook of this team and factory; deleted ones only when asked (their delivery log stays readable). */
export async function findWebhook(
  db: Kysely<Database>,
  teamId: string,
  factoryId: string,
  webhookId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<WebhookRow | undefined> {
  let query = teamScope(db, teamId).selectFrom('webhooks').selectAll().where('factory_id', '=', factoryId).where('id', '=', webhookId);
  if (!options.includeDeleted) query = query.where('deleted_at', 'is', null);
  return query.executeTakeFirst();
}

/** Live webhooks of a factory, newest first, after `page.after` (the previous page's last row). */
export async function listWebhookRows(
  db: Kysely<Database>,
  teamId: string,
  factoryId: string,
  page: { limit: number; after?: KeysetAfter | undefined },
): Promise<WebhookRow[]> {
  const query = teamScope(db, teamId).selectFrom('webhooks').selectAll().where('factory_id', '=', factoryId).where('deleted_at', 'is', null);
  return newestFirstPage(query, 'created_at', page).execute();
}

export async function countLiveWebhooks(db: Kysely<Database>, teamId: string, factoryId: string): Promise<number> {
  const row = await teamScope(db, teamId)
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('factory_id', '=', factoryId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Among the factory's live webhooks (a deleted webhook's name is free again). */
export function isWebhookNameTaken(db: Kysely<Database>, teamId: string, factoryId: string, name: string, exceptId?: string): Promise<boolean> {
  return isNameTaken(db, teamId, 'webhooks', name, { within: { factory_id: factoryId, deleted_at: null }, exceptId });
}

/** A live webhook only: a deleted one is never changed again. */
export function updateWebhookRow(db: Kysely<Database>, teamId: string, webhookId: string, changes: Updateable<WebhooksTable>): Promise<WebhookRow | undefined> {
  return updateRow(db, teamId, 'webhooks', webhookId, changes, { deleted_at: null });
}
