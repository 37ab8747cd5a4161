// Secrets, API keys and environments in a real browser against the real server: a secret is set (password
// input), listed by name only and deleted; an API key's value shows once, works, and stops working when
// revoked; revoking the last admin key shows the server's 409; a member sees no management controls and
// the server's 403 on /api-keys; environments are created, listed and edited.
import { AgentRuns, APIError } from '@agent-runs/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { startStack, type Stack } from './support/stack';

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe.skipIf(!hasBrowser)('settings pages', () => {
  let stack: Stack;
  const clientWith = (apiKey: string) => new AgentRuns({ apiKey, baseURL: stack.server.apiUrl, maxRetries: 0 });

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('sets, lists and deletes a secret without ever showing its value', async () => {
    const page = await stack.signIn();
    await page.getByRole('link', { name: 'Secrets' }).click();
    const value = 'not-for-your-eyes-1234';
    expect(await page.getByLabel('Value', { exact: true }).getAttribute('type')).toBe('password');
    await page.getByLabel('Name', { exact: true }).fill('GITHUB_WEBHOOK_SECRET');
    await page.getByLabel('Value', { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Store secret' }).click();
    const list = page.getByRole('list', { name: 'Secrets' });
    await list.getByText('GITHUB_WEBHOOK_SECRET', { exact: true }).waitFor();
    expect((await stack.admin.secrets.list()).data.map((s) => s.name)).toEqual(['GITHUB_WEBHOOK_SECRET']);
    expect(await page.content()).not.toContain(value);

    await page.getByLabel('Name', { exact: true }).fill('OTHER_SECRET');
    await page.getByLabel('Value', { exact: true }).fill('x');
    await page.getByRole('button', { name: 'Store secret' }).click();
    await list.getByText('OTHER_SECRET', { exact: true }).waitFor();
    await stack.screenshot(page, 'secrets');

    await page.getByRole('button', { name: 'Delete OTHER_SECRET' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete secret' }).click();
    await list.getByText('OTHER_SECRET', { exact: true }).waitFor({ state: 'detached' });
    expect((await stack.admin.secrets.list()).data.map((s) => s.name)).toEqual(['GITHUB_WEBHOOK_SECRET']);

    const narrow = await stack.signIn(undefined, { width: 360, height: 740 });
    await narrow.getByRole('link', { name: 'Secrets' }).click();
    await narrow.getByRole('list', { name: 'Secrets' }).getByText('GITHUB_WEBHOOK_SECRET', { exact: true }).waitFor();
    expect(await noSidewaysScroll(narrow)).toBe(true);
    await stack.screenshot(narrow, 'secrets-360');
  });

  it('creates an API key shown once, revokes it, and shows the 409 for the last admin key', async () => {
    const page = await stack.signIn();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name (optional)').fill('ci');
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Create key' }).click();
    const once = page.locator('.secret-once');
    await once.waitFor();
    const apiKey = (await once.getByLabel('New API key', { exact: true }).textContent()) ?? '';
    expect(apiKey).toMatch(/^ar_live_[A-Za-z0-9_-]{43}$/);
    expect(await once.textContent()).toContain('shown only this once');
    expect((await clientWith(apiKey).apiKeys.current()).key.role).toBe('member');
    await page.getByRole('button', { name: 'Copy the new API key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    await page.getByRole('list', { name: 'API keys' }).getByText('ci', { exact: true }).waitFor();
    await stack.screenshot(page, 'api-keys-created');

    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.content()).not.toContain(apiKey);

    await page.getByRole('button', { name: 'Revoke ci' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('401');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('list', { name: 'API keys' }).getByText('ci', { exact: true }).waitFor({ state: 'detached' });
    await expect(clientWith(apiKey).apiKeys.current()).rejects.toMatchObject({ status: 401 });

    // The only admin key: the server refuses, and the dialog shows why.
    const own = (await stack.admin.apiKeys.current()).key;
    await page.getByRole('button', { name: `Revoke ${own.name ?? own.key_id}` }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/admin/i);
    await stack.screenshot(page, 'api-keys-last-admin');
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    expect((await stack.admin.apiKeys.current()).key.key_id).toBe(own.key_id);

    const narrow = await stack.signIn(undefined, { width: 360, height: 740 });
    await narrow.getByRole('link', { name: 'API keys' }).click();
    await narrow.getByRole('list', { name: 'API keys' }).waitFor();
    expect(await noSidewaysScroll(narrow)).toBe(true);
    await stack.screenshot(narrow, 'api-keys-360');
  });

  it('creates, lists and edits an environment', async () => {
    const page = await stack.signIn();
    await page.getByRole('link', { name: 'Environments' }).click();
    await page.getByRole('button', { name: 'New environment' }).click();
    await page.getByLabel('Name', { exact: true }).fill('node-20');
    await page.getByLabel('Description').fill('Node 20 with pnpm');
    await page.getByLabel('Setup commands (one per line)').fill('corepack enable\npnpm install --frozen-lockfile');
    await page.getByLabel('Variables (NAME=value per line)').fill('NPM_TOKEN=npm_secret_value');
    await page.getByRole('button', { name: 'Create environment' }).click();
    const item = page.getByRole('listitem', { name: 'node-20' });
    await item.getByText('NPM_TOKEN').waitFor();
    expect(await item.textContent()).toContain('pnpm install --frozen-lockfile');
    expect(await page.content()).not.toContain('npm_secret_value');

    await item.getByRole('button', { name: 'Edit node-20' }).click();
    await page.getByLabel('Description').fill('Node 20, pnpm and Playwright');
    await page.getByRole('button', { name: 'Save environment' }).click();
    await page.getByRole('listitem', { name: 'node-20' }).getByText('Node 20, pnpm and Playwright').waitFor();
    const [stored] = (await stack.admin.agent.environments.list()).data;
    expect(stored).toMatchObject({ config: { name: 'node-20', description: 'Node 20, pnpm and Playwright' }, env_var_names: ['NPM_TOKEN'] });
    expect(await page.getByRole('listitem', { name: 'node-20' }).textContent()).toContain('none yet');

    // A second one: most recently updated first, or by name; a run that selected it shows as its last run.
    await stack.admin.agent.environments.create({ name: 'alpine' });
    await page.reload();
    const names = () => page.getByRole('list', { name: 'Environments' }).locator('h2.env-name').allTextContents();
    await page.getByRole('listitem', { name: 'alpine' }).waitFor();
    expect((await names()).map((n) => n.trim())).toEqual(['alpine', 'node-20']);
    await page.getByLabel('Sort environments').selectOption('name');
    await page.getByRole('listitem', { name: 'alpine' }).waitFor();
    expect((await names()).map((n) => n.trim())).toEqual(['alpine', 'node-20']);
    await stack.admin.agent.environments.update(stored!.uid, { description: 'Node 20 again' });
    await page.reload(); // changed elsewhere: read again (most recently updated first is the default)
    await page.getByRole('listitem', { name: 'node-20' }).getByText('Node 20 again').waitFor();
    expect((await names()).map((n) => n.trim())).toEqual(['node-20', 'alpine']);
    await stack.admin.agent.runs.create({ prompt: 'in node', title: 'Runs in node', config: { environment_id: stored!.uid } as never });
    await page.reload();
    await page.getByRole('listitem', { name: 'node-20' }).getByRole('link', { name: 'Runs in node' }).waitFor();
    await stack.screenshot(page, 'environments');

    const narrow = await stack.signIn(undefined, { width: 360, height: 740 });
    await narrow.getByRole('link', { name: 'Environments' }).click();
    await narrow.getByRole('listitem', { name: 'node-20' }).waitFor();
    expect(await noSidewaysScroll(narrow)).toBe(true);
    await stack.screenshot(narrow, 'environments-360');
  });

  it('gives an environment its image and repositories, and clears the image again', async () => {
    // The secrets an environment names must exist (the server says so otherwise).
    for (const name of ['REGISTRY_AUTH', 'FORGE_TOKEN']) await stack.admin.secrets.put(name, { value: `${name.toLowerCase()}-value` });
    const page = await stack.signIn();
    await page.getByRole('link', { name: 'Environments' }).click();
    await page.getByRole('button', { name: 'New environment' }).click();
    const form = page.getByRole('form', { name: 'New environment' });
    await form.getByLabel('Name', { exact: true }).fill('devbox');
    await form.getByLabel('Container image').fill('registry.example.com/team/devbox:1.4');
    await form.getByLabel('Registry secret').fill('REGISTRY_AUTH');
    const repositories = form.getByLabel(/^Repositories/);
    await repositories.fill('acme/app main\nnot a repository at all, really');
    await form.getByRole('button', { name: 'Create environment' }).click();
    expect(await form.getByRole('alert').textContent()).toContain('Repositories, line 2');
    await repositories.fill('acme/app main\nhttps://git.example.com/libs/util.git v1.0 vendor/util\nacme/docs - site');
    await form.getByLabel('Git token secret').fill('FORGE_TOKEN');
    await form.getByLabel('Open a pull request when a run changes a repository').check();
    // A registry the operator does not allow (IMAGE_REGISTRIES) is the server's refusal, shown at the form.
    await form.getByRole('button', { name: 'Create environment' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('registry.example.com');
    await form.getByLabel('Container image').fill('ghcr.io/acme/devbox:1.4');
    await form.getByRole('button', { name: 'Create environment' }).click();

    const item = page.getByRole('listitem', { name: 'devbox' });
    await item.getByText('ghcr.io/acme/devbox:1.4').waitFor();
    expect(await item.getByRole('list', { name: 'Repositories of devbox' }).locator('li').allTextContents()).toEqual([
      'acme/app main',
      'acme/docs - site',
      'https://git.example.com/libs/util.git v1.0 vendor/util',
    ]);
    expect(await item.textContent()).toContain('opens a pull request with the token in FORGE_TOKEN');
    const stored = (await stack.admin.agent.environments.list()).data.find((e) => e.config.name === 'devbox')!;
    expect(stored.config).toMatchObject({
      docker_image: 'ghcr.io/acme/devbox:1.4',
      registry_secret_name: 'REGISTRY_AUTH',
      github_repos: [
        { owner: 'acme', repo: 'app', ref: 'main' },
        { owner: 'acme', repo: 'docs', path: 'site' },
      ],
      repos: [{ url: 'https://git.example.com/libs/util.git', ref: 'v1.0', path: 'vendor/util' }],
      git_token_secret_name: 'FORGE_TOKEN',
      auto_pr: true,
    });

    await item.getByRole('button', { name: 'Edit devbox' }).click();
    const edit = page.getByRole('form', { name: 'Edit devbox' });
    await edit.getByLabel('Container image').fill('');
    await edit.getByLabel('Registry secret').fill('');
    await edit.getByRole('button', { name: 'Save environment' }).click();
    await expect.poll(async () => (await stack.admin.agent.environments.retrieve(stored.uid)).config.docker_image ?? null).toBeNull();
    expect((await stack.admin.agent.environments.retrieve(stored.uid)).config.github_repos).toHaveLength(2);
    await stack.admin.agent.environments.delete(stored.uid);
    for (const name of ['REGISTRY_AUTH', 'FORGE_TOKEN']) await stack.admin.secrets.delete(name);
  });

  it('a member sees no management controls and the server’s 403 on /api-keys and /secrets', async () => {
    const member = await stack.admin.apiKeys.create({ name: 'reader', role: 'member' });
    const page = await stack.signIn(member.api_key);
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Secrets' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Environments' }).click();
    await page.getByRole('listitem', { name: 'node-20' }).waitFor();
    expect(await page.getByRole('button', { name: /New environment|Edit|Delete/ }).count()).toBe(0);

    await page.goto('/secrets');
    const secretsRefusal = page.getByRole('alert');
    await secretsRefusal.waitFor();
    expect(await secretsRefusal.textContent()).toMatch(/admin/i);
    expect(await page.getByRole('button', { name: 'Store secret' }).count()).toBe(0);

    await page.goto('/api-keys');
    const keysRefusal = page.getByRole('alert');
    await keysRefusal.waitFor();
    const detail = await clientWith(member.api_key)
      .apiKeys.list()
      .then(
        () => 'listed',
        (err: unknown) => (err instanceof APIError ? err.detail : String(err)),
      );
    expect(detail).toMatch(/admin/i);
    expect(await keysRefusal.textContent()).toBe(detail);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await stack.screenshot(page, 'api-keys-member');
  });
});
