// A run's artifacts on its page, in a real browser against the real server with the command runner: the
// pull request a run with repositories publishes is a link to the forge (named `owner/repo #number`), and its diff (the FILE
// `repositories/<path>.diff`) shows inline with additions and removals marked — read without cloning.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { startStack, type Stack } from './support/stack';

const POLL = { timeout: 20_000, interval: 100 };

// What engine/repositories/delivery.ts publishes, made here by the command itself (the artifact directory
// and an `::artifact::` line), so no forge is needed to show it.
const SCRIPT = [
  'mkdir -p .artifacts/repositories',
  `printf 'diff --git a/README.md b/README.md\\n--- a/README.md\\n+++ b/README.md\\n@@ -1 +1 @@\\n-old line\\n+new line\\n' > .artifacts/repositories/app.diff`,
  `echo '::artifact::{"artifact_type":"PULL_REQUEST","url":"https://git.example.com/acme/app/pull/7","branch":"agent/1234abcd"}'`,
].join('\n');

describe.skipIf(!hasBrowser)('run artifacts', () => {
  let stack: Stack;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack({ env: { RUNNER: 'command', AGENT_COMMAND: 'sh' } });
    page = await stack.signIn();
  });
  afterAll(() => stack?.close());

  it('links the pull request and shows the diff inline', async () => {
    const { run_id } = await stack.admin.agent.runs.create({ prompt: SCRIPT, title: 'Changes the README' });
    await expect.poll(async () => (await stack.admin.agent.runs.retrieve(run_id)).state, POLL).toBe('SUCCEEDED');
    await page.goto(`/runs/${run_id}`);
    const artifacts = page.getByRole('region', { name: 'Artifacts' });
    await artifacts.waitFor();
    // The pull request by its repository and number, linking to the forge.
    expect(await artifacts.getByRole('link', { name: 'acme/app #7' }).getAttribute('href')).toBe('https://git.example.com/acme/app/pull/7');
    expect(await artifacts.textContent()).toContain('agent/1234abcd');

    await artifacts.getByRole('button', { name: 'Show the diff repositories/app.diff' }).click();
    const diff = page.getByLabel('Diff repositories/app.diff', { exact: true });
    await diff.waitFor();
    expect(await diff.locator('.diff-add').allTextContents()).toEqual(['+new line\n']);
    expect(await diff.locator('.diff-del').allTextContents()).toEqual(['-old line\n']);
    await stack.screenshot(page, 'run-artifacts-diff');
  });
});
