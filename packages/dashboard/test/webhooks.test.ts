// Factories and webhooks in a real browser against the real server: an admin creates a factory and a
// bearer-token webhook, copies its secret once from the clipboard and delivers with it; Recent deliveries
// shows the accepted delivery (payload, the run it started, replay) and the rejected one with its reason;
// Enabled off answers senders 404; rotation makes the old secret 401 and the new one 202; delete makes the
// URL 404. A member sees both pages without management controls, at 360 px; a signature webhook gets its
// provider secret in a second step; a files factory allows only Enabled.
import type { Factory, WebhookWithSecret } from '@agent-runs/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { startStack, type Stack } from './support/stack';

/** POSTs a JSON body to a token-mode webhook's ingress URL with `Authorization: Bearer <token>`; answers the status. */
async function post(stack: Stack, webhookUid: string, token: string, body: unknown): Promise<number> {
  const response = await fetch(`${stack.server.ingressUrl}/webhooks/w/${webhookUid}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
  return response.status;
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** The text of the secret-once card's secret after copying it, read back from the clipboard. */
async function copySecret(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy the webhook secret' }).click();
  await page.getByRole('button', { name: 'Copy the webhook secret' }).getByText('Copied').waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

describe.skipIf(!hasBrowser)('factories and webhooks', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('an admin creates a webhook, delivers with its secret, inspects, toggles, rotates and deletes it', async () => {
    const page = await stack.signIn();
    await page.getByRole('link', { name: 'Factories' }).click();
    await page.getByText('Create a factory').click();
    await page.getByLabel('Name').fill('Support');
    await page.getByRole('button', { name: 'Create factory' }).click();
    await page.waitForURL(/\/factories\/[^/]+$/);
    const factoryUid = page.url().split('/').pop() ?? '';
    await page.getByRole('heading', { name: 'Support' }).waitFor();

    await page.getByText('Create webhook', { exact: true }).and(page.locator('summary')).click();
    await page.getByLabel('Name', { exact: true }).fill('Deploy events');
    await page.getByLabel('Authentication mode').selectOption('token');
    await page.getByText('WEBHOOK_DEPLOY_EVENTS_SECRET').waitFor();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const card = page.locator('.secret-once');
    await card.getByText('will not be shown again').waitFor();
    const secret = await copySecret(page);
    expect(secret).toBe(await card.getByLabel('Webhook secret', { exact: true }).textContent());
    await stack.screenshot(page, 'webhooks-secret-card');

    const link = page.getByRole('list', { name: 'Webhooks' }).getByRole('link', { name: 'Deploy events' });
    const webhookUid = (await link.getAttribute('href'))?.split('/').pop() ?? '';
    const automation = await stack.admin.factories.automations.create(factoryUid, {
      name: 'Announce deploys',
      prompt: 'Announce the deploy in the payload.',
      triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [webhookUid] } }],
    });
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await card.count()).toBe(0);
    await page.reload();
    await page.getByRole('list', { name: 'Automations' }).getByRole('link', { name: 'Announce deploys' }).waitFor();
    expect(await page.getByRole('link', { name: 'New automation' }).getAttribute('href')).toBe(`/factories/${factoryUid}/automations/new`);
    await stack.screenshot(page, 'factory-page');

    await page.getByRole('link', { name: 'Deploy events' }).click();
    await page.getByRole('heading', { name: 'Deploy events' }).waitFor();
    expect(await post(stack, webhookUid, secret, { service: 'api', version: '1.4.2' })).toBe(202);
    expect(await post(stack, webhookUid, 'not-the-secret', { service: 'api' })).toBe(401);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const deliveries = page.getByRole('list', { name: 'Recent deliveries' });
    const rejected = deliveries.getByRole('listitem').filter({ hasText: 'Rejected (auth)' });
    await rejected.getByText('wrong token').waitFor();
    // Newest first: the rejected delivery came last.
    expect(await deliveries.getByRole('listitem').first().textContent()).toContain('Rejected (auth)');

    const accepted = deliveries.getByRole('listitem').filter({ hasText: 'Accepted' });
    await accepted.getByRole('button', { name: 'Show payload' }).click();
    await accepted.getByText('"version"').waitFor();
    await accepted.getByText('"1.4.2"').waitFor();
    const runLink = accepted.getByRole('link').first();
    await runLink.waitFor();
    const [run] = (await stack.admin.agent.runs.list({ automation_id: automation.uid })).data;
    expect(await runLink.getAttribute('href')).toBe(`/runs/${run?.run_id}`);
    await stack.screenshot(page, 'webhook-page-delivery');

    await accepted.getByRole('button', { name: 'Replay' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Replay now' }).click();
    const replayed = page.getByRole('status', { name: 'Replay result' });
    await replayed.getByText('Replay started:').waitFor();
    expect(await replayed.getByRole('link').count()).toBe(1);
    // Runs it started now lists the replay's run too (GET /agent/runs?delivery_id=…).
    await expect.poll(() => accepted.locator('ul.run-links').first().getByRole('link').count(), { timeout: 10_000 }).toBe(2);

    await page.getByLabel('Enabled').uncheck();
    await page.getByText('Senders get 404 while disabled').waitFor();
    expect(await post(stack, webhookUid, secret, { disabled: true })).toBe(404);
    await page.getByLabel('Enabled').check();
    await page.getByText('Senders get 404 while disabled').waitFor({ state: 'detached' });
    expect(await post(stack, webhookUid, secret, { enabled: true })).toBe(202);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotateDialog = page.getByRole('dialog');
    await rotateDialog.getByText('there is no overlap').waitFor();
    await rotateDialog.getByText('create a second webhook, move the sender').waitFor();
    await rotateDialog.getByRole('button', { name: 'Rotate now' }).click();
    await card.getByText('will not be shown again').waitFor();
    const rotated = await copySecret(page);
    expect(rotated).not.toBe(secret);
    expect(await post(stack, webhookUid, secret, { rotated: 'old' })).toBe(401);
    expect(await post(stack, webhookUid, rotated, { rotated: 'new' })).toBe(202);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const deleteDialog = page.getByRole('dialog');
    await deleteDialog.getByText('get 404').waitFor();
    await deleteDialog.getByText('no longer starts their runs').waitFor();
    await deleteDialog.getByRole('button', { name: 'Delete webhook' }).click();
    await page.waitForURL(new RegExp(`/factories/${factoryUid}$`));
    await page.getByText('No webhooks yet.').waitFor();
    expect(await post(stack, webhookUid, rotated, { deleted: true })).toBe(404);
  });

  it('a member sees both pages read-only at 360 px; a url_token URL shows {token}; a provider secret is given later; a files factory allows only Enabled', async () => {
    const factory: Factory = await stack.admin.factories.create({ name: 'Forms' });
    const webhook: WebhookWithSecret = await stack.admin.factories.webhooks.create(factory.uid, { name: 'Form posts', auth_mode: 'url_token' });
    const response = await fetch(webhook.ingress_url, { method: 'POST', body: JSON.stringify({ form: 'contact', email: 'a@example.org' }) });
    expect(response.status).toBe(202);
    const member = await stack.admin.apiKeys.create({ name: 'reader', role: 'member' });
    const page = await stack.signIn(member.api_key, { width: 360, height: 800 });

    await page.goto(`/factories/${factory.uid}`);
    const row = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').filter({ hasText: 'Form posts' });
    await row.getByText(`/webhooks/w/${webhook.uid}/{token}`).waitFor();
    expect(await page.getByText('Create webhook').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'New automation' }).count()).toBe(0);
    expect(await noSidewaysScroll(page)).toBe(true);
    await stack.screenshot(page, 'factory-page-360-member');

    await row.getByRole('link', { name: 'Form posts' }).click();
    await page.getByRole('heading', { name: 'Form posts' }).waitFor();
    const accepted = page.getByRole('list', { name: 'Recent deliveries' }).getByRole('listitem').filter({ hasText: 'Accepted' });
    await accepted.getByRole('button', { name: 'Show payload' }).click();
    await accepted.getByText('"contact"').waitFor();
    await accepted.getByText('No automation matched').waitFor();
    for (const name of ['Rotate secret', 'Delete', 'Replay']) expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'Enabled' }).count()).toBe(0);
    expect(await noSidewaysScroll(page)).toBe(true);
    await stack.screenshot(page, 'webhook-page-delivery-360-member');

    // An admin at 360 px: the url_token webhook's create answer embeds the real token once.
    const admin = await stack.signIn(undefined, { width: 360, height: 800 });
    await admin.goto(`/factories/${factory.uid}`);
    await admin.getByText('Create webhook', { exact: true }).and(admin.locator('summary')).click();
    await admin.getByLabel('Name', { exact: true }).fill('Survey posts');
    await admin.getByLabel('Authentication mode').selectOption('url_token');
    await admin.getByRole('button', { name: 'Create webhook' }).click();
    const card = admin.locator('.secret-once');
    const secret = (await card.getByLabel('Webhook secret', { exact: true }).textContent()) ?? '';
    expect(await card.getByLabel('Ingress URL', { exact: true }).textContent()).toMatch(new RegExp(`/webhooks/w/[^/]+/${secret}$`));
    expect(await noSidewaysScroll(admin)).toBe(true);
    await stack.screenshot(admin, 'webhooks-secret-card-360');

    // A provider that issues its secret only after seeing the URL: the second step sets it.
    const github = await stack.admin.factories.webhooks.create(factory.uid, { name: 'GitHub', auth_mode: 'signature', signature_scheme: 'github' });
    expect(github.secret_configured).toBe(false);
    await admin.goto(`/factories/${factory.uid}/webhooks/${github.uid}`);
    await admin.getByRole('heading', { name: "Waiting for the provider's signing secret" }).waitFor();
    await admin.getByLabel('Provider signing secret').fill('issued-by-github');
    await admin.getByRole('button', { name: 'Save signing secret' }).click();
    await admin.getByRole('heading', { name: "Waiting for the provider's signing secret" }).waitFor({ state: 'detached' });
    expect((await stack.admin.factories.webhooks.retrieve(factory.uid, github.uid)).secret_configured).toBe(true);

    // A files factory: definitions read-only, Enabled toggles, rotation is refused by the server with its reason.
    await stack.admin.secrets.put('GITHUB_SECRET', { value: 'gh-signing-secret' });
    const files = await stack.admin.factories.create({ name: 'Repo', definition_source: 'files' });
    const applied = await stack.admin.factories.applyDefinitions(files.uid, {
      files: [{ path: 'webhooks/github.yaml', content: 'authMode: signature\nsignatureScheme: github\nsecretName: GITHUB_SECRET\n' }],
    });
    await admin.goto(`/factories/${files.uid}`);
    await admin.getByText('read-only except for Enabled').waitFor();
    expect(await admin.getByText('Create webhook').count()).toBe(0);
    await admin.goto(`/factories/${files.uid}/webhooks/${applied.webhooks[0]?.uid}`);
    await admin.getByLabel('Enabled').uncheck();
    await admin.getByText('Senders get 404 while disabled').waitFor();
    expect((await stack.admin.factories.webhooks.retrieve(files.uid, applied.webhooks[0]?.uid ?? '')).enabled).toBe(false);
    expect(await admin.getByRole('button', { name: 'Rotate secret' }).count()).toBe(0);
    await admin.getByText('apply the definitions again').waitFor();
  });
});
