/**
 * Environment images (docs/decisions.md §Environment images): an environment's `docker_image` and the
 * name of the team secret with its registry credentials; a run's `image_digest`, the digest it ran on.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('environments').addColumn('docker_image', 'text').execute();
  await db.schema.alterTable('environments').addColumn('registry_secret_name', 'text').execute();
  await db.schema.alterTable('runs').addColumn('image_digest', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runs').dropColumn('image_digest').execute();
  await db.schema.alterTable('environments').dropColumn('registry_secret_name').execute();
  await db.schema.alterTable('environments').dropColumn('docker_image').execute();
}
