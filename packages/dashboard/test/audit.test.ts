// The audit log page in a real browser against the real server: changes an admin made (a secret set, an
// environment created, an API key made) are listed newest first with who, what, which fields and from where —
// never a value —, filtered by resource type; a member has no link to it and the API refuses them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { startStack, type Stack } from './support/stack';

const POLL = { timeout: 20_000, interval: 100 };

describe.skipIf(!hasBrowser)('audit log page', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('lists what admins changed, filters by resource type, and is for admins only', async () => {
    await stack.admin.secrets.put('AUDITED_SECRET', { value: 'audited-secret-value' });
    await stack.admin.agent.environments.create({ name: 'audited-env', env_vars: { TOKEN: 'env-secret-value' } });
    const member = await stack.admin.apiKeys.create({ name: 'audit-member', role: 'member' });

    const page = await stack.signIn();
    await page.getByRole('link', { name: 'Audit log' }).click();
    const rows = page.getByRole('table', { name: 'Audit events' }).locator('tbody tr');
    await expect.poll(() => rows.count(), POLL).toBe(3);
    const texts = await rows.allTextContents();
    expect(texts[0]).toContain('api_key');
    expect(texts[1]).toContain('environment');
    expect(texts[1]).toContain('env_vars');
    expect(texts[2]).toContain('secret');
    expect(texts[2]).toContain('AUDITED_SECRET');
    expect(texts.join('\n')).toContain('127.0.0.1');
    expect(await page.content()).not.toContain('audited-secret-value');
    expect(await page.content()).not.toContain('env-secret-value');
    await stack.screenshot(page, 'audit');

    await page.getByLabel('Resource type').selectOption('secret');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows.count(), POLL).toBe(1);
    expect(await rows.first().textContent()).toContain('putSecret');

    const memberPage = await stack.signIn(member.api_key, { width: 390, height: 844 });
    expect(await memberPage.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await expect(stack.admin.withOptions({ apiKey: member.api_key }).auditEvents.list()).rejects.toMatchObject({ status: 403 });
  });
});
