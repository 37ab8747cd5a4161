// The runs pages in a real browser against the real server (echo runner, slowed down so that states
// can be seen and a run can be cancelled while it works): a run started from the form reaches SUCCEEDED
// live with its transcript, a follow-up continues it, the list follows runs made elsewhere live, filters
// sit in the URL, pages page, cancel goes through the confirm dialog, a session_link lands on its run,
// attachments download, and a member key sees it all at 360 px.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { noHorizontalOverflow, startStack, type Stack } from './support/stack';

// Slow enough that a run is followed live; no check depends on seeing a passing state (the state history
// shows every state the run went through, however fast the machine).
const ECHO_DELAY_MS = 2000;
const POLL = { timeout: 20_000, interval: 100 };

const details = (page: Page) => page.getByRole('region', { name: 'Details' });
const transcript = (page: Page) => page.getByRole('region', { name: 'Transcript' });
const stateHistory = (page: Page) => page.getByRole('region', { name: 'State history' }).locator('li .badge').allTextContents();
const runRows = (page: Page) => page.locator('main table tbody tr');
const rowOf = (page: Page, title: string) => runRows(page).filter({ has: page.getByRole('link', { name: title, exact: true }) });

describe.skipIf(!hasBrowser)('runs pages', () => {
  let stack: Stack;
  let page: Page;
  let formRunId: string;

  beforeAll(async () => {
    stack = await startStack({ env: { ECHO_DELAY_MS: String(ECHO_DELAY_MS), WORKER_CONCURRENCY: '4' } });
    page = await stack.signIn();
  });
  afterAll(() => stack?.close());

  it('a run started from the form reaches SUCCEEDED live, with its state history and the echoed transcript', async () => {
    const environment = await stack.admin.agent.environments.create({ name: 'form-env' });
    await page.getByRole('link', { name: 'New run' }).click();
    await page.getByLabel('Prompt', { exact: true }).waitFor();
    // The environment select lists the team's environments by name (Oz's CloudEnvironment: uid, config.name);
    // the model field suggests GET /agent/models.
    await page.locator(`#run-environment option[value="${environment.uid}"]`).waitFor({ state: 'attached' });
    expect(await page.locator(`#run-environment option[value="${environment.uid}"]`).textContent()).toBe(`form-env (${environment.uid})`);
    await page.locator('#run-models option[value="echo"]').waitFor({ state: 'attached' });
    await stack.screenshot(page, 'run-create');

    // Client-side check of the MCP servers JSON, then the server's 400 shown at its field.
    await page.getByLabel('Prompt', { exact: true }).fill('Say hello to the dashboard.');
    await page.getByLabel('MCP servers (JSON)').fill('["not", "an object"]');
    await page.getByRole('button', { name: 'Start run' }).click();
    await expect.poll(() => page.locator('#run-mcp-servers-error').textContent()).toContain('must be a JSON object');
    await page.getByLabel('MCP servers (JSON)').fill('');
    await page.getByLabel('Skill', { exact: true }).fill('not a skill spec');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Could not start the run');
    expect(await page.getByLabel('Skill', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await stack.screenshot(page, 'run-create-problem');

    await page.getByLabel('Skill', { exact: true }).fill('');
    await page.getByLabel('Title', { exact: true }).fill('Greeting from the form');
    await page.getByLabel('Config name', { exact: true }).fill('greeter');
    await page.getByLabel('Environment', { exact: true }).selectOption(environment.uid);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    formRunId = page.url().split('/').pop()!;
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Greeting from the form');

    // SUCCEEDED without reloading, and every state on the way in the history.
    await expect.poll(() => details(page).textContent(), POLL).toContain('SUCCEEDED');
    expect(await stateHistory(page)).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
    await expect.poll(() => transcript(page).locator('.message.role-assistant').textContent(), POLL).toContain('Say hello to the dashboard.');
    expect(await transcript(page).locator('.message.role-user').textContent()).toContain('Say hello to the dashboard.');
    // The resolved configuration keeps the name given in the form.
    expect(await page.locator('.json').textContent()).toContain('greeter');
    expect((await stack.admin.agent.runs.retrieve(formRunId)).agent_config?.environment_id).toBe(environment.uid);
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    await stack.screenshot(page, 'run-page');
  });

  it('a follow-up on the finished run re-queues it and its answer joins the transcript as turn 2', async () => {
    await page.getByLabel('Follow-up message').fill('And once more, please.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => transcript(page).getByRole('region', { name: 'Turn 2' }).count(), POLL).toBe(1);
    await expect.poll(() => transcript(page).getByRole('region', { name: 'Turn 2' }).locator('.message.role-assistant').count(), POLL).toBe(1);
    expect(await transcript(page).getByRole('region', { name: 'Turn 2' }).locator('.message.role-assistant').textContent()).toContain('And once more, please.');
    await expect.poll(() => details(page).textContent(), POLL).toContain('SUCCEEDED');
    expect((await stateHistory(page)).slice(4)).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
  });

  it('the runs list shows the run, and follows a run created elsewhere live (a new row, which reaches SUCCEEDED)', async () => {
    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    await rowOf(page, 'Greeting from the form').waitFor();
    expect(await rowOf(page, 'Greeting from the form').textContent()).toContain('SUCCEEDED');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count(), POLL).toBe(1);

    const created = await stack.admin.agent.runs.create({ prompt: 'made through the SDK', title: 'Made elsewhere' });
    const row = rowOf(page, 'Made elsewhere');
    await row.waitFor({ timeout: 10_000 });
    await expect.poll(() => row.textContent(), POLL).toContain('SUCCEEDED');
    expect(await row.getByRole('link').getAttribute('href')).toBe(`/runs/${created.run_id}`);
    await stack.screenshot(page, 'runs-list');
  });

  it('filters by state and config name sit in the URL and narrow the list', async () => {
    await stack.admin.agent.runs.createAndWait({ prompt: 'another greeter', title: 'Second greeter', config: { name: 'greeter' } });
    const other = await stack.admin.agent.runs.create({ prompt: 'stopped early', title: 'Cancelled greeter', config: { name: 'greeter' } });
    await stack.admin.agent.runs.cancel(other.run_id);
    await page.getByText('Filters', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'SUCCEEDED' }).check();
    await page.getByLabel('Config name', { exact: true }).fill('greeter');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/\/runs\?state=SUCCEEDED&name=greeter$/);
    await expect.poll(async () => (await runRows(page).allTextContents()).length, POLL).toBe(2);
    const titles = await page.locator('main table tbody tr td.run-title').allTextContents();
    expect(titles.sort()).toEqual(['Greeting from the form', 'Second greeter']);
    expect(page.url()).not.toContain(stack.server.adminKey);

    // A reload (or a shared link) shows the same view.
    await page.reload();
    await runRows(page).first().waitFor();
    expect((await page.locator('main table tbody tr td.run-title').allTextContents()).sort()).toEqual(['Greeting from the form', 'Second greeter']);
    expect(await page.getByRole('checkbox', { name: 'SUCCEEDED' }).isChecked()).toBe(true);
    await stack.screenshot(page, 'runs-list-filtered');
  });

  it('pages through the runs with a small page size', async () => {
    await page.goto('/runs?limit=2');
    await expect.poll(async () => (await runRows(page).allTextContents()).length, POLL).toBe(2);
    const first = await page.locator('main table tbody tr td.run-title').allTextContents();
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByText('Page 2').count(), POLL).toBe(1);
    await expect.poll(async () => (await page.locator('main table tbody tr td.run-title').allTextContents()).join('|'), POLL).not.toBe(first.join('|'));
    const second = await page.locator('main table tbody tr td.run-title').allTextContents();
    expect(second.length).toBeGreaterThan(0);
    expect(second.some((title) => first.includes(title))).toBe(false);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(async () => (await page.locator('main table tbody tr td.run-title').allTextContents()).join('|'), POLL).toBe(first.join('|'));
  });

  it("a run's session_link asks for a key, then lands on the run's page; an unknown session says so", async () => {
    const run = await stack.admin.agent.runs.retrieve(formRunId);
    expect(run.session_link).toBeDefined();
    const context = await stack.browser.newContext({ baseURL: stack.server.baseUrl });
    const visitor = await context.newPage();
    await visitor.goto(run.session_link!);
    await visitor.getByLabel('API key').fill(stack.server.adminKey);
    await visitor.getByRole('button', { name: 'Sign in' }).click();
    await visitor.waitForURL(`**/runs/${formRunId}`);
    await expect.poll(() => visitor.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Greeting from the form');

    await visitor.goto('/sessions/00000000-0000-4000-8000-000000000000');
    await expect.poll(() => visitor.getByRole('alert').textContent(), POLL).toContain('No run of session');
    await context.close();
  });

  it('an attachment downloads with its bytes', async () => {
    const text = 'line one\nline two\n';
    const { run_id } = await stack.admin.agent.runs.create({
      prompt: 'read the notes',
      title: 'With notes',
      attachments: [{ file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from(text).toString('base64') }],
    });
    await page.goto(`/runs/${run_id}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download notes.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    expect(await readFile((await download.path())!, 'utf8')).toBe(text);
  });

  it('a member key sees the runs and a run page at 360 px without sideways scrolling', async () => {
    const member = await stack.admin.apiKeys.create({ name: 'viewer', role: 'member' });
    const phone = await stack.signIn(member.api_key, { width: 360, height: 740 });
    await phone.goto('/runs');
    await rowOf(phone, 'Greeting from the form').waitFor();
    await noHorizontalOverflow(phone);
    await stack.screenshot(phone, 'runs-list-360');

    await rowOf(phone, 'Greeting from the form').getByRole('link').click();
    await expect.poll(() => details(phone).textContent(), POLL).toContain('SUCCEEDED');
    await transcript(phone).locator('.message.role-assistant').first().waitFor();
    await noHorizontalOverflow(phone);
    await stack.screenshot(phone, 'run-page-360');
  });
});

// Its own server whose echo runs never finish by themselves: the run is surely still in progress when the
// person confirms, however slow the machine.
describe.skipIf(!hasBrowser)('cancelling a run', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { ECHO_DELAY_MS: '600000' } });
  });
  afterAll(() => stack?.close());

  it('cancels a run in progress through the confirm dialog', async () => {
    const page = await stack.signIn();
    const { run_id } = await stack.admin.agent.runs.create({ prompt: 'take your time', title: 'To be cancelled' });
    await page.goto(`/runs/${run_id}`);
    await expect.poll(() => details(page).textContent(), POLL).toContain('INPROGRESS');
    await page.getByRole('button', { name: 'Cancel run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this run?' });
    expect(await dialog.textContent()).toContain('becomes CANCELLED');
    await dialog.getByRole('button', { name: 'Cancel the run' }).click();
    await expect.poll(() => details(page).textContent(), POLL).toContain('CANCELLED');
    expect((await stack.admin.agent.runs.retrieve(run_id)).state).toBe('CANCELLED');
    // Neither cancel nor follow-up applies to a cancelled run.
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    expect(await page.getByLabel('Follow-up message').count()).toBe(0);
  });

  it("the runs list follows a row's state change live: a run that never finishes by itself, cancelled elsewhere", async () => {
    const page = await stack.signIn();
    const { run_id } = await stack.admin.agent.runs.create({ prompt: 'wait for me', title: 'Cancelled elsewhere' });
    await page.goto('/runs');
    const row = rowOf(page, 'Cancelled elsewhere');
    await expect.poll(() => row.textContent(), POLL).toContain('INPROGRESS');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live' }).count(), POLL).toBe(1);
    await stack.admin.agent.runs.cancel(run_id);
    await expect.poll(() => row.textContent(), POLL).toContain('CANCELLED');
  });
});
