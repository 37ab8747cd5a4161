/**
 * Definition apply (contract: applyFactoryDefinitions; docs/service-spec.md §Definition apply failures, §Dashboard 3):
 * the files given are the whole desired state of a `files` factory, applied atomically.
 *
 *   parse every file → (one transaction) lock the factory → check secrets, limits, webhook_ids and
 *   environments → refuse with every file error, or write: delete what has no file, update what kept its
 *   file, create what is new
 *
 * - identity is the file path: a webhook or automation keeps its UID across applies as long as its file is
 *   there; a UID is assigned when a file first applies; a removed file deletes its resource (webhooks
 *   soft-deleted: senders get 404, the log stays; automations deleted);
 * - each applied webhook takes a snapshot of its team secret's current value — the managed-secret pickup:
 *   `PUT /secrets/{name}` alone changes nothing for the webhook until the next apply (or an Enabled off/on
 *   toggle, webhooks/service.ts updateWebhook);
 * - any error (bad file, secretName naming no team secret, url_token secret not URL-safe, …) fails the whole
 *   apply with `422 validation_failed` + `file_errors` and nothing changes (the transaction rolls back);
 * - an automation or webhook whose definition did not change keeps its `updated_at` (an automation's is the
 *   version the delivery-time filter cache keys on).
 */
import type { AuditTrail } from '../../audit/trail';
import type { Kysely } from 'kysely';
import { toTimestamp } from '../../clock';
import type { ServerContext } from '../../context';
import { newId } from '../../crypto/ids';
import type { Database } from '../../db/tables';
import type { components } from '@agent-runs/contract';
import { InvalidConfigError } from '../../engine/runners/model-config';
import { conflict, resourceNotFound, validationFailed } from '../../problems';
import { isUrlSafeSecret } from '../../secrets/url-safe';
import {
  deleteAutomationRow,
  insertAutomation,
  listAllAutomationRows,
  listFactoryWebhookRefs,
  listLiveFactoryWebhooks,
  replaceAutomationWebhooks,
  updateAutomationRow,
  type AutomationRow,
} from '../repository';
import { nextVersion, webhookReferencesOf } from '../service';
import { lockFactory } from '../../factories/repository';
import { requireFactory } from '../../factories/service';
import { knownConfigFields, resolveAgentConfig } from '../../runs/config';
import { findTeamSecret, type TeamSecretRow } from '../../secrets/repository';
import { insertWebhook, updateWebhookRow, type WebhookRow } from '../../webhooks/repository';
import { selectedWebhookIds, webhookIdIssues, type WebhookReference } from '../triggers';
import { parseAutomationFile, type AutomationDefinition } from './automation-file';
import { AUTOMATION_FILE, WEBHOOK_FILE, type DefinitionFile, type FileError } from './files';
import { parseWebhookFile, type WebhookDefinition } from './webhook-file';

export type ApplyDefinitionsResponse = components['schemas']['ApplyDefinitionsResponse'];

type Ctx = Pick<ServerContext, 'db' | 'clock' | 'secrets' | 'settings'>;
type Db = Kysely<Database>;

interface ParsedSet {
  webhooks: WebhookDefinition[];
  automations: AutomationDefinition[];
  errors: FileError[];
}

/** Step 1: every file parsed on its own, plus the rules across files (paths and names unique). */
function parseFiles(files: readonly DefinitionFile[]): ParsedSet {
  const set: ParsedSet = { webhooks: [], automations: [], errors: [] };
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) {
      set.errors.push({ file: file.path, message: 'the same path is given twice' });
      continue;
    }
    seen.add(file.path);
    const parsed = WEBHOOK_FILE.test(file.path)
      ? { kind: 'webhook' as const, result: parseWebhookFile(file) }
      : AUTOMATION_FILE.test(file.path)
        ? { kind: 'automation' as const, result: parseAutomationFile(file) }
        : undefined;
    if (!parsed) set.errors.push({ file: file.path, message: 'a definition file is webhooks/<name>.yaml or automations/<name>.md' });
    else if (!parsed.result.ok) set.errors.push(...parsed.result.errors);
    else if (parsed.kind === 'webhook') set.webhooks.push(parsed.result.value as WebhookDefinition);
    else set.automations.push(parsed.result.value as AutomationDefinition);
  }
  for (const [kind, defs] of [
    ['webhook', set.webhooks],
    ['automation', set.automations],
  ] as const) {
    const byName = new Map<string, string>();
    for (const def of defs) {
      const other = byName.get(def.name);
      if (other) set.errors.push({ file: def.file, message: `${kind} name "${def.name}" is also the name in ${other}; names are unique in a factory` });
      else byName.set(def.name, def.file);
    }
  }
  return set;
}

export async function applyFactoryDefinitions(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  files: readonly DefinitionFile[],
  audit: AuditTrail,
): Promise<ApplyDefinitionsResponse> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  if (factory.definition_source !== 'files') {
    throw conflict(`Factory ${factoryUid} is managed through the REST API (definition_source api); only a files factory applies definition files.`);
  }
  const parsed = parseFiles(files);
  const now = ctx.clock.now();

  return ctx.db.transaction().execute(async (trx) => {
    // Serialises concurrent applies (and webhook creates) of this factory.
    if (!(await lockFactory(trx, teamId, factory.id, toTimestamp(now)))) throw resourceNotFound(`Factory ${factoryUid} not found.`);
    const allWebhooks = await listFactoryWebhookRefs(trx, teamId, factory.id);
    const liveByFile = await liveWebhooksByFile(trx, teamId, factory.id);

    // Step 2: checks that need the database. Errors of every file are reported together.
    const errors = [...parsed.errors];
    const secrets = await checkWebhookSecrets(ctx, trx, teamId, parsed.webhooks, errors);
    const limit = ctx.settings.limits.webhooksPerFactory;
    for (const def of parsed.webhooks.slice(limit)) {
      errors.push({ file: def.file, message: `a factory holds at most ${limit} webhooks` });
    }
    const references: WebhookReference[] = [
      ...webhookReferencesOf(allWebhooks),
      ...parsed.webhooks.filter((def) => !liveByFile.has(def.file)).map((def) => ({ name: def.name, definitionFile: def.file })),
    ];
    for (const def of parsed.automations) {
      for (const issue of webhookIdIssues(def.triggers, (i) => `triggers[${i}]`, references)) {
        errors.push({ file: def.file, message: `${issue.path}: ${issue.message}` });
      }
      const requested = knownConfigFields(def.config);
      if (requested) {
        try {
          await resolveAgentConfig({ db: trx, settings: ctx.settings }, teamId, requested);
        } catch (err) {
          if (!(err instanceof InvalidConfigError)) throw err;
          errors.push({ file: def.file, message: err.message });
        }
      }
    }
    if (errors.length > 0) {
      throw validationFailed(`${errors.length} problem${errors.length > 1 ? 's' : ''} in the definition files; nothing was applied.`, {
        file_errors: errors,
      });
    }

    // Step 3: write.
    const deletedWebhooks = await applyWebhooks(trx, teamId, factory.id, parsed.webhooks, secrets, liveByFile, now);
    const webhookAnswers = parsed.webhooks.map((def) => ({
      file: def.file,
      uid: liveByFile.get(def.file)!.id,
      name: def.name,
      secret_name: def.secretName,
    }));
    const { answers: automationAnswers, deleted: deletedAutomations } = await applyAutomations(trx, teamId, factory.id, parsed.automations, now);
    await audit.record(trx, factory.id);
    return {
      webhooks: webhookAnswers,
      automations: automationAnswers,
      deleted: { webhooks: deletedWebhooks, automations: deletedAutomations },
    };
  });
}

async function liveWebhooksByFile(trx: Db, teamId: string, factoryId: string): Promise<Map<string | null, WebhookRow>> {
  const rows = await listLiveFactoryWebhooks(trx, teamId, factoryId);
  return new Map(rows.map((row) => [row.definition_file ?? `\u0000api:${row.id}`, row]));
}

/** The team secret of each webhook file; errors for a missing one and for a url_token one not URL-safe. */
async function checkWebhookSecrets(
  ctx: Ctx,
  trx: Db,
  teamId: string,
  defs: readonly WebhookDefinition[],
  errors: FileError[],
): Promise<Map<string, TeamSecretRow>> {
  const secrets = new Map<string, TeamSecretRow>();
  for (const def of defs) {
    const secret = await findTeamSecret(trx, teamId, def.secretName);
    if (!secret) {
      errors.push({ file: def.file, message: `secretName "${def.secretName}" does not name an existing team secret` });
      continue;
    }
    if (def.authMode === 'url_token' && !isUrlSafeSecret(ctx.secrets.decrypt(secret.value))) {
      errors.push({
        file: def.file,
        message: `team secret "${def.secretName}" is not URL-safe, so it cannot be a url_token secret (it needs at least 16 of A–Z a–z 0–9 . _ ~ -)`,
      });
      continue;
    }
    secrets.set(def.file, secret);
  }
  return secrets;
}

/**
 * Webhooks: soft-delete the live ones without a file, update the ones whose file is kept, create the new
 * ones. Fills `liveByFile` with the created rows. Returns the deleted UIDs.
 */
async function applyWebhooks(
  trx: Db,
  teamId: string,
  factoryId: string,
  defs: readonly WebhookDefinition[],
  secrets: ReadonlyMap<string, TeamSecretRow>,
  liveByFile: Map<string | null, WebhookRow>,
  now: Date,
): Promise<string[]> {
  const ts = toTimestamp(now);
  const wanted = new Set(defs.map((d) => d.file));
  const deleted: string[] = [];
  for (const [file, row] of [...liveByFile]) {
    if (file !== null && wanted.has(file)) continue;
    await updateWebhookRow(trx, teamId, row.id, { deleted_at: ts, updated_at: ts });
    liveByFile.delete(file);
    deleted.push(row.id);
  }
  await parkRenamed(defs, liveByFile, (row) => updateWebhookRow(trx, teamId, row.id, { name: `~apply~${row.id}` }));

  for (const def of defs) {
    const snapshot = secrets.get(def.file)!.value; // same key: the team secret's ciphertext is the snapshot
    const fields = {
      name: def.name,
      auth_mode: def.authMode,
      signature_scheme: def.signatureScheme,
      secret_name: def.secretName,
      secret: snapshot,
      delivery_id_header: def.deliveryIdHeader,
      enabled: def.enabled ? (1 as const) : (0 as const),
    };
    const existing = liveByFile.get(def.file);
    if (existing) {
      const changed = (Object.keys(fields) as Array<keyof typeof fields>).some((k) => existing[k] !== fields[k]);
      if (changed) await updateWebhookRow(trx, teamId, existing.id, { ...fields, updated_at: ts });
      continue;
    }
    const row: WebhookRow = {
      id: newId('wh', now),
      team_id: teamId,
      factory_id: factoryId,
      ...fields,
      definition_file: def.file,
      created_at: ts,
      updated_at: ts,
      deleted_at: null,
    };
    await insertWebhook(trx, row);
    liveByFile.set(def.file, row);
  }
  return deleted;
}

/**
 * Names are unique in a factory, and an apply may swap two names: every kept item whose name changes is
 * first given a placeholder name, so the final renames cannot collide with each other.
 */
async function parkRenamed<R extends { id: string; name: string }>(
  defs: ReadonlyArray<{ file: string; name: string }>,
  byFile: ReadonlyMap<string | null, R>,
  park: (row: R) => Promise<unknown>,
): Promise<void> {
  for (const def of defs) {
    const row = byFile.get(def.file);
    if (row && row.name !== def.name) await park(row);
  }
}

async function applyAutomations(
  trx: Db,
  teamId: string,
  factoryId: string,
  defs: readonly AutomationDefinition[],
  now: Date,
): Promise<{ answers: ApplyDefinitionsResponse['automations']; deleted: string[] }> {
  const ts = toTimestamp(now);
  const wanted = new Set(defs.map((d) => d.file));
  const byFile = new Map<string | null, AutomationRow>();
  const deleted: string[] = [];
  for (const row of await listAllAutomationRows(trx, teamId, factoryId)) {
    if (row.definition_file !== null && wanted.has(row.definition_file)) byFile.set(row.definition_file, row);
    else {
      await deleteAutomationRow(trx, teamId, row.id);
      deleted.push(row.id);
    }
  }
  await parkRenamed(defs, byFile, (row) => updateAutomationRow(trx, teamId, row.id, { name: `~apply~${row.id}` }));

  const answers: ApplyDefinitionsResponse['automations'] = [];
  for (const def of defs) {
    const config = knownConfigFields(def.config);
    const fields = {
      name: def.name,
      prompt: def.prompt,
      config: config ? JSON.stringify(config) : null,
      enabled: def.enabled ? (1 as const) : (0 as const),
      triggers: JSON.stringify(def.triggers),
    };
    const existing = byFile.get(def.file);
    let id: string;
    if (existing) {
      id = existing.id;
      const changed = (Object.keys(fields) as Array<keyof typeof fields>).some((k) => existing[k] !== fields[k]);
      if (changed) await updateAutomationRow(trx, teamId, id, { ...fields, updated_at: nextVersion(existing.updated_at, now) });
    } else {
      id = newId('aut', now);
      await insertAutomation(trx, { id, team_id: teamId, factory_id: factoryId, ...fields, definition_file: def.file, created_at: ts, updated_at: ts });
    }
    await replaceAutomationWebhooks(trx, teamId, id, selectedWebhookIds(def.triggers));
    answers.push({ file: def.file, uid: id, name: def.name });
  }
  return { answers, deleted };
}
