/**
 * Factory rules: names unique within the team; `definition_source` fixed at creation (`api`: changed through
 * the REST API; `files`: changed only by definition apply).
 */
import type { AuditTrail } from '../audit/trail';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import { isUniqueViolation } from '../db/dialect';
import type { components } from '@agent-runs/contract';
import { keysetPage, newestFirst } from '../pagination';
import { conflict, resourceNotFound } from '../problems';
import { findFactory, insertFactory, listFactoryRows, type FactoryRow } from './repository';

export type FactoryView = components['schemas']['Factory'];

export const toFactoryView = (row: FactoryRow): FactoryView => ({
  uid: row.id,
  name: row.name,
  definition_source: row.definition_source,
  created_at: row.created_at,
});

type Ctx = Pick<ServerContext, 'db' | 'clock'>;

export async function createFactory(ctx: Ctx, teamId: string, input: components['schemas']['CreateFactoryRequest'], audit: AuditTrail): Promise<FactoryView> {
  const now = ctx.clock.now();
  const row: FactoryRow = {
    id: newId('fac', now),
    team_id: teamId,
    name: input.name,
    definition_source: input.definition_source ?? 'api',
    created_at: toTimestamp(now),
    updated_at: toTimestamp(now),
  };
  try {
    await ctx.db.transaction().execute(async (tx) => {
      await insertFactory(tx, row);
      await audit.record(tx, row.id);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A factory named "${input.name}" already exists in this team.`);
    throw err;
  }
  return toFactoryView(row);
}

/** The team's factory, or 404 (another team's factory is indistinguishable from a missing one). */
export async function requireFactory(ctx: Pick<ServerContext, 'db'>, teamId: string, factoryUid: string): Promise<FactoryRow> {
  const row = await findFactory(ctx.db, teamId, factoryUid);
  if (!row) throw resourceNotFound(`Factory ${factoryUid} not found.`);
  return row;
}

export async function getFactory(ctx: Ctx, teamId: string, factoryUid: string): Promise<FactoryView> {
  return toFactoryView(await requireFactory(ctx, teamId, factoryUid));
}

export async function listFactories(
  ctx: Ctx,
  teamId: string,
  query: { limit: number; cursor?: string },
): Promise<components['schemas']['ListFactoriesResponse']> {
  const { items, page_info } = await keysetPage({
    ...query,
    ...newestFirst,
    fetch: (after, limit) => listFactoryRows(ctx.db, teamId, { limit, after }),
    toItems: (rows) => rows.map(toFactoryView),
  });
  return { factories: items, page_info };
}
