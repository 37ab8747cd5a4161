/**
 * Replay (contract: replayWebhookDelivery): re-evaluates a stored Accepted
 * delivery against the factory's automations as they are now and starts a run for each match, exactly as
 * the ingress would (same function, same envelope and attachment, the runs carry the delivery id). No new
 * log entry is written and the identity is not checked again.
 *
 * A deleted webhook's automations have stopped firing (docs/service-spec.md §Webhook), so its deliveries are not replayed
 * (409); a disabled webhook's are (the admin asks explicitly; disabling only turns senders away).
 */
import type { AuditTrail } from '../audit/trail';
import type { ServerContext } from '../context';
import { toBuffer } from '../db/dialect';
import type { components } from '@agent-runs/contract';
import { conflict, resourceNotFound } from '../problems';
import { parseJsonBody } from '../json';
import { findDeliveryRow } from '../webhooks/deliveries/repository';
import { requireFactory } from '../factories/service';
import { announceNewRuns } from '../runs/service';
import { findWebhook } from '../webhooks/repository';
import { startRunsForDelivery } from './start-runs';

export type ReplayDeliveryResponse = components['schemas']['ReplayDeliveryResponse'];

export async function replayWebhookDelivery(
  ctx: ServerContext,
  teamId: string,
  factoryUid: string,
  webhookUid: string,
  deliveryId: string,
  audit: AuditTrail,
): Promise<ReplayDeliveryResponse> {
  const factory = await requireFactory(ctx, teamId, factoryUid);
  const webhook = await findWebhook(ctx.db, teamId, factory.id, webhookUid, { includeDeleted: true });
  if (!webhook) throw resourceNotFound(`Webhook ${webhookUid} not found.`);
  const delivery = await findDeliveryRow(ctx.db, teamId, webhook.id, deliveryId);
  if (!delivery) throw resourceNotFound(`Delivery ${deliveryId} not found.`);
  if (delivery.label !== 'Accepted' || !delivery.payload) {
    throw conflict(`Delivery ${deliveryId} is labeled "${delivery.label}"; only Accepted deliveries keep a payload to replay.`);
  }
  if (webhook.deleted_at !== null) {
    throw conflict(`Webhook ${webhookUid} is deleted; the automations selecting it no longer fire, so its deliveries are not replayed.`);
  }
  const rawBody = toBuffer(delivery.payload);
  const parsed = parseJsonBody(rawBody);
  if (!parsed.ok) throw conflict(`Delivery ${deliveryId} has no readable payload.`);

  const runs = await ctx.db.transaction().execute(async (trx) => {
    await audit.record(trx, delivery.id);
    return startRunsForDelivery(trx, ctx, {
      teamId,
      factoryId: factory.id,
      webhookId: webhook.id,
      webhookName: webhook.name,
      deliveryId: delivery.id,
      rawBody,
      payload: parsed.payload,
    });
  });
  announceNewRuns(
    ctx,
    teamId,
    runs.map((r) => r.run_id),
  );
  return {
    delivery_id: delivery.id,
    runs: runs.map((r) => ({
      run_id: r.run_id,
      task_id: r.task_id,
      state: r.state as ReplayDeliveryResponse['runs'][number]['state'],
      automation_id: r.automation_id,
    })),
  };
}
