// A long run's page in a real browser against the real server (model runner, the scripted fake provider):
// the transcript opens on its last items with the earlier ones hidden behind "Show earlier", which reveals
// them a window at a time or all at once, and a link to a hidden item opens the page with that item shown
// and scrolled to (docs/decisions.md §The run page at scale).
import type { Page } from 'playwright-core';
import { FakeModel, text, toolCalls } from '@agent-runs/server/test/agent/support/fake-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { startStack, type Stack } from './support/stack';

const POLL = { timeout: 30_000, interval: 100 };
// Calls to a tool the agent does not have: each is an action and its failed result (two blocks, one item),
// answered without a sandbox, so a long conversation is made in seconds.
const CALLS = 450;
const CALLS_PER_REPLY = 50;
const ITEMS = CALLS + 2; // and the prompt, and the last answer's text
const WINDOW = 200;

const transcript = (page: Page) => page.getByRole('region', { name: 'Transcript' });
const drawnItems = (page: Page) => transcript(page).locator('[id^="turn-1-item-"]');
const item = (page: Page, k: number) => page.locator(`#turn-1-item-${k}`);

describe.skipIf(!hasBrowser)('a long transcript, windowed', () => {
  let stack: Stack;
  let model: FakeModel;
  let runId: string;

  beforeAll(async () => {
    model = await FakeModel.start();
    stack = await startStack({ env: { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'window-model' } });
    for (let first = 0; first < CALLS; first += CALLS_PER_REPLY) {
      model.reply(
        toolCalls(Array.from({ length: CALLS_PER_REPLY }, (_, i) => ({ id: `call-${first + i + 1}`, name: 'lookup', arguments: { n: first + i + 1 } }))),
      );
    }
    model.reply(text('All lookups tried.'));
    ({ run_id: runId } = await stack.admin.agent.runs.create({ prompt: 'Look everything up.', config: { max_turns: CALLS / CALLS_PER_REPLY + 5 } }));
  });
  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  it('opens on the last items and shows earlier ones on demand', { timeout: 180_000 }, async () => {
    await expect.poll(async () => (await stack.admin.agent.runs.retrieve(runId)).state, { timeout: 120_000, interval: 250 }).toBe('SUCCEEDED');
    const page = await stack.signIn();
    await page.goto(`/runs/${runId}`);
    await transcript(page).getByText('All lookups tried.').waitFor();

    expect(await drawnItems(page).count()).toBe(WINDOW);
    expect(await item(page, ITEMS - WINDOW + 1).count()).toBe(1);
    expect(await item(page, ITEMS - WINDOW).count()).toBe(0);
    expect(await item(page, ITEMS - 1).getAttribute('aria-label')).toBe('Tool lookup');
    const earlier = page.getByRole('group', { name: 'Earlier items' });
    expect(await earlier.textContent()).toContain(`${ITEMS - WINDOW} earlier items are hidden`);
    // The run's state history comes from its event stream, which opens once the conversation is read.
    await expect.poll(() => page.getByRole('region', { name: 'State history' }).textContent(), POLL).toContain('SUCCEEDED');

    await earlier.getByRole('button', { name: `Show ${WINDOW} earlier` }).click();
    expect(await drawnItems(page).count()).toBe(2 * WINDOW);
    expect(await item(page, ITEMS - 2 * WINDOW + 1).count()).toBe(1);
    expect(await earlier.textContent()).toContain(`${ITEMS - 2 * WINDOW} earlier items are hidden`);

    await earlier.getByRole('button', { name: `Show all ${ITEMS}` }).click();
    expect(await drawnItems(page).count()).toBe(ITEMS);
    expect(await item(page, 1).textContent()).toBe('Look everything up.');
    expect(await item(page, 2).textContent()).toContain('There is no tool named lookup.');
    expect(await earlier.count()).toBe(0);
  });

  it('a link to a hidden item shows it, scrolled to, with the items after it', async () => {
    const page = await stack.signIn();
    await page.goto(`/runs/${runId}#turn-1-item-7`);
    await item(page, 7).waitFor();
    expect(await drawnItems(page).count()).toBe(ITEMS - 6);
    expect(await page.getByRole('group', { name: 'Earlier items' }).textContent()).toContain('6 earlier items are hidden');
    await expect
      .poll(
        () =>
          item(page, 7).evaluate((el) => {
            const box = el.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight;
          }),
        POLL,
      )
      .toBe(true);

    // A card's time links to its first item, on this page.
    const link = transcript(page).locator('.message .meta a').first();
    expect(await link.getAttribute('href')).toBe('#turn-1-item-7');
    await page.goto(`/runs/${runId}#turn-1-item-3`);
    await item(page, 3).waitFor();
    expect(await drawnItems(page).count()).toBe(ITEMS - 2);
  });
});
