/**
 * Team secret rules: values are write-only (encrypted with the SecretBox, never answered, never logged);
 * a value a url_token webhook uses must be URL-safe; a secret a live webhook names cannot be deleted.
 */
import type { AuditTrail } from '../audit/trail';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import type { components } from '@agent-runs/contract';
import { keysetPage } from '../pagination';
import { conflict, resourceNotFound, validationFailed } from '../problems';
import { isUrlSafeSecret } from './url-safe';
import { deleteTeamSecret, findTeamSecret, listTeamSecretNames, upsertTeamSecret, webhooksNamingSecret } from './repository';

export type SecretMetadata = components['schemas']['SecretMetadata'];

type Ctx = Pick<ServerContext, 'db' | 'clock' | 'secrets'>;

export async function listSecrets(ctx: Ctx, teamId: string, query: { limit: number; cursor?: string }): Promise<components['schemas']['ListSecretsResponse']> {
  const { items, page_info } = await keysetPage({
    ...query,
    sortKey: 'name',
    order: 'asc',
    fetch: (after, limit) => listTeamSecretNames(ctx.db, teamId, { limit, ...(after ? { after: after.value } : {}) }),
    // Names are unique in a team: the name is the tiebreaker too.
    keyOf: (row) => ({ value: row.name, id: row.name }),
    toItems: (rows) => rows.map(({ name, created_at, updated_at }) => ({ name, created_at, updated_at })),
  });
  return { secrets: items, page_info };
}

export async function putSecret(ctx: Ctx, teamId: string, name: string, value: string, audit: AuditTrail): Promise<SecretMetadata> {
  const users = await webhooksNamingSecret(ctx.db, teamId, name);
  if (users.some((w) => w.auth_mode === 'url_token') && !isUrlSafeSecret(value)) {
    throw validationFailed(`Secret ${name} is used by a url_token webhook, so its value must be URL-safe: at least 16 of A–Z a–z 0–9 . _ ~ -.`, {
      errors: [{ path: '$.value', message: 'must be URL-safe (at least 16 of A–Z a–z 0–9 . _ ~ -)' }],
    });
  }
  const row = await ctx.db.transaction().execute(async (tx) => {
    const existed = (await findTeamSecret(tx, teamId, name)) !== undefined;
    const upserted = await upsertTeamSecret(tx, teamId, name, ctx.secrets.encrypt(value), toTimestamp(ctx.clock.now()));
    await audit.record(tx, name, existed ? 'updated' : 'created');
    return upserted;
  });
  return { name: row.name, created_at: row.created_at, updated_at: row.updated_at };
}

export async function deleteSecret(ctx: Ctx, teamId: string, name: string, audit: AuditTrail): Promise<void> {
  const users = await webhooksNamingSecret(ctx.db, teamId, name);
  if (users.length > 0) {
    throw conflict(
      `Secret ${name} is used by webhook${users.length > 1 ? 's' : ''} ${users.map((w) => w.id).join(', ')}; ` +
        'delete those webhooks or point them at another secret first.',
    );
  }
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await deleteTeamSecret(tx, teamId, name))) throw resourceNotFound(`Secret ${name} not found.`);
    await audit.record(tx, name);
  });
}
