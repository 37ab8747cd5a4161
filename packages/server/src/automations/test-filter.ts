/**
 * Test filter (docs/service-spec.md §Dashboard behaviors 5): would these triggers start a run for this stored delivery?
 * Pure: the caller loads the triggers and the delivery. The payload check uses the compiled filter's
 * explain(), whose verdict is by construction the verdict the ingress reaches with matches().
 */
import type { components } from '@agent-runs/contract';
import { compilePayloadFilter, PayloadFilterError } from './filter';
import type { Trigger } from './triggers';

export type TestFilterResult = components['schemas']['TestFilterResult'];
type WebhookCheck = TestFilterResult['webhook_check'];
type PayloadCheck = TestFilterResult['payload_check'];

export interface StoredDelivery {
  webhookId: string;
  payload: unknown;
}

function checkWebhook(trigger: Trigger, webhookId: string): WebhookCheck {
  const ids = trigger.filter.webhook_ids;
  if (ids.includes(webhookId)) return { passed: true, reason: `Delivery came from selected webhook ${webhookId}.` };
  return {
    passed: false,
    reason: `Delivery came from webhook ${webhookId}, which the trigger does not select (it selects ${ids.join(', ')}).`,
  };
}

function checkPayload(trigger: Trigger, payload: unknown): PayloadCheck {
  let compiled;
  try {
    compiled = compilePayloadFilter(trigger.filter.payload ?? null);
  } catch (err) {
    if (!(err instanceof PayloadFilterError)) throw err;
    return { passed: false, reason: `The stored payload filter is invalid (${err.message}); it never matches.`, path: null };
  }
  if (compiled.matchesEverything) {
    return { passed: true, reason: 'No payload filter: every delivery from the selected webhooks matches.', path: null };
  }
  const explanation = compiled.explain(payload);
  if (explanation.passed) return { passed: true, reason: 'Every filter key matched.', path: null };
  return { passed: false, reason: `Field ${explanation.path}: ${explanation.reason}.`, path: explanation.path };
}

/**
 * The verdict over all triggers: `Would trigger` if any trigger passes both checks. The checks reported
 * are those of the first matching trigger, else of the first trigger whose webhook check passed, else of
 * the first trigger (contract: testAutomationFilter).
 */
export function testTriggers(triggers: readonly Trigger[], delivery: StoredDelivery): TestFilterResult {
  if (triggers.length === 0) {
    const reason = 'The automation has no triggers, so no delivery starts it.';
    return { result: 'Would not trigger', webhook_check: { passed: false, reason }, payload_check: { passed: false, reason, path: null } };
  }
  const outcomes = triggers.map((trigger) => ({
    webhook_check: checkWebhook(trigger, delivery.webhookId),
    payload_check: checkPayload(trigger, delivery.payload),
  }));
  const chosen = outcomes.find((o) => o.webhook_check.passed && o.payload_check.passed) ?? outcomes.find((o) => o.webhook_check.passed) ?? outcomes[0]!;
  const wouldTrigger = chosen.webhook_check.passed && chosen.payload_check.passed;
  return { result: wouldTrigger ? 'Would trigger' : 'Would not trigger', ...chosen };
}
