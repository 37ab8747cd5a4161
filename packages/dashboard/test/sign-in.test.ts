// Signing in with an API key, in a real browser against the real server: the team and role are shown,
// a wrong key gets the server's problem detail, the key never appears in the URL, a reload keeps the
// session (this tab's session storage), signing out forgets it, and a member sees no admin navigation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { startStack, type Stack } from './support/stack';

describe.skipIf(!hasBrowser)('sign in', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('an admin key shows team default, the admin role and the admin navigation', async () => {
    const page = await stack.signIn();
    const whoami = page.getByLabel('Signed in as');
    await expect.poll(() => whoami.textContent()).toContain('default');
    expect(await whoami.textContent()).toContain('admin');
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(1);
    expect(page.url()).not.toContain(stack.server.adminKey);
    await stack.screenshot(page, 'signed-in');

    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => window.sessionStorage.length)).toBe(0);
  });

  it('tells an operator who lost the admin key how to make another', async () => {
    const context = await stack.browser.newContext({ baseURL: stack.server.baseUrl });
    const page = await context.newPage();
    await page.goto('/');
    const hint = page.getByText('Lost the admin key?');
    await hint.waitFor();
    expect(await hint.textContent()).toContain('pnpm --silent admin create-key --team default --role admin');
    await context.close();
  });

  it('a wrong key is refused with the server problem detail', async () => {
    const context = await stack.browser.newContext({ baseURL: stack.server.baseUrl });
    const page = await context.newPage();
    await page.goto('/runs');
    await page.getByLabel('API key').fill('ar_live_' + 'x'.repeat(43));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Could not sign in: .*(key|credential)/i);
    expect(await page.evaluate(() => window.sessionStorage.length)).toBe(0);
    await stack.screenshot(page, 'sign-in-refused');
    await context.close();
  });

  it('a member key shows the member role and no API keys page', async () => {
    const member = await stack.server.createTeamWithKey('acme', 'member');
    const page = await stack.signIn(member.apiKey, { width: 360, height: 740 });
    const whoami = page.getByLabel('Signed in as');
    await expect.poll(() => whoami.textContent()).toContain('acme');
    expect(await whoami.textContent()).toContain('member');
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await stack.screenshot(page, 'signed-in-member-360');
  });
});
