/**
 * `run_artifacts` access (docs/decisions.md §Artifacts). Every query takes the team id. Writes happen
 * inside the publishing worker's transaction, after it locked the run (runs/repository.ts lockExecutingRun),
 * so a run's position counter and its limits are checked and moved by one writer at a time.
 */
import type { Insertable, Selectable } from 'kysely';
import { toBuffer } from '../db/dialect';
import type { RunArtifactsTable } from '../db/tables';
import type { Db } from '../runs/repository';
import { teamScope } from '../db/scoped';

export type ArtifactRow = Selectable<RunArtifactsTable>;
/** An artifact without its bytes: what RunItem.artifacts is made of. */
export type ArtifactMeta = Omit<ArtifactRow, 'content' | 'content_sha256' | 'source_path' | 'external_url'>;

const META_COLUMNS = ['id', 'run_id', 'team_id', 'position', 'artifact_type', 'data', 'size', 'created_at'] as const satisfies ReadonlyArray<keyof ArtifactRow>;

const normalizeMeta = <R extends Pick<ArtifactRow, 'position' | 'size'>>(row: R): R => ({ ...row, position: Number(row.position), size: Number(row.size) });

export async function insertArtifact(tx: Db, row: Insertable<RunArtifactsTable>): Promise<void> {
  await teamScope(tx, row.team_id).insertInto('run_artifacts', row).execute();
}

/** How many artifacts the run has and how many bytes they hold. */
export async function artifactTotals(tx: Db, teamId: string, runId: string): Promise<{ count: number; bytes: number }> {
  const row = await teamScope(tx, teamId)
    .selectFrom('run_artifacts')
    .select((eb) => [eb.fn.countAll().as('count'), eb.fn.coalesce(eb.fn.sum('size'), eb.lit(0)).as('bytes')])
    .where('run_id', '=', runId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), bytes: Number(row.bytes) };
}

/** The latest artifact the run published from this path of its artifact directory (its content hash). */
export async function findLatestFromSource(tx: Db, teamId: string, runId: string, sourcePath: string): Promise<{ content_sha256: string | null } | undefined> {
  return teamScope(tx, teamId)
    .selectFrom('run_artifacts')
    .select('content_sha256')
    .where('run_id', '=', runId)
    .where('source_path', '=', sourcePath)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The artifacts of some runs of the team (no bytes), each run's in publication order. */
export async function listArtifactMeta(db: Db, teamId: string, runIds: readonly string[]): Promise<ArtifactMeta[]> {
  if (runIds.length === 0) return [];
  const rows = await teamScope(db, teamId)
    .selectFrom('run_artifacts')
    .select(META_COLUMNS)
    .where('run_id', 'in', [...runIds])
    .orderBy('run_id')
    .orderBy('position')
    .execute();
  return rows.map(normalizeMeta);
}

/** One artifact of the team, without its bytes. */
export async function findArtifactMeta(db: Db, teamId: string, artifactId: string): Promise<ArtifactMeta | undefined> {
  const row = await teamScope(db, teamId).selectFrom('run_artifacts').select(META_COLUMNS).where('id', '=', artifactId).executeTakeFirst();
  return row ? normalizeMeta(row) : undefined;
}

/** One artifact of the team with its bytes (null for a link). */
export async function findArtifactContent(db: Db, teamId: string, artifactId: string): Promise<(ArtifactMeta & { content: Buffer | null }) | undefined> {
  const row = await teamScope(db, teamId)
    .selectFrom('run_artifacts')
    .select([...META_COLUMNS, 'content'])
    .where('id', '=', artifactId)
    .executeTakeFirst();
  return row ? { ...normalizeMeta(row), content: row.content === null ? null : toBuffer(row.content) } : undefined;
}

/** The run of the team that most recently published an EXTERNAL_REFERENCE with exactly this URL. */
export async function findRunIdByExternalUrl(db: Db, teamId: string, url: string): Promise<string | undefined> {
  const row = await teamScope(db, teamId)
    .selectFrom('run_artifacts')
    .select('run_id')
    .where('external_url', '=', url)
    .orderBy('created_at', 'desc')
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.run_id;
}
