// The team's usage and budget page in a real browser against the real server (model runner, the scripted
// fake provider, priced models): a month's totals and per-model usage, the budget with what the month used of
// it, an admin setting a limit the team is already over (and the page saying runs will not start), a member
// reading without the form, and the page at 390 px.
import { FakeModel, text, usage } from '@agent-runs/server/test/agent/support/fake-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { noHorizontalOverflow, startStack, type Stack } from './support/stack';

const POLL = { timeout: 20_000, interval: 100 };
const PRICES = { 'priced-model': { input_per_mtok: 2, output_per_mtok: 8 } };

describe.skipIf(!hasBrowser)('usage and budget page', () => {
  let stack: Stack;
  let model: FakeModel;

  beforeAll(async () => {
    model = await FakeModel.start();
    stack = await startStack({ env: { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'priced-model', MODEL_PRICES: JSON.stringify(PRICES) } });
    model.reply(text('one', usage(1_000, 500)), text('two', usage(3_000, 1_500)));
    for (const prompt of ['first', 'second']) {
      // Follows the run's event stream to its end.
      const run = await stack.admin.agent.runs.createAndWait({ prompt });
      if (run.state !== 'SUCCEEDED') throw new Error(`run ${run.run_id} ended ${run.state}`);
    }
  });
  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  it("shows the month's usage per model and the budget, and an admin sets a limit the team is over", async () => {
    const page = await stack.signIn();
    await page.getByRole('link', { name: 'Usage' }).click();
    const totals = page.getByLabel('Totals');
    await expect.poll(() => totals.textContent(), POLL).toContain('6,000');
    // 4,000 prompt tokens at $2 and 2,000 completion tokens at $8 per million.
    expect(await totals.textContent()).toContain('$0.024');
    const rows = page.getByRole('table', { name: 'Usage per model' }).locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('priced-model');

    const budget = page.getByRole('region', { name: 'Monthly budget' });
    expect(await budget.textContent()).toContain('6,000 used (no limit)');
    await page.getByLabel('Tokens per month').fill('5000');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await expect.poll(() => budget.textContent(), POLL).toContain('6,000 used of 5,000');
    expect(await budget.getByRole('status').textContent()).toContain('new runs are refused');
    expect((await stack.admin.budget.retrieve()).max_tokens_per_month).toBe(5_000);
    await stack.screenshot(page, 'usage');

    // A month without usage says so.
    await page.getByLabel('Month (UTC)').fill('2020-01');
    await expect.poll(() => page.getByRole('region', { name: 'Usage of a month' }).textContent(), POLL).toContain('No model call was answered in 2020-01.');
  });

  it('a member reads usage and budget without the form, at 390 px', async () => {
    const member = await stack.admin.apiKeys.create({ name: 'usage-reader', role: 'member' });
    const page = await stack.signIn(member.api_key, { width: 390, height: 844 });
    await page.goto('/usage');
    await expect.poll(() => page.getByLabel('Totals').textContent(), POLL).toContain('6,000');
    expect(await page.getByRole('form', { name: 'Set the monthly budget' }).count()).toBe(0);
    await noHorizontalOverflow(page);
    await stack.screenshot(page, 'usage-390');
  });
});
