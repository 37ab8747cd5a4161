/** Webhooks table access. Every query is scoped to the caller's team (the ingress lookup is in ingress/resolve.ts). */
import type { Kysely, Selectable, Updateable } from 'kysely';
import { newestFirstPage } from '../db/keyset';
import type { Database, WebhooksTable } from '../db/tables';
import type { KeysetAfter } from '../pagination';

export type WebhookRow = Selectable<WebhooksTable>;

export async function insertWebhook(db: Kysely<Database>, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

/** The webhook of this team and factory; deleted ones only when asked (their delivery log stays readable). */
export async function findWebhook(
  db: Kysely<Database>,
  teamId: string,
  factoryId: string,
  webhookId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<WebhookRow | undefined> {
  let query = db
    .selectFrom('webhooks')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('factory_id', '=', factoryId)
    .where('id', '=', webhookId);
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
  const query = db
    .selectFrom('webhooks')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('factory_id', '=', factoryId)
    .where('deleted_at', 'is', null);
  return newestFirstPage(query, 'created_at', page).execute();
}

export async function countLiveWebhooks(db: Kysely<Database>, teamId: string, factoryId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('team_id', '=', teamId)
    .where('factory_id', '=', factoryId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function isWebhookNameTaken(
  db: Kysely<Database>,
  teamId: string,
  factoryId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('webhooks')
    .select('id')
    .where('team_id', '=', teamId)
    .where('factory_id', '=', factoryId)
    .where('name', '=', name)
    .where('deleted_at', 'is', null);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function updateWebhookRow(
  db: Kysely<Database>,
  teamId: string,
  webhookId: string,
  changes: Updateable<WebhooksTable>,
): Promise<WebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set(changes)
    .where('team_id', '=', teamId)
    .where('id', '=', webhookId)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
