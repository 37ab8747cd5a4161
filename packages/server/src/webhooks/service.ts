/**
 * Webhook rules (docs/service-spec.md §Webhook, §Dashboard behaviors 1–3; docs/wire.md §Factory side; openapi Webhooks):
 *
 * - at most `limits.webhooksPerFactory` (20) live webhooks per factory (409 limit_exceeded), names unique
 *   among a factory's live webhooks (409 conflict);
 * - `files` factories change only through definition apply: create, rename, delivery-ID header changes,
 *   delete and rotation answer 409 (toggling `enabled` is allowed — it re-applies the definition);
 * - the credential: an existing team secret named by `secret_name` is used as is (never answered);
 *   otherwise the service generates it (or takes `provider_secret`), stores it as the team secret
 *   `secret_name` and answers it once. A `signature` webhook of a scheme other than standard-webhooks may
 *   wait for its provider secret (second step through rotate-secret); until then every delivery is 401;
 * - the webhook verifies with its own encrypted snapshot of the team secret, taken when its definition
 *   applies: create, rotate, and enabling a disabled webhook;
 * - rotation replaces the secret at once: the ingress reads the snapshot on every delivery (no cache), so
 *   the old secret stops working with the commit, no overlap;
 * - secrets are encrypted with ctx.secrets, never logged, never answered after create/rotate.
 */
import { toggleAction, type AuditTrail } from '../audit/trail';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import { isUniqueViolation } from '../db/dialect';
import type { components } from '@agent-runs/contract';
import { keysetPage, newestFirst } from '../pagination';
import { conflict, limitExceeded, resourceNotFound, validationFailed } from '../problems';
import { isCredentialHeader, type SignatureSchemeName } from './schemes';
import { isUrlSafeSecret } from '../secrets/url-safe';
import { generateSignatureSecret, generateTokenSecret, type WebhookAuthMode } from './secrets';
import { lockFactory } from '../factories/repository';
import { requireFactory } from '../factories/service';
import type { FactoryRow } from '../factories/repository';
import { findTeamSecret, insertTeamSecret, upsertTeamSecret } from '../secrets/repository';
import { countLiveWebhooks, findWebhook, insertWebhook, isWebhookNameTaken, listWebhookRows, updateWebhookRow, type WebhookRow } from './repository';

export type WebhookView = components['schemas']['Webhook'];
export type WebhookWithSecretView = components['schemas']['WebhookWithSecret'];
export type CreateWebhookInput = components['schemas']['CreateWebhookRequest'];
export type UpdateWebhookInput = components['schemas']['UpdateWebhookRequest'];

type Ctx = Pick<ServerContext, 'db' | 'clock' | 'secrets' | 'settings'>;

const FILES_FACTORY = 'This factory is defined by files; give the team secret a new value or change the files, and apply again.';

/** `{ingress_url}/webhooks/w/<uid>`, plus the token segment for url_token (`{token}` unless shown once). */
export function ingressUrlOf(ctx: Pick<ServerContext, 'settings'>, row: Pick<WebhookRow, 'id' | 'auth_mode'>, token?: string): string {
  const base = `${ctx.settings.publicIngressUrl}/webhooks/w/${row.id}`;
  return row.auth_mode === 'url_token' ? `${base}/${token ?? '{token}'}` : base;
}

export function toWebhookView(ctx: Pick<ServerContext, 'settings'>, row: WebhookRow, token?: string): WebhookView {
  return {
    uid: row.id,
    factory_uid: row.factory_id,
    name: row.name,
    auth_mode: row.auth_mode,
    signature_scheme: (row.signature_scheme as SignatureSchemeName | null) ?? null,
    secret_name: row.secret_name,
    secret_configured: row.secret !== null,
    delivery_id_header: row.delivery_id_header,
    enabled: row.enabled === 1,
    ingress_url: ingressUrlOf(ctx, row, token),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** `GitHub issues` → `WEBHOOK_GITHUB_ISSUES_SECRET` (contract: createWebhook). */
export function suggestedSecretName(webhookName: string): string {
  const middle = webhookName
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const name = `WEBHOOK_${middle ? `${middle}_` : ''}SECRET`;
  // Secret names are at most 128 characters (SecretName).
  return name.length <= 128 ? name : `${name.slice(0, 121)}_SECRET`;
}

function refuseFilesFactory(factory: FactoryRow, detail = FILES_FACTORY): void {
  if (factory.definition_source === 'files') throw conflict(detail);
}

function invalid(path: string, message: string, detail: string): never {
  throw validationFailed(detail, { errors: [{ path, message }] });
}

/** A delivery ID header must not name where the credential travels (422 otherwise). */
function checkDeliveryIdHeader(header: string | null | undefined): void {
  if (header && isCredentialHeader(header)) {
    invalid(
      '$.delivery_id_header',
      'names a header that carries a credential',
      `delivery_id_header ${header} carries a credential (a token, a cookie or a signature); the delivery identity is shown to every member, so name the sender's event-ID header instead.`,
    );
  }
}

/** The mode/scheme/provider-secret combinations the contract allows (422 otherwise). */
function checkCredentialInput(input: CreateWebhookInput, mode: WebhookAuthMode): void {
  if (mode === 'signature' && !input.signature_scheme) {
    invalid('$.signature_scheme', 'is required for auth_mode signature', 'A signature webhook needs a signature_scheme.');
  }
  if (mode !== 'signature' && input.signature_scheme !== undefined) {
    invalid('$.signature_scheme', 'is only allowed for auth_mode signature', `signature_scheme is only for signature webhooks, not ${mode}.`);
  }
  if (mode !== 'signature' && input.provider_secret !== undefined) {
    invalid('$.provider_secret', 'is only allowed for auth_mode signature', `provider_secret is only for signature webhooks; ${mode} secrets are generated.`);
  }
}

export async function createWebhook(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  input: CreateWebhookInput,
  audit: AuditTrail,
): Promise<WebhookWithSecretView> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  refuseFilesFactory(factory, 'This factory is defined by files; add a webhooks/<name>.yaml file and apply the definitions instead.');
  const mode = input.auth_mode ?? 'token';
  checkCredentialInput(input, mode);
  checkDeliveryIdHeader(input.delivery_id_header);
  const secretName = input.secret_name ?? suggestedSecretName(input.name);
  const now = ctx.clock.now();
  const nowTs = toTimestamp(now);

  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // Serialises creates in this factory, so the count below cannot be raced past the limit.
      if (!(await lockFactory(trx, teamId, factory.id, nowTs))) throw resourceNotFound(`Factory ${factoryUid} not found.`);
      const limit = ctx.settings.limits.webhooksPerFactory;
      if ((await countLiveWebhooks(trx, teamId, factory.id)) >= limit) {
        throw limitExceeded(`A factory holds at most ${limit} webhooks; delete one before creating another.`);
      }
      if (await isWebhookNameTaken(trx, teamId, factory.id, input.name)) {
        throw conflict(`A webhook named "${input.name}" already exists in this factory.`);
      }

      let snapshot: string | null;
      let shown: string | null;
      const existing = await findTeamSecret(trx, teamId, secretName);
      if (existing) {
        if (input.secret_name === undefined) {
          throw conflict(`A team secret named ${secretName} (the suggested name) already exists; pass secret_name explicitly.`);
        }
        if (input.provider_secret !== undefined) {
          invalid(
            '$.provider_secret',
            'cannot be combined with an existing team secret',
            `Team secret ${secretName} exists; omit provider_secret to use its value, or name a new secret.`,
          );
        }
        if (mode === 'url_token' && !isUrlSafeSecret(ctx.secrets.decrypt(existing.value))) {
          invalid(
            '$.secret_name',
            'names a secret whose value is not URL-safe',
            `Team secret ${secretName} is not URL-safe, so it cannot be a url_token secret.`,
          );
        }
        snapshot = existing.value; // same key: the ciphertext is the snapshot
        shown = null;
      } else {
        const value = newSecretValue(mode, input.signature_scheme, input.provider_secret);
        if (value === null) {
          snapshot = null; // second step: the provider issues its secret after seeing the URL
        } else {
          snapshot = ctx.secrets.encrypt(value);
          await insertTeamSecret(trx, { team_id: teamId, name: secretName, value: snapshot, created_at: nowTs, updated_at: nowTs });
        }
        shown = value;
      }

      const row: WebhookRow = {
        id: newId('wh', now),
        team_id: teamId,
        factory_id: factory.id,
        name: input.name,
        auth_mode: mode,
        signature_scheme: mode === 'signature' ? (input.signature_scheme ?? null) : null,
        secret_name: secretName,
        secret: snapshot,
        delivery_id_header: input.delivery_id_header ?? null,
        enabled: input.enabled === false ? 0 : 1,
        definition_file: null,
        created_at: nowTs,
        updated_at: nowTs,
        deleted_at: null,
      };
      await insertWebhook(trx, row);
      await audit.record(trx, row.id);
      return { ...toWebhookView(ctx, row, shown ?? undefined), secret: shown };
    });
  } catch (err) {
    // Lost a race with a concurrent create (same webhook name or same new secret name).
    if (isUniqueViolation(err)) throw conflict(`A webhook named "${input.name}" or a team secret named ${secretName} was just created; retry.`);
    throw err;
  }
}

/** A fresh credential for create/rotate; null = a provider secret is needed and was not given. */
function newSecretValue(mode: WebhookAuthMode, scheme: SignatureSchemeName | undefined, providerSecret: string | undefined): string | null {
  if (mode !== 'signature') return generateTokenSecret();
  if (providerSecret !== undefined) return providerSecret;
  return scheme === 'standard-webhooks' ? generateSignatureSecret('standard-webhooks') : null;
}

async function requireWebhook(ctx: Ctx, teamId: string, factoryUid: string, webhookUid: string): Promise<{ factory: FactoryRow; webhook: WebhookRow }> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  const webhook = await findWebhook(ctx.db, teamId, factory.id, webhookUid);
  if (!webhook) throw resourceNotFound(`Webhook ${webhookUid} not found.`);
  return { factory, webhook };
}

export async function getWebhook(ctx: Ctx, teamId: string, factoryUid: string, webhookUid: string): Promise<WebhookView> {
  return toWebhookView(ctx, (await requireWebhook(ctx, teamId, factoryUid, webhookUid)).webhook);
}

export async function listWebhooks(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  query: { limit: number; cursor?: string },
): Promise<components['schemas']['ListWebhooksResponse']> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  const { items, page_info } = await keysetPage({
    ...query,
    ...newestFirst,
    fetch: (after, limit) => listWebhookRows(ctx.db, teamId, factory.id, { limit, after }),
    toItems: (rows) => rows.map((row) => toWebhookView(ctx, row)),
  });
  return { webhooks: items, page_info };
}

export async function updateWebhook(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  webhookUid: string,
  input: UpdateWebhookInput,
  audit: AuditTrail,
): Promise<WebhookView> {
  const { factory, webhook } = await requireWebhook(ctx, teamId, factoryUid, webhookUid);
  const renames = input.name !== undefined && input.name !== webhook.name;
  const changesHeader = input.delivery_id_header !== undefined && input.delivery_id_header !== webhook.delivery_id_header;
  if (changesHeader) checkDeliveryIdHeader(input.delivery_id_header);
  if (renames || changesHeader) {
    refuseFilesFactory(
      factory,
      `This factory is defined by files; ${renames ? 'renaming' : 'changing the delivery ID header'} means changing the files and applying them again.`,
    );
  }
  if (renames && (await isWebhookNameTaken(ctx.db, teamId, factory.id, input.name!, webhook.id))) {
    throw conflict(`A webhook named "${input.name}" already exists in this factory.`);
  }

  const changes: Parameters<typeof updateWebhookRow>[3] = { updated_at: toTimestamp(ctx.clock.now()) };
  if (renames) changes.name = input.name!;
  if (changesHeader) changes.delivery_id_header = input.delivery_id_header ?? null;
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled ? 1 : 0;
    if (input.enabled && webhook.enabled === 0) {
      // Enabling re-applies the definition: take the team secret's current value (docs/service-spec.md §Dashboard 3).
      const current = await findTeamSecret(ctx.db, teamId, webhook.secret_name);
      if (current && (webhook.auth_mode !== 'url_token' || isUrlSafeSecret(ctx.secrets.decrypt(current.value)))) {
        changes.secret = current.value;
      }
    }
  }
  try {
    const updated = await ctx.db.transaction().execute(async (trx) => {
      const row = await updateWebhookRow(trx, teamId, webhook.id, changes);
      if (!row) throw resourceNotFound(`Webhook ${webhookUid} not found.`);
      await audit.record(trx, row.id, toggleAction(input));
      return row;
    });
    return toWebhookView(ctx, updated);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A webhook named "${input.name}" already exists in this factory.`);
    throw err;
  }
}

export async function deleteWebhook(ctx: Ctx, teamId: string, factoryUid: string, webhookUid: string, audit: AuditTrail): Promise<void> {
  const { factory, webhook } = await requireWebhook(ctx, teamId, factoryUid, webhookUid);
  refuseFilesFactory(factory, "This factory is defined by files; remove the webhook's file and apply the definitions again.");
  const now = toTimestamp(ctx.clock.now());
  // Soft delete: senders get 404 from now on, the delivery log stays readable for its retention.
  await ctx.db.transaction().execute(async (trx) => {
    const deleted = await updateWebhookRow(trx, teamId, webhook.id, { deleted_at: now, updated_at: now });
    if (!deleted) throw resourceNotFound(`Webhook ${webhookUid} not found.`);
    await audit.record(trx, webhook.id);
  });
}

export async function rotateWebhookSecret(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  webhookUid: string,
  input: { provider_secret?: string },
  audit: AuditTrail,
): Promise<WebhookWithSecretView> {
  const { factory, webhook } = await requireWebhook(ctx, teamId, factoryUid, webhookUid);
  refuseFilesFactory(factory);
  let value: string;
  if (input.provider_secret !== undefined) {
    if (webhook.auth_mode !== 'signature') {
      invalid(
        '$.provider_secret',
        'is only allowed for signature webhooks',
        `provider_secret is only for signature webhooks; a new ${webhook.auth_mode} secret is generated when the body is empty.`,
      );
    }
    value = input.provider_secret;
  } else {
    const generated = newSecretValue(webhook.auth_mode, (webhook.signature_scheme ?? undefined) as SignatureSchemeName | undefined, undefined);
    if (generated === null) {
      invalid(
        '$.provider_secret',
        `is required for the ${webhook.signature_scheme} scheme`,
        `The ${webhook.signature_scheme} provider issues the signing secret; send it as provider_secret.`,
      );
    }
    value = generated;
  }

  const encrypted = ctx.secrets.encrypt(value);
  const now = toTimestamp(ctx.clock.now());
  const updated = await ctx.db.transaction().execute(async (trx) => {
    await upsertTeamSecret(trx, teamId, webhook.secret_name, encrypted, now);
    const row = await updateWebhookRow(trx, teamId, webhook.id, { secret: encrypted, updated_at: now });
    if (row) await audit.record(trx, row.id);
    return row;
  });
  if (!updated) throw resourceNotFound(`Webhook ${webhookUid} not found.`);
  return { ...toWebhookView(ctx, updated, value), secret: value };
}
