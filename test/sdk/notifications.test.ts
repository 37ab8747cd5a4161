// The SDK's notification subscriptions and its `verifyNotification` against the real server (in-process,
// fresh SQLite, echo runner) and a real receiver on 127.0.0.1: every delivery the server signs verifies,
// also during a secret rotation's overlap; the attempts log pages; a replay arrives with the same id.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '@agent-runs/server/test/support/server';
import { AgentRuns, NotFoundError, verifyNotification, WebhookVerificationError, type NotificationEvent } from '@agent-runs/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Delivery {
  body: string;
  headers: http.IncomingHttpHeaders;
}

describe('SDK notifications against the real server', () => {
  let server: TestServer;
  let client: AgentRuns;
  let receiver: http.Server;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    server = await startTestServer({ env: { ECHO_DELAY_MS: '20', NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1' } });
    client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, timeout: 10_000 });
  });
  afterAll(async () => {
    await server?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  async function received(count: number): Promise<Delivery[]> {
    const deadline = Date.now() + 15_000;
    while (deliveries.length < count) {
      if (Date.now() > deadline) throw new Error(`got ${deliveries.length} of ${count} deliveries`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return deliveries.slice(0, count);
  }

  it('subscribes, verifies every real delivery of a run, rotates with overlap, pages attempts and replays', { timeout: 60_000 }, async () => {
    const subscription = await client.notifications.subscriptions.create({ url: receiverUrl, event_types: ['run.state_changed', 'run.succeeded'] });
    expect(subscription.secret).toMatch(/^whsec_/);
    expect(await client.notifications.subscriptions.retrieve(subscription.uid)).not.toHaveProperty('secret');

    const run = await client.agent.runs.createAndWait({ prompt: 'notify me' }, { maxWaitMs: 20_000, pollIntervalMs: 100 });
    const events: NotificationEvent[] = [];
    for (const delivery of await received(5)) events.push(await verifyNotification(delivery.body, delivery.headers, subscription.secret));
    expect(events.map((e) => `${e.type} ${e.data.state}`)).toEqual([
      'run.state_changed QUEUED',
      'run.state_changed CLAIMED',
      'run.state_changed INPROGRESS',
      'run.state_changed SUCCEEDED',
      'run.succeeded SUCCEEDED',
    ]);
    expect(events.every((e) => e.data.run_id === run.run_id)).toBe(true);
    await expect(verifyNotification(deliveries[0]!.body, deliveries[0]!.headers, 'whsec_' + btoa('not-the-secret-not-the-secret!!!'))).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );

    const rotated = await client.notifications.subscriptions.rotateSecret(subscription.uid);
    expect(rotated.previous_secret_expires_at).not.toBeNull();
    const second = await client.agent.runs.create({ prompt: 'after the rotation' });
    const [overlap] = (await received(6)).slice(5);
    expect((await verifyNotification(overlap!.body, overlap!.headers, rotated.secret)).data.run_id).toBe(second.run_id);
    expect((await verifyNotification(overlap!.body, overlap!.headers, subscription.secret)).data.run_id).toBe(second.run_id);

    const attempts = [];
    for await (const attempt of client.notifications.subscriptions.attempts.list(subscription.uid, { limit: 2 })) attempts.push(attempt);
    expect(attempts.length).toBeGreaterThanOrEqual(6);
    expect(attempts.every((a) => a.outcome === 'succeeded')).toBe(true);

    const replay = await client.notifications.subscriptions.events.replay(subscription.uid, events[0]!.id);
    expect(replay.event_id).toBe(events[0]!.id);
    const again = await (async () => {
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        const found = deliveries.slice(6).find((d) => d.headers['webhook-id'] === events[0]!.id);
        if (found) return found;
      }
      throw new Error('the replay never arrived');
    })();
    expect(await verifyNotification(again.body, again.headers, rotated.secret)).toEqual(events[0]);

    const disabled = await client.notifications.subscriptions.update(subscription.uid, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    const page = await client.notifications.subscriptions.list();
    expect(page.data.map((s) => s.uid)).toContain(subscription.uid);
    await client.notifications.subscriptions.delete(subscription.uid);
    await expect(client.notifications.subscriptions.retrieve(subscription.uid)).rejects.toBeInstanceOf(NotFoundError);
  });
});
