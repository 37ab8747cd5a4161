// A run's page as an agent console, in a real browser against the real server: the built-in agent (model
// runner, the scripted OpenAI-compatible fake provider) runs a command, reads and edits a file, publishes a
// plan and asks a question; the page draws each tool call by its category (a command with its exit code
// and collapsible output, an edit as a diff, a read as its path and range), renders the plan's Markdown
// without its raw HTML, shows the question with an answer box that resumes the run, what the run ran in,
// and its usage against its budget. A command run's output chunks read as one text, with no usage shown.
import type { Page } from 'playwright-core';
import { FakeModel, text, toolCalls, usage } from '@agent-runs/server/test/agent/support/fake-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser } from './support/browser';
import { noHorizontalOverflow, startStack, type Stack } from './support/stack';

const POLL = { timeout: 30_000, interval: 100 };
const PLAN =
  '# Fix the adder\n\n1. Read `add.sh`\n2. **Replace** the minus\n\n<script>window.planRan = true</script><b>raw</b>\n\n[the docs](https://example.com/docs)\n';

const transcript = (page: Page) => page.getByRole('region', { name: 'Transcript' });

describe.skipIf(!hasBrowser)('the run page as an agent console', () => {
  let stack: Stack;
  let model: FakeModel;

  beforeAll(async () => {
    model = await FakeModel.start();
    stack = await startStack({ env: { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'console-model' } });
  });
  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  it('draws tool calls by category, renders the plan, and answers a blocked run from its page', async () => {
    const environment = await stack.admin.agent.environments.create({
      name: 'adder',
      setup_commands: [`printf 'add() {\\n  echo $(($1 - $2))\\n}\\n' > add.sh`],
    });
    model.reply(
      toolCalls(
        [
          { id: 'test', name: 'Bash', arguments: { command: 'sh -c ". ./add.sh; add 2 3"; exit 3', description: 'try the adder' } },
          { id: 'read', name: 'Read', arguments: { file_path: 'add.sh', offset: 1, limit: 3 } },
        ],
        usage(100, 20),
      ),
      toolCalls([{ id: 'edit', name: 'Edit', arguments: { file_path: 'add.sh', old_string: '$1 - $2', new_string: '$1 + $2' } }], usage(120, 10)),
      toolCalls([{ id: 'plan', name: 'publish_artifact', arguments: { artifact_type: 'PLAN', title: 'Fix the adder', content: PLAN } }], usage(130, 10)),
      toolCalls([{ id: 'ask', name: 'ask_user', arguments: { question: 'Open a pull request too?' } }], usage(140, 10)),
      text('Done: the adder adds, no pull request.', usage(150, 10)),
    );
    const { run_id } = await stack.admin.agent.runs.create({
      prompt: 'Fix the adder.',
      title: 'Console run',
      config: { environment_id: environment.uid, max_tokens: 10_000 },
    });
    await expect.poll(async () => (await stack.admin.agent.runs.retrieve(run_id)).state, POLL).toBe('BLOCKED');

    const page = await stack.signIn();
    await page.goto(`/runs/${run_id}`);
    const status = page.getByRole('status', { name: 'Status message' });
    await expect.poll(() => status.textContent(), POLL).toContain('Open a pull request too?');

    // A command: its line, its exit code, its output folded away (open, since it failed).
    const command = transcript(page).getByLabel(/^Command sh -c/);
    await command.waitFor();
    expect(await command.locator('.tool-command-line').textContent()).toBe('$ sh -c ". ./add.sh; add 2 3"; exit 3');
    expect(await command.locator('.badge').textContent()).toBe('exit 3');
    expect(await command.textContent()).toContain('try the adder');
    expect(await command.locator('details.tool-output').getAttribute('open')).not.toBeNull();
    expect(await command.locator('details.tool-output pre').textContent()).toContain('-1');

    // A read: its path and range, the file on demand. An edit: a diff.
    const read = transcript(page).getByLabel('Read add.sh');
    expect(await read.textContent()).toContain('lines 1–3');
    expect(await read.locator('details.tool-output').getAttribute('open')).toBeNull();
    const edit = transcript(page).getByLabel('Edit of add.sh');
    expect(await edit.locator('.diff-del').allTextContents()).toEqual(['- $1 - $2\n']);
    expect(await edit.locator('.diff-add').allTextContents()).toEqual(['+ $1 + $2\n']);

    expect(await transcript(page).getByLabel('Published PLAN').textContent()).toContain('Fix the adder');

    // The plan, rendered: headings and emphasis, a link that opens away, no raw HTML shown or run.
    const plan = page.getByLabel('Plan Fix the adder').first();
    await plan.waitFor();
    expect(await plan.locator('h1').textContent()).toBe('Fix the adder');
    expect(await plan.locator('strong').textContent()).toBe('Replace');
    expect(await plan.getByRole('link', { name: 'the docs' }).getAttribute('target')).toBe('_blank');
    expect(await plan.locator('script, b').count()).toBe(0);
    expect(await plan.textContent()).not.toContain('raw');
    expect(await page.evaluate(() => (window as unknown as { planRan?: boolean }).planRan)).toBeUndefined();

    // What it ran in and what it spent against its budget.
    const ranIn = page.getByRole('region', { name: 'Ran in' });
    expect(await ranIn.textContent()).toContain('adder');
    const spent = page.getByRole('region', { name: 'Usage' });
    expect(await spent.textContent()).toContain('of 10,000 allowed');
    await stack.screenshot(page, 'run-console-blocked');

    // The answer box sits under the question; answering resumes the run to its end.
    await page.getByLabel('Your answer').fill('No, just the fix.');
    await page.getByRole('button', { name: 'Answer' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Details' }).textContent(), POLL).toContain('SUCCEEDED');
    await expect.poll(() => transcript(page).textContent(), POLL).toContain('Done: the adder adds, no pull request.');
    expect(model.requests.at(-1)!.body.messages.some((m: { content?: unknown }) => m.content === 'No, just the fix.')).toBe(true);
    await stack.screenshot(page, 'run-console');

    const narrow = await stack.signIn(undefined, { width: 390, height: 844 });
    await narrow.goto(`/runs/${run_id}`);
    await transcript(narrow).getByLabel('Edit of add.sh').waitFor();
    await noHorizontalOverflow(narrow);
    await stack.screenshot(narrow, 'run-console-390');
  });
});

describe.skipIf(!hasBrowser)('a command run on its page', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ env: { RUNNER: 'command', AGENT_COMMAND: 'sh' } });
  });
  afterAll(() => stack?.close());

  it('reads its output chunks as one text with stderr marked, and shows no usage or model', async () => {
    const script = 'for i in 1 2 3; do echo "line $i"; sleep 0.05; done; echo oops >&2; echo after';
    const { run_id } = await stack.admin.agent.runs.create({ prompt: script, title: 'Chunks' });
    await expect.poll(async () => (await stack.admin.agent.runs.retrieve(run_id)).state, POLL).toBe('SUCCEEDED');
    const page = await stack.signIn();
    await page.goto(`/runs/${run_id}`);
    const assistant = transcript(page).locator('.message.role-assistant');
    await expect.poll(() => assistant.count(), POLL).toBe(1);
    expect(await assistant.locator('.block-text').count()).toBe(1);
    expect(await assistant.locator('.block-text').textContent()).toBe('line 1\nline 2\nline 3\noops\nafter\n');
    expect(await assistant.locator('.stderr').allTextContents()).toEqual(['oops\n']);
    expect(await page.getByRole('region', { name: 'Usage' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Ran in' }).count()).toBe(0);
    expect(await page.getByText('Skills it may load').count()).toBe(0);
  });
});
