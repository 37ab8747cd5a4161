/**
 * Webhook triggers of an automation: their shape, their payload filters and the webhook UIDs they name.
 *
 * The REST API's OpenAPI validator already checks the shape of a trigger, but definition files never pass
 * through it, so the shape is checked here too: one rule set for REST, Test filter drafts and files.
 */
import type { components } from '@agent-runs/contract';
import { appendIndex, validatePayloadFilter, type FilterIssue } from './filter';

export type Trigger = components['schemas']['Trigger'];
export type Issue = FilterIssue;

/** Webhook UIDs: `wh_` + 26 lowercase Crockford base32 characters (docs/decisions.md §ID formats). */
export const WEBHOOK_UID = /^wh_[0-9a-hjkmnp-tv-z]{26}$/;

/** At most 20 triggers per automation (contract: CreateAutomationRequest). */
export const MAX_TRIGGERS = 20;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Shape + payload filter of one trigger; `path` is where it sits (e.g. `$.triggers[0]`). */
export function validateTrigger(value: unknown, path: string): Issue[] {
  if (!isObject(value)) return [{ path, message: 'must be an object {provider, event, filter}' }];
  const issues: Issue[] = [];
  for (const key of Object.keys(value)) {
    if (!['provider', 'event', 'filter'].includes(key)) issues.push({ path: `${path}.${key}`, message: 'is not a trigger field (provider, event, filter)' });
  }
  if (value.provider !== 'webhook') issues.push({ path: `${path}.provider`, message: 'must be "webhook"' });
  if (value.event !== 'received') issues.push({ path: `${path}.event`, message: 'must be "received"' });
  const filter = value.filter;
  if (!isObject(filter)) {
    issues.push({ path: `${path}.filter`, message: 'must be an object {webhook_ids, payload?}' });
    return issues;
  }
  for (const key of Object.keys(filter)) {
    if (key !== 'webhook_ids' && key !== 'payload') {
      issues.push({ path: `${path}.filter.${key}`, message: 'is not a trigger filter field (webhook_ids, payload)' });
    }
  }
  const ids = filter.webhook_ids;
  if (!Array.isArray(ids) || ids.length === 0) {
    issues.push({ path: `${path}.filter.webhook_ids`, message: 'must be a non-empty list of webhook UIDs' });
  } else {
    ids.forEach((id, i) => {
      if (typeof id !== 'string') issues.push({ path: appendIndex(`${path}.filter.webhook_ids`, i), message: 'must be a webhook UID (a string)' });
    });
  }
  if ('payload' in filter) {
    if (!isObject(filter.payload)) {
      issues.push({ path: `${path}.filter.payload`, message: 'must be a payload filter object (omit it for no filter)' });
    } else {
      issues.push(...validatePayloadFilter(filter.payload, { rootPath: `${path}.filter.payload` }));
    }
  }
  return issues;
}

/** A list of triggers at `path` (e.g. `$.triggers`). */
export function validateTriggers(value: unknown, path: string): Issue[] {
  if (!Array.isArray(value)) return [{ path, message: 'must be a list of triggers' }];
  if (value.length > MAX_TRIGGERS) return [{ path, message: `at most ${MAX_TRIGGERS} triggers are allowed` }];
  return value.flatMap((trigger, i) => validateTrigger(trigger, appendIndex(path, i)));
}

/** Every webhook UID the triggers name, each once, in order of first mention. */
export function selectedWebhookIds(triggers: readonly Trigger[]): string[] {
  return [...new Set(triggers.flatMap((t) => t.filter.webhook_ids))];
}

/** A webhook an automation could mean: an existing one, or (during definition apply) a file about to apply. */
export interface WebhookReference {
  uid?: string;
  name: string;
  definitionFile?: string | null;
}

const fileStem = (file: string): string => file.replace(/^.*\//, '').replace(/\.ya?ml$/i, '');

/**
 * The issue with one `webhook_ids` entry, if any. webhook_ids take UIDs, never file names (docs/service-spec.md §Automation
 * webhook trigger): a file name, a webhook name or anything else that is not UID-shaped is refused, with the
 * UID to use when we can tell which webhook was meant. A well-formed UID that names no webhook of the
 * factory is accepted (contract: createAutomation — shown with state `unknown`, never fires).
 */
export function webhookIdIssue(id: string, path: string, webhooks: readonly WebhookReference[]): Issue | undefined {
  if (webhooks.some((w) => w.uid === id)) return undefined;
  const looksLikeFile = /\.ya?ml$/i.test(id) || id.includes('/');
  const meant =
    webhooks.find((w) => w.definitionFile && (w.definitionFile === id || fileStem(w.definitionFile) === fileStem(id))) ?? webhooks.find((w) => w.name === id);
  if (!looksLikeFile && !meant && WEBHOOK_UID.test(id)) return undefined;
  const what = looksLikeFile ? 'a file name' : meant ? 'a webhook name' : 'not a webhook UID';
  const label = meant?.definitionFile ?? `webhook "${meant?.name}"`;
  const hint = !meant
    ? ''
    : meant.uid
      ? `; the UID of ${label} is ${meant.uid}`
      : `; ${label} gets its UID when it first applies (the apply answer lists it), then reference that UID`;
  return { path, message: `webhook_ids take webhook UIDs (wh_…), not file names or webhook names: "${id}" is ${what}${hint}` };
}

/** webhookIdIssue for every entry of every trigger (`pathOf(i)` = where trigger i sits). */
export function webhookIdIssues(triggers: readonly Trigger[], pathOf: (index: number) => string, webhooks: readonly WebhookReference[]): Issue[] {
  const issues: Issue[] = [];
  triggers.forEach((trigger, i) => {
    trigger.filter.webhook_ids.forEach((id, j) => {
      const issue = webhookIdIssue(id, appendIndex(`${pathOf(i)}.filter.webhook_ids`, j), webhooks);
      if (issue) issues.push(issue);
    });
  });
  return issues;
}
