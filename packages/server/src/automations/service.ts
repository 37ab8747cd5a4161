/**
 * Automation rules (contract tag Automations):
 *
 * - an automation belongs to a factory: name (unique in the factory), prompt, optional AmbientAgentConfig,
 *   enabled, and webhook triggers `{provider: webhook, event: received, filter: {webhook_ids, payload?}}`;
 * - `webhook_ids` take webhook UIDs: a file name or webhook name is refused (422 saying so); a well-formed
 *   UID the factory does not have is kept and shown `unknown` (contract: createAutomation);
 * - payload filters are validated when saved (422 `validation_failed`, `errors[].path` such as
 *   `$.triggers[0].filter.payload.action`), as is the config's environment;
 * - `files` factories change through definition apply only: here just `enabled` may change (409 otherwise);
 * - an automation selecting a deleted webhook stays visible (`selected_webhooks[].state = deleted`) and stops
 *   firing: the ingress answers 404 for a deleted webhook, and replay refuses its deliveries;
 * - every change writes a new `updated_at` (see nextVersion): the delivery-time filter cache keys on it.
 */
import { toggleAction, type AuditTrail } from '../audit/trail';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import { isUniqueViolation } from '../db/dialect';
import type { components } from '@agent-runs/contract';
import { keysetPage, newestFirst } from '../pagination';
import { InvalidConfigError } from '../engine/runners/model-config';
import { conflict, resourceNotFound, validationFailed } from '../problems';
import { parseJsonBody } from '../json';
import { testTriggers, type TestFilterResult } from './test-filter';
import { selectedWebhookIds, validateTrigger, validateTriggers, webhookIdIssues, type Issue, type Trigger, type WebhookReference } from './triggers';
import { requireFactory } from '../factories/service';
import type { FactoryRow } from '../factories/repository';
import { knownConfigFields, resolveAgentConfig, type AgentConfigInput } from '../runs/config';
import {
  deleteAutomationRow,
  findAutomation,
  findFactoryDelivery,
  findWebhookStates,
  insertAutomation,
  isAutomationNameTaken,
  listAutomationRows,
  listFactoryWebhookRefs,
  replaceAutomationWebhooks,
  updateAutomationRow,
  type AutomationRow,
  type WebhookStateRow,
} from './repository';

export type AutomationView = components['schemas']['Automation'];
export type SelectedWebhook = components['schemas']['SelectedWebhook'];
export type CreateAutomationInput = components['schemas']['CreateAutomationRequest'];
export type UpdateAutomationInput = components['schemas']['UpdateAutomationRequest'];
type AgentConfig = components['schemas']['AmbientAgentConfig'];

type Ctx = Pick<ServerContext, 'db' | 'clock' | 'settings'>;

const FILES_FACTORY = 'This factory is defined by files; change its automations/<name>.md file and apply the definitions again.';

/**
 * The `updated_at` of a change: now, or 1 ms after the previous value when the clock has not moved past it,
 * so each version of an automation has its own (id, updated_at) — the key of the compiled-filter cache.
 */
export function nextVersion(previous: string, now: Date): string {
  const prev = Date.parse(previous);
  return toTimestamp(new Date(Math.max(now.getTime(), Number.isNaN(prev) ? 0 : prev + 1)));
}

export function parseTriggers(row: Pick<AutomationRow, 'triggers'>): Trigger[] {
  return JSON.parse(row.triggers) as Trigger[];
}

/** `selected_webhooks`: every webhook the triggers name, in order, with its state now. */
export function selectedWebhooksOf(triggers: readonly Trigger[], webhooks: ReadonlyMap<string, WebhookStateRow>): SelectedWebhook[] {
  return selectedWebhookIds(triggers).map((uid) => {
    const webhook = webhooks.get(uid);
    if (!webhook) return { uid, state: 'unknown' };
    if (webhook.deleted_at !== null) return { uid, state: 'deleted' };
    return { uid, name: webhook.name, state: webhook.enabled === 1 ? 'enabled' : 'disabled' };
  });
}

export function toAutomationView(row: AutomationRow, webhooks: ReadonlyMap<string, WebhookStateRow>): AutomationView {
  const triggers = parseTriggers(row);
  const view: AutomationView = {
    uid: row.id,
    factory_uid: row.factory_id,
    name: row.name,
    prompt: row.prompt,
    enabled: row.enabled === 1,
    triggers,
    selected_webhooks: selectedWebhooksOf(triggers, webhooks),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (row.config) view.config = JSON.parse(row.config) as AgentConfig;
  if (row.definition_file) view.definition_file = row.definition_file;
  return view;
}

async function viewsOf(ctx: Ctx, teamId: string, factoryId: string, rows: AutomationRow[]): Promise<AutomationView[]> {
  const ids = rows.flatMap((row) => selectedWebhookIds(parseTriggers(row)));
  const states = new Map((await findWebhookStates(ctx.db, teamId, factoryId, ids)).map((w) => [w.id, w]));
  return rows.map((row) => toAutomationView(row, states));
}

/** 422 with every issue; the detail names the first. */
export function invalidAutomation(issues: readonly Issue[]): never {
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  throw validationFailed(`${first.path} ${first.message}${more}.`, { errors: [...issues] });
}

export const webhookReferencesOf = (rows: readonly WebhookStateRow[]): WebhookReference[] =>
  rows.map((w) => ({ uid: w.id, name: w.name, definitionFile: w.definition_file }));

/** Triggers valid in shape and filter, with UIDs (not file names) in webhook_ids; 422 otherwise. */
async function checkTriggers(ctx: Ctx, teamId: string, factoryId: string, triggers: unknown, path: string): Promise<Trigger[]> {
  const shape = validateTriggers(triggers, path);
  if (shape.length > 0) invalidAutomation(shape);
  const valid = triggers as Trigger[];
  const refs = webhookReferencesOf(await listFactoryWebhookRefs(ctx.db, teamId, factoryId));
  const ids = webhookIdIssues(valid, (i) => `${path}[${i}]`, refs);
  if (ids.length > 0) invalidAutomation(ids);
  return valid;
}

/** The config as stored (known fields only); its environment must be the team's (422 otherwise). */
async function checkConfig(ctx: Ctx, teamId: string, config: AgentConfig | undefined): Promise<AgentConfigInput | undefined> {
  const requested = knownConfigFields(config as Record<string, unknown> | undefined);
  if (requested) {
    await resolveAgentConfig(ctx, teamId, requested).catch((err: unknown) => {
      if (err instanceof InvalidConfigError) throw validationFailed(err.message, { errors: err.errors });
      throw err;
    });
  }
  return requested;
}

function nameTaken(name: string): never {
  throw conflict(`An automation named "${name}" already exists in this factory.`);
}

export async function createAutomation(ctx: Ctx, teamId: string, factoryUid: string, input: CreateAutomationInput, audit: AuditTrail): Promise<AutomationView> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  if (factory.definition_source === 'files') {
    throw conflict('This factory is defined by files; add an automations/<name>.md file and apply the definitions instead.');
  }
  const triggers = await checkTriggers(ctx, teamId, factory.id, input.triggers, '$.triggers');
  const config = await checkConfig(ctx, teamId, input.config);
  if (await isAutomationNameTaken(ctx.db, teamId, factory.id, input.name)) nameTaken(input.name);

  const now = ctx.clock.now();
  const row: AutomationRow = {
    id: newId('aut', now),
    team_id: teamId,
    factory_id: factory.id,
    name: input.name,
    prompt: input.prompt,
    config: config ? JSON.stringify(config) : null,
    enabled: input.enabled === false ? 0 : 1,
    triggers: JSON.stringify(triggers),
    definition_file: null,
    created_at: toTimestamp(now),
    updated_at: toTimestamp(now),
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await insertAutomation(trx, row);
      await replaceAutomationWebhooks(trx, teamId, row.id, selectedWebhookIds(triggers));
      await audit.record(trx, row.id);
    });
  } catch (err) {
    if (isUniqueViolation(err)) nameTaken(input.name);
    throw err;
  }
  return (await viewsOf(ctx, teamId, factory.id, [row]))[0]!;
}

async function requireAutomation(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  automationUid: string,
): Promise<{ factory: FactoryRow; automation: AutomationRow }> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  const automation = await findAutomation(ctx.db, teamId, factory.id, automationUid);
  if (!automation) throw resourceNotFound(`Automation ${automationUid} not found.`);
  return { factory, automation };
}

export async function getAutomation(ctx: Ctx, teamId: string, factoryUid: string, automationUid: string): Promise<AutomationView> {
  const { factory, automation } = await requireAutomation(ctx, teamId, factoryUid, automationUid);
  return (await viewsOf(ctx, teamId, factory.id, [automation]))[0]!;
}

export async function listAutomations(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  query: { limit: number; cursor?: string },
): Promise<{ automations: AutomationView[]; page_info: { has_next_page: boolean; next_cursor: string | null } }> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  const { items, page_info } = await keysetPage({
    ...query,
    ...newestFirst,
    fetch: (after, limit) => listAutomationRows(ctx.db, teamId, factory.id, { limit, after }),
    toItems: (rows) => viewsOf(ctx, teamId, factory.id, rows),
  });
  return { automations: items, page_info };
}

export async function updateAutomation(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  automationUid: string,
  input: UpdateAutomationInput,
  audit: AuditTrail,
): Promise<AutomationView> {
  const { factory, automation } = await requireAutomation(ctx, teamId, factoryUid, automationUid);
  if (factory.definition_source === 'files') {
    const other = (['name', 'prompt', 'config', 'triggers'] as const).filter((field) => input[field] !== undefined);
    if (other.length > 0) throw conflict(`${FILES_FACTORY} Only enabled can change here (not ${other.join(', ')}).`);
  }
  const changes: Parameters<typeof updateAutomationRow>[3] = { updated_at: nextVersion(automation.updated_at, ctx.clock.now()) };
  let triggers: Trigger[] | undefined;
  if (input.triggers !== undefined) {
    triggers = await checkTriggers(ctx, teamId, factory.id, input.triggers, '$.triggers');
    changes.triggers = JSON.stringify(triggers);
  }
  if (input.config !== undefined) {
    const config = await checkConfig(ctx, teamId, input.config);
    changes.config = config ? JSON.stringify(config) : null;
  }
  if (input.name !== undefined && input.name !== automation.name) {
    if (await isAutomationNameTaken(ctx.db, teamId, factory.id, input.name, automation.id)) nameTaken(input.name);
    changes.name = input.name;
  }
  if (input.prompt !== undefined) changes.prompt = input.prompt;
  if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0;

  let updated: AutomationRow | undefined;
  try {
    updated = await ctx.db.transaction().execute(async (trx) => {
      const row = await updateAutomationRow(trx, teamId, automation.id, changes);
      if (row && triggers) await replaceAutomationWebhooks(trx, teamId, automation.id, selectedWebhookIds(triggers));
      if (row) await audit.record(trx, row.id, toggleAction(input));
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) nameTaken(input.name ?? automation.name);
    throw err;
  }
  if (!updated) throw resourceNotFound(`Automation ${automationUid} not found.`);
  return (await viewsOf(ctx, teamId, factory.id, [updated]))[0]!;
}

export async function deleteAutomation(ctx: Ctx, teamId: string, factoryUid: string, automationUid: string, audit: AuditTrail): Promise<void> {
  const { factory, automation } = await requireAutomation(ctx, teamId, factoryUid, automationUid);
  if (factory.definition_source === 'files') {
    throw conflict("This factory is defined by files; remove the automation's file and apply the definitions again.");
  }
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await deleteAutomationRow(trx, teamId, automation.id))) throw resourceNotFound(`Automation ${automationUid} not found.`);
    await audit.record(trx, automation.id);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Test filter

/** The stored payload of an Accepted delivery of the factory: 404 unknown, 409 for any other label. */
async function storedDelivery(ctx: Ctx, teamId: string, factory: FactoryRow, deliveryId: string): Promise<{ webhookId: string; payload: unknown }> {
  const delivery = await findFactoryDelivery(ctx.db, teamId, factory.id, deliveryId);
  if (!delivery) throw resourceNotFound(`Delivery ${deliveryId} not found in factory ${factory.id}.`);
  if (delivery.label !== 'Accepted' || !delivery.payload) {
    throw conflict(`Delivery ${deliveryId} is labeled "${delivery.label}"; only Accepted deliveries keep a payload to test against.`);
  }
  const parsed = parseJsonBody(Buffer.from(delivery.payload));
  if (!parsed.ok) throw conflict(`Delivery ${deliveryId} has no readable payload.`);
  return { webhookId: delivery.webhook_id, payload: parsed.payload };
}

export async function testAutomationFilter(ctx: Ctx, teamId: string, factoryUid: string, automationUid: string, deliveryId: string): Promise<TestFilterResult> {
  const { factory, automation } = await requireAutomation(ctx, teamId, factoryUid, automationUid);
  return testTriggers(parseTriggers(automation), await storedDelivery(ctx, teamId, factory, deliveryId));
}

export async function testDraftFilter(
  ctx: Ctx,
  teamId: string,
  factoryUid: string,
  input: { delivery_id: string; trigger: unknown },
): Promise<TestFilterResult> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  const shape = validateTrigger(input.trigger, '$.trigger');
  if (shape.length > 0) invalidAutomation(shape);
  const trigger = input.trigger as Trigger;
  const refs = webhookReferencesOf(await listFactoryWebhookRefs(ctx.db, teamId, factory.id));
  const ids = webhookIdIssues([trigger], () => '$.trigger', refs);
  if (ids.length > 0) invalidAutomation(ids);
  return testTriggers([trigger], await storedDelivery(ctx, teamId, factory, input.delivery_id));
}
