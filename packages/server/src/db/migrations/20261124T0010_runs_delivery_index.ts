/**
 * Runs by the webhook delivery that started them: `GET /agent/runs?delivery_id=…`, which the dashboard's
 * Recent deliveries uses to show the runs an accepted delivery (and its replays) started.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('runs_team_delivery_idx').on('runs').columns(['team_id', 'delivery_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_team_delivery_idx').execute();
}
