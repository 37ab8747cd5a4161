/**
 * Starts the factory runs an accepted webhook delivery triggers (docs/service-spec.md §Events 2–3).
 *
 *   candidates (index: automation_webhooks, enabled only) → match (cached compiled filters)
 *     → one run per matching automation, inserted in the CALLER'S transaction
 *
 * The ingress calls this inside the transaction that writes the Accepted log row (ingress/record.ts), and
 * replay inside its own; either way the runs commit together with what the caller writes, or not at all —
 * a crash between the answer and run creation cannot lose runs. The caller wakes the workers and the
 * team's run-event listeners (`announceNewRuns`, runs/service.ts) after the commit.
 *
 * Per-automation problems never fail the delivery (that would make the sender retry a delivery that can
 * never succeed): a stored filter that no longer validates never matches (logged), and a configuration
 * that no longer resolves (its environment was deleted) starts a run that fails at once, saying why.
 */
import type { Kysely } from 'kysely';
import type { ServerContext } from '../context';
import type { Database } from '../db/tables';
import { findRunTemplates, listEnabledCandidates, type AutomationRow, type CandidateAutomation } from './repository';
import { knownConfigFields, resolveAgentConfig, type AgentConfigInput } from '../runs/config';
import { insertQueuedRun, TITLE_MAX_LENGTH } from '../runs/service';
import { transitionInTransaction } from '../runs/transitions';
import type { ResolvedAgentConfig } from '../runs/contract';
import { InvalidConfigError } from '../engine/runners/model-config';
import { deliveryRunPrompt, EVENT_PAYLOAD_FILE, EVENT_PAYLOAD_MIME_TYPE } from './envelope';
import { inSpan } from '../telemetry/spans';

export interface AcceptedDelivery {
  teamId: string;
  factoryId: string;
  webhookId: string;
  webhookName: string;
  deliveryId: string;
  /** The body exactly as received (attached to each run as event-payload.json). */
  rawBody: Buffer;
  /** The parsed JSON body (what payload filters are evaluated against). */
  payload: unknown;
}

export interface StartedRun {
  run_id: string;
  task_id: string;
  state: string;
  automation_id: string;
}

/**
 * Evaluates the webhook's enabled automations against the delivery and queues one run per match, using
 * `trx` (the caller's transaction) for every read and write. Returns the runs it started. `candidates`: the
 * webhook's enabled automations when the caller already read them in `trx` (the ingress reads them once
 * for all deliveries it commits together).
 */
export async function startRunsForDelivery(
  trx: Kysely<Database>,
  ctx: ServerContext,
  delivery: AcceptedDelivery,
  candidates?: readonly CandidateAutomation[],
): Promise<StartedRun[]> {
  const { teamId, factoryId, webhookId, deliveryId } = delivery;
  candidates ??= await listEnabledCandidates(trx, teamId, factoryId, webhookId);
  if (candidates.length === 0) return [];
  const attributes = { 'webhook.id': webhookId, 'webhook.delivery.id': deliveryId, 'automation.candidates': candidates.length };
  return inSpan('automation match', attributes, async (span) => {
    const started = await matchAndStart(trx, ctx, delivery, candidates);
    span.setAttribute(
      'automation.matched',
      started.map((run) => run.automation_id),
    );
    return started;
  });
}

async function matchAndStart(
  trx: Kysely<Database>,
  ctx: ServerContext,
  delivery: AcceptedDelivery,
  candidates: readonly CandidateAutomation[],
): Promise<StartedRun[]> {
  const { teamId, webhookId, deliveryId } = delivery;
  const matched = await ctx.matcherCache.match(trx, teamId, webhookId, candidates, delivery.payload, (automationId, message) =>
    ctx.log.warn(
      { automation_id: automationId, webhook_id: webhookId, delivery_id: deliveryId, problem: message },
      'automation skipped: stored trigger is invalid',
    ),
  );
  if (matched.length === 0) return [];

  const templates = new Map((await findRunTemplates(trx, teamId, matched)).map((t) => [t.id, t]));
  const started: StartedRun[] = [];
  for (const automationId of matched) {
    const template = templates.get(automationId);
    if (template) started.push(await startAutomationRun(trx, ctx, template, delivery));
  }
  return started;
}

type RunTemplate = Pick<AutomationRow, 'id' | 'name' | 'prompt' | 'config'>;

async function startAutomationRun(trx: Kysely<Database>, ctx: ServerContext, automation: RunTemplate, delivery: AcceptedDelivery): Promise<StartedRun> {
  const requested = knownConfigFields(automation.config ? (JSON.parse(automation.config) as Record<string, unknown>) : undefined);
  const { resolved, problem } = await resolveForDelivery({ db: trx, settings: ctx.settings }, delivery.teamId, requested);

  const run = await insertQueuedRun(trx, ctx, {
    teamId: delivery.teamId,
    title: [...automation.name].slice(0, TITLE_MAX_LENGTH).join(''),
    prompt: deliveryRunPrompt(automation.prompt, delivery),
    source: 'WEBHOOK',
    creator: { type: 'service_account', uid: automation.id, display_name: automation.name },
    requestedConfig: requested,
    resolvedConfig: resolved,
    factoryId: delivery.factoryId,
    automationId: automation.id,
    deliveryId: delivery.deliveryId,
    attachments: [{ file_name: EVENT_PAYLOAD_FILE, mime_type: EVENT_PAYLOAD_MIME_TYPE, bytes: delivery.rawBody }],
  });
  if (!problem) return { ...run, automation_id: automation.id };

  ctx.log.warn({ automation_id: automation.id, delivery_id: delivery.deliveryId, run_id: run.run_id, problem }, 'automation run failed to start');
  const failed = await transitionInTransaction(trx, ctx.notificationOutbox, ctx.clock.now(), delivery.teamId, run.run_id, {
    from: ['QUEUED'],
    to: 'FAILED',
    statusMessage: { message: `The automation's configuration is no longer valid: ${problem}`, error_code: 'invalid_config', retryable: false },
  });
  return { ...run, state: failed.ok ? failed.run.state : run.state, automation_id: automation.id };
}

/**
 * The run's configuration, resolved as every run's is. If it no longer resolves (the environment it names
 * was deleted after the automation was saved), the run is still recorded — with the environment kept, so a
 * resume cannot silently run without it — and `problem` says why it cannot start.
 */
async function resolveForDelivery(
  ctx: Parameters<typeof resolveAgentConfig>[0],
  teamId: string,
  requested: AgentConfigInput | undefined,
): Promise<{ resolved: ResolvedAgentConfig; problem?: string }> {
  try {
    return { resolved: await resolveAgentConfig(ctx, teamId, requested, { strict: false }) };
  } catch (err) {
    if (!(err instanceof InvalidConfigError) || requested?.environment_id === undefined) throw err;
    const { environment_id: environmentId, ...rest } = requested;
    const resolved = { ...(await resolveAgentConfig(ctx, teamId, rest, { strict: false })), environment_id: environmentId };
    return { resolved, problem: err.message };
  }
}
