// The notifications pages in a real browser against the real server and a real receiver on loopback (listed in
// NOTIFICATIONS_ALLOWED_HOSTS, as README says for trying notifications locally): an admin creates a subscription
// with its event types and copies the signing secret shown once — the receiver verifies deliveries with it —,
// reads the attempts log (a failed answer with its status and excerpt, then the retry's success), replays an
// event, rotates the secret (shown once, the old one still signing), disables and deletes; a member reads
// without the buttons, at 390 px.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyNotification } from '@agent-runs/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { noHorizontalOverflow, startStack, type Stack } from './support/stack';

const POLL = { timeout: 30_000, interval: 100 };

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe.skipIf(!hasBrowser)('notifications pages', () => {
  let stack: Stack;
  let receiver: http.Server;
  let receiverUrl: string;
  const received: Received[] = [];
  // The receiver answers 503 with a reason once, then 204.
  let failNext = true;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (failNext) {
          failNext = false;
          res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance until noon');
        } else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    stack = await startStack({
      env: { ECHO_DELAY_MS: '0', NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1', NOTIFICATIONS_RETRY_BASE_SECONDS: '1' },
      notificationDelivery: { random: () => 0, pollIntervalMs: 100 },
    });
  });
  afterAll(async () => {
    await stack?.close();
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  it('creates a subscription whose shown-once secret verifies deliveries, shows attempts, replays, rotates, disables and deletes', async () => {
    const page = await stack.signIn();
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('button', { name: 'New subscription' }).click();
    const form = page.getByRole('form', { name: 'New subscription' });
    await form.getByLabel('URL').fill(receiverUrl);
    await form.getByLabel('Description').fill('ops receiver');
    for (const type of ['run.failed', 'run.error', 'run.blocked']) await form.getByLabel(type).uncheck();
    await form.getByLabel('run.succeeded').check();
    await form.getByRole('button', { name: 'Create subscription' }).click();
    const secret = (await page.getByLabel('Signing secret', { exact: true }).textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await stack.screenshot(page, 'notifications-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByLabel('Signing secret', { exact: true }).count()).toBe(0);

    // A run succeeds: the first delivery gets 503, the retry 204; both verify with the secret shown once.
    const { run_id } = await stack.admin.agent.runs.create({ prompt: 'notify me' });
    await expect.poll(() => received.length, POLL).toBeGreaterThanOrEqual(2);
    for (const delivery of received.slice(0, 2)) {
      const event = await verifyNotification(delivery.body, delivery.headers as Record<string, string>, secret);
      expect(event).toMatchObject({ type: 'run.succeeded', data: { run_id } });
    }

    await page.getByRole('link', { name: receiverUrl }).click();
    const attempts = page.getByRole('table', { name: 'Attempts' });
    await expect.poll(async () => (await attempts.locator('tbody tr').count()) >= 2, POLL).toBe(true);
    const rows = await attempts.locator('tbody tr').allTextContents();
    expect(rows.some((row) => row.includes('HTTP 503') && row.includes('maintenance until noon'))).toBe(true);
    expect(rows.some((row) => row.includes('succeeded') && row.includes('HTTP 204'))).toBe(true);
    await stack.screenshot(page, 'notification-attempts');

    const eventId = JSON.parse(received[0]!.body).id as string;
    await page
      .getByRole('button', { name: `Replay event ${eventId}` })
      .first()
      .click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'queued to be sent again' }).count(), POLL).toBe(1);
    await expect.poll(() => received.length, POLL).toBe(3);
    expect(JSON.parse(received[2]!.body).id).toBe(eventId);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Rotate', exact: true }).click();
    const rotated = (await page.getByLabel('Signing secret', { exact: true }).textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Settings' }).textContent(), POLL).toContain('Previous secret');

    await page.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Settings' }).textContent(), POLL).toContain('disabled');

    const member = await stack.admin.apiKeys.create({ name: 'notifications-reader', role: 'member' });
    const narrow = await stack.signIn(member.api_key, { width: 390, height: 844 });
    await narrow.goto('/notifications');
    await narrow.getByRole('link', { name: receiverUrl }).click();
    await narrow.getByRole('table', { name: 'Attempts' }).waitFor();
    expect(await narrow.getByRole('button', { name: /Replay|Rotate|Delete|Disable/ }).count()).toBe(0);
    await noHorizontalOverflow(narrow);
    await stack.screenshot(narrow, 'notification-attempts-390');

    await page.getByRole('button', { name: 'Delete subscription' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL('**/notifications');
    await expect.poll(() => page.getByText('No subscriptions yet.').count(), POLL).toBe(1);
  });
});
