/**
 * The webhook ingress on two `ROLE=api,ingress` processes of one PostgreSQL database: dedup and the delivery
 * rate (60 per minute per webhook, `INGRESS_DELIVERIES_PER_MINUTE`) hold across them, as the contract says
 * (openapi/v1.yaml, the ingress's check order: a spent rate answers 429 with Retry-After and is not logged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figure, startCluster, type Cluster, type ClusterProcess } from './support/cluster';
import { createWebhook, deliver } from './support/webhooks';

describe('the ingress on 2 × ROLE=api,ingress', () => {
  let cluster: Cluster;
  let ingresses: ClusterProcess[];
  beforeAll(async () => {
    cluster = await startCluster();
    const first = await cluster.start('api-1', 'api,ingress');
    ingresses = [first, await cluster.start('api-2', 'api,ingress')];
  });
  afterAll(() => cluster?.close());

  const deliveryLog = (webhookUid: string) =>
    cluster.database.db.selectFrom('webhook_deliveries').select(['id', 'label', 'duplicate_of']).where('webhook_id', '=', webhookUid).execute();

  it('answers parallel identical deliveries (one delivery-ID header) to both with exactly one Accepted, the rest Duplicate of it', async () => {
    const webhook = await createWebhook(cluster.client(ingresses[0]!));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => deliver(webhook, ingresses[i % 2]!, JSON.stringify({ attempt: i }), { 'x-service-delivery-id': 'evt-cluster-1' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const log = await deliveryLog(webhook.uid);
    expect(log.map((row) => row.id).sort()).toEqual(answers.map((a) => a.body.delivery_id).sort());
    const accepted = log.filter((row) => row.label === 'Accepted');
    expect(accepted).toHaveLength(1);
    expect(log.filter((row) => row.label === 'Duplicate' && row.duplicate_of === accepted[0]!.id)).toHaveLength(19);
  });

  it('accepts exactly 60 of 100 distinct deliveries sent to both within a minute; the other 40 answer 429 and are not logged', async () => {
    const api = cluster.client(ingresses[0]!);
    const webhook = await createWebhook(api, { prompt: 'sleep 0' });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => deliver(webhook, ingresses[i % 2]!, JSON.stringify({ n: i }))));
    expect(Date.now() - started).toBeLessThan(60_000);
    const accepted = answers.filter((a) => a.status === 202);
    const limited = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(60);
    expect(limited).toHaveLength(40);
    for (const answer of limited) {
      expect(answer.body).toMatchObject({ type: 'https://agent-runs.dev/errors/rate_limited', status: 429 });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Both processes accepted some: the budget is the webhook's, not a process's.
    expect(new Set(answers.map((a, i) => (a.status === 202 ? i % 2 : -1)).filter((i) => i >= 0)).size).toBe(2);
    const log = await deliveryLog(webhook.uid);
    expect(log.map((row) => row.label)).toEqual(Array(60).fill('Accepted'));
    expect(log.map((row) => row.id).sort()).toEqual(accepted.map((a) => a.body.delivery_id).sort());
    // …and each started its run.
    const runs = await cluster.database.db
      .selectFrom('runs')
      .select('delivery_id')
      .where(
        'delivery_id',
        'in',
        log.map((row) => row.id),
      )
      .execute();
    expect(runs.map((run) => run.delivery_id).sort()).toEqual(log.map((row) => row.id).sort());
    figure('webhook rate over 2 ingresses', `100 deliveries in ${Date.now() - started} ms → 60 × 202 (logged, one run each), 40 × 429 (not logged)`);
  });
});
