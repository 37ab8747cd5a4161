// The schedules page in a real browser against the real server, on a clock the test moves (the firing loop
// runs when the test says, as the server's own schedule tests do): an admin creates a schedule with its time
// zone, sees the server's refusal of a bad cron expression at the form, sees a firing and follows it to its
// run and to the runs it started, pauses and resumes, edits and deletes; a member reads without the buttons,
// at 390 px.
import { ManualClock } from '@agent-runs/server/src/clock';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { noHorizontalOverflow, startStack, type Stack } from './support/stack';

const POLL = { timeout: 20_000, interval: 100 };
const schedule = (page: Page, name: string) => page.getByRole('listitem', { name: `Schedule ${name}` });

describe.skipIf(!hasBrowser)('schedules page', () => {
  let stack: Stack;
  // A Monday, 08:30 in Paris.
  const clock = new ManualClock(Date.parse('2026-11-30T07:30:00Z'));

  beforeAll(async () => {
    stack = await startStack({ clock, engine: { scheduler: false }, env: { ECHO_DELAY_MS: '0' } });
  });
  afterAll(() => stack?.close());

  it('creates a schedule in a time zone, shows its firings and the runs it started, pauses, resumes, edits and deletes it', async () => {
    const page = await stack.signIn();
    await page.getByRole('link', { name: 'Schedules' }).click();
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Name').fill('Morning review');
    await form.getByLabel('Cron expression').fill('not a cron');
    await form.getByLabel('Time zone').selectOption('Europe/Paris');
    await form.getByLabel('Prompt').fill('Review the open pull requests.');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await expect.poll(() => form.getByRole('alert').textContent(), POLL).toContain('cron_schedule');

    await form.getByLabel('Cron expression').fill('0 9 * * 1-5');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    const item = schedule(page, 'Morning review');
    await item.waitFor();
    expect(await item.textContent()).toContain('in Europe/Paris');
    expect(await item.getByLabel('Firings of Morning review').textContent()).toContain('not fired yet');
    const [created] = (await stack.admin.agent.schedules.list()).data;
    expect(created).toMatchObject({
      name: 'Morning review',
      cron_schedule: '0 9 * * 1-5',
      time_zone: 'Europe/Paris',
      history: { next_run: '2026-11-30T08:00:00.000Z' },
    });
    await stack.screenshot(page, 'schedules');

    // 09:00 in Paris comes: the slot fires and the page shows what it did, with its run.
    clock.advance(31 * 60_000);
    await stack.server.fireDueSchedules();
    await page.reload();
    const firings = schedule(page, 'Morning review').getByLabel('Firings of Morning review');
    await expect.poll(() => firings.textContent(), POLL).toContain('started a run');
    await firings.getByRole('link', { name: 'its run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Morning review');
    expect(await page.locator('pre.prompt').textContent()).toBe('Review the open pull requests.');
    await page.goBack();
    await schedule(page, 'Morning review').getByRole('link', { name: 'Runs it started' }).click();
    await page.waitForURL(`**/runs?schedule_id=${created!.id}`);
    await expect.poll(() => page.locator('main table tbody tr').count(), POLL).toBe(1);

    await page.getByRole('link', { name: 'Schedules' }).click();
    await schedule(page, 'Morning review').getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => schedule(page, 'Morning review').textContent(), POLL).toContain('paused');
    expect(await schedule(page, 'Morning review').textContent()).toContain('none (paused)');
    await schedule(page, 'Morning review').getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => schedule(page, 'Morning review').textContent(), POLL).toContain('active');

    await schedule(page, 'Morning review').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit Morning review' });
    await edit.getByLabel('Name').fill('Evening review');
    await edit.getByLabel('Cron expression').fill('0 18 * * 1-5');
    await edit.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(() => schedule(page, 'Evening review').textContent(), POLL).toContain('0 18 * * 1-5');
    expect((await stack.admin.agent.schedules.retrieve(created!.id)).time_zone).toBe('Europe/Paris');

    const member = await stack.admin.apiKeys.create({ name: 'schedule-reader', role: 'member' });
    const narrow = await stack.signIn(member.api_key, { width: 390, height: 844 });
    await narrow.goto('/schedules');
    await schedule(narrow, 'Evening review').waitFor();
    expect(await narrow.getByRole('button', { name: 'New schedule' }).count()).toBe(0);
    expect(await schedule(narrow, 'Evening review').getByRole('button').count()).toBe(0);
    await noHorizontalOverflow(narrow);
    await stack.screenshot(narrow, 'schedules-390');

    await schedule(page, 'Evening review').getByRole('button', { name: 'Delete Evening review' }).click();
    await page.getByRole('button', { name: 'Delete schedule' }).click();
    await expect.poll(() => page.getByText('No schedules yet.').count(), POLL).toBe(1);
  });
});
