/**
 * Repositories of an environment (docs/decisions.md §Repositories and pull requests): one JSON column
 * holding Oz's `github_repos`, the `repos` extension (git URLs), the team secret that holds the git token
 * and `auto_pr`. NULL for an environment without repositories.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('environments').addColumn('repositories', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('environments').dropColumn('repositories').execute();
}
