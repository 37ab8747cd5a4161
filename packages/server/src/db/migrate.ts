/**
 * Schema migrations: timestamp-named files in ./migrations (frozen once landed), applied in name order.
 *
 * The provider is Kysely's FileMigrationProvider idea, but the dynamic import happens in this module
 * rather than inside node_modules, so the `.ts` migration files load under tsx and vitest alike.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import { codeRoot } from '../package-root';

/** `.ts` files under src/, their compiled `.js` under dist/ (the build emits each as its own module). */
export const migrationFolder = path.join(codeRoot, 'db/migrations');

class MigrationFolderProvider implements MigrationProvider {
  constructor(private readonly folder: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of (await fs.readdir(this.folder)).sort()) {
      if (!/\.(ts|js|mjs)$/.test(file) || file.endsWith('.d.ts')) continue;
      const module = (await import(pathToFileURL(path.join(this.folder, file)).href)) as Partial<Migration> & {
        default?: Migration;
      };
      const migration = module.up ? module : module.default;
      if (!migration?.up) throw new Error(`migration ${file} exports no up()`);
      migrations[file.replace(/\.(ts|js|mjs)$/, '')] = migration as Migration;
    }
    return migrations;
  }
}

export function createMigrator(db: Kysely<any>): Migrator {
  // Engineers add migration files in parallel: a file landing "between" applied ones must still apply.
  return new Migrator({ db, provider: new MigrationFolderProvider(migrationFolder), allowUnorderedMigrations: true });
}

export class MigrationError extends Error {}

/** Applies every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = (await createMigrator(db).migrateToLatest()) as MigrationResultSet;
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new MigrationError(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every migration file has been applied (the /readyz check). */
export async function isFullyMigrated(db: Kysely<any>): Promise<boolean> {
  const migrations = await createMigrator(db).getMigrations();
  return migrations.every((m) => m.executedAt !== undefined);
}
