// The automation editor in a real browser against the real server: an automation with a payload filter is
// created by selecting a webhook by name; Test filter answers `Would trigger` for a matching stored
// delivery and `Would not trigger` with the failing path for the other, both for the unsaved draft and for
// the saved automation; a filter that does not parse is caught in the page, an invalid one gets the
// server's 422 at its path; a stored webhook UID that is no longer the factory's is flagged and removable;
// a member sees the editor read-only.
import type { Factory, WebhookWithSecret } from '@agent-runs/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { startStack, type Stack } from './support/stack';

/** Posts a JSON body to the webhook's ingress URL with its bearer token (token mode); answers the delivery ID. */
async function deliver(stack: Stack, webhook: WebhookWithSecret, body: unknown): Promise<string> {
  const response = await fetch(`${stack.server.ingressUrl}/webhooks/w/${webhook.uid}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${webhook.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { delivery_id: string }).delivery_id;
}

/** Chooses the delivery (which clears the previous result) and runs Test filter; answers the result's text. */
async function runTest(page: Page, deliveryId: string): Promise<string> {
  await page.getByLabel('Delivery').selectOption(deliveryId);
  await page.getByRole('button', { name: 'Run test' }).click();
  const result = page.getByRole('status', { name: 'Test result' });
  await result.waitFor();
  return (await result.textContent()) ?? '';
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe.skipIf(!hasBrowser)('automation editor', () => {
  let stack: Stack;
  let factory: Factory;
  let webhook: WebhookWithSecret;
  let opened: string;
  let closed: string;

  beforeAll(async () => {
    stack = await startStack();
    factory = await stack.admin.factories.create({ name: 'Issues' });
    webhook = await stack.admin.factories.webhooks.create(factory.uid, { name: 'GitHub issues' });
    await stack.admin.factories.webhooks.create(factory.uid, { name: 'Deploys' });
    opened = await deliver(stack, webhook, { action: 'opened', issue: { number: 1 } });
    closed = await deliver(stack, webhook, { action: 'closed', issue: { number: 2 } });
    // A rejected delivery is logged without its payload: Test filter cannot use it and does not offer it.
    const rejected = await fetch(`${stack.server.ingressUrl}/webhooks/w/${webhook.uid}`, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong' },
      body: '{}',
    });
    expect(rejected.status).toBe(401);
  });
  afterAll(() => stack?.close());

  it('creates an automation with a filter and tests it as a draft and saved', async () => {
    const page = await stack.signIn();
    await page.goto(`/factories/${factory.uid}/automations/new`);
    await page.getByLabel('Name', { exact: true }).fill('Triage opened issues');
    await page.getByLabel('Prompt', { exact: true }).fill('Triage the issue in the payload.');
    await page.getByLabel('GitHub issues').check();
    const filter = page.getByLabel('Payload filter (JSON)');

    // A filter that does not parse is caught before anything is sent.
    await filter.fill('{"action": ');
    await page.getByText('Not valid JSON').waitFor();
    expect(await page.getByRole('button', { name: 'Create automation' }).isDisabled()).toBe(true);
    await filter.fill('{"action": ["opened", "reopened"]}');

    // Only the Accepted deliveries are offered (the log also holds the rejected one).
    expect((await stack.admin.factories.webhooks.deliveries.list(factory.uid, webhook.uid)).data.map((d) => d.label)).toContain('Rejected (auth)');
    await expect
      .poll(() => page.locator('#test-delivery option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)))
      .toEqual(['', closed, opened]);

    // The unsaved draft goes through testDraftFilter.
    const draftMatch = await runTest(page, opened);
    expect(draftMatch).toContain('Would trigger');
    expect(draftMatch).toContain('unsaved draft');
    const draftMiss = await runTest(page, closed);
    expect(draftMiss).toContain('Would not trigger');
    expect(draftMiss).toContain('$.action');

    await page.getByRole('button', { name: 'Create automation' }).click();
    await page.waitForURL(/\/automations\/(?!new$)[^/]+$/);
    const automationUid = page.url().split('/').pop() ?? '';
    const stored = await stack.admin.factories.automations.retrieve(factory.uid, automationUid);
    expect(stored.name).toBe('Triage opened issues');
    expect(stored.triggers).toEqual([
      { provider: 'webhook', event: 'received', filter: { webhook_ids: [webhook.uid], payload: { action: ['opened', 'reopened'] } } },
    ]);

    // Saved and unchanged: testAutomationFilter.
    await page.getByRole('heading', { name: 'Triage opened issues' }).waitFor();
    const savedMiss = await runTest(page, closed);
    expect(savedMiss).toContain('Would not trigger');
    expect(savedMiss).toContain('saved automation');
    expect(savedMiss).toContain('$.action');
    const savedMatch = await runTest(page, opened);
    expect(savedMatch).toMatch(/Would trigger \(saved automation\)/);
    expect(savedMatch).toMatch(/Webhook check\s*passed/);
    expect(savedMatch).toMatch(/Payload check\s*passed/);
    await stack.screenshot(page, 'automation-editor');

    // An invalid filter: the server's 422 at its JSON path.
    await filter.fill('{"action": {"in": ["opened"], "state": "open"}}');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('$.triggers[0].filter.payload.action');
    expect(await filter.getAttribute('aria-invalid')).toBe('true');

    // Edited but unsaved: the draft is tested, not the stored automation.
    await filter.fill('{"action": "closed"}');
    expect(await runTest(page, closed)).toMatch(/Would trigger \(unsaved draft\)/);

    const narrow = await stack.signIn(undefined, { width: 360, height: 740 });
    await narrow.goto(`/factories/${factory.uid}/automations/${automationUid}`);
    await narrow.getByRole('heading', { name: 'Triage opened issues' }).waitFor();
    expect(await runTest(narrow, closed)).toContain('Would not trigger');
    expect(await noSidewaysScroll(narrow)).toBe(true);
    await stack.screenshot(narrow, 'automation-editor-360');
  });

  it("an environment deleted on the environments page leaves the editor's environment select", async () => {
    const kept = await stack.admin.agent.environments.create({ name: 'kept-env' });
    const doomed = await stack.admin.agent.environments.create({ name: 'doomed-env' });
    const page = await stack.signIn();
    await page.goto(`/factories/${factory.uid}/automations/new`);
    const option = (uid: string) => page.locator(`#config-environment option[value="${uid}"]`);
    await option(doomed.uid).waitFor({ state: 'attached' });

    // Within the app (the query cache kept), to the environments page and back.
    await page.getByRole('link', { name: 'Environments', exact: true }).click();
    await page.getByRole('button', { name: 'Delete doomed-env' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete environment' }).click();
    await page.getByRole('listitem', { name: 'doomed-env' }).waitFor({ state: 'detached' });
    await page.goBack();
    await option(kept.uid).waitFor({ state: 'attached' });
    await expect.poll(() => option(doomed.uid).count()).toBe(0);
  });

  it('flags a stored webhook UID that is not the factory’s, removes it, and deletes the automation', async () => {
    const gone = 'wh_01hzzzzzzzzzzzzzzzzzzzzzzz';
    const automation = await stack.admin.factories.automations.create(factory.uid, {
      name: 'Stale selection',
      prompt: 'p',
      triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [webhook.uid, gone] } }],
    });
    const page = await stack.signIn();
    await page.goto(`/factories/${factory.uid}/automations/${automation.uid}`);
    await page.getByText('deleted or unknown webhook').waitFor();
    await page.getByRole('button', { name: `Remove webhook ${gone}` }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await stack.admin.factories.automations.retrieve(factory.uid, automation.uid);
    expect(saved.triggers[0]?.filter.webhook_ids).toEqual([webhook.uid]);

    await page.getByRole('button', { name: 'Delete automation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete automation' }).click();
    await page.waitForURL(new RegExp(`/factories/${factory.uid}$`));
    await expect(stack.admin.factories.automations.retrieve(factory.uid, automation.uid)).rejects.toMatchObject({ status: 404 });
  });

  it('a member sees the automation read-only and can still test its filter', async () => {
    const member = await stack.admin.apiKeys.create({ name: 'reader', role: 'member' });
    const automation = await stack.admin.factories.automations.create(factory.uid, {
      name: 'Members read this',
      prompt: 'p',
      triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [webhook.uid], payload: { action: 'opened' } } }],
    });
    const page = await stack.signIn(member.api_key);
    await page.goto(`/factories/${factory.uid}/automations/${automation.uid}`);
    await page.getByText('Read-only').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /Save|Delete/ }).count()).toBe(0);
    expect(await runTest(page, opened)).toMatch(/Would trigger \(saved automation\)/);
  });
});
