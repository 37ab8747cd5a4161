/**
 * bench:dashboard, the run page (docs/decisions.md §The run page as an agent console):
 *
 * 4. First render of a long run: the built-in agent (model runner, a scripted fake provider) makes 1,000
 *    tool calls — edits (drawn as diffs) and shell commands — so the run's conversation holds about 2,000
 *    blocks; time from navigation start until the page shows the run's last block, cold (new browser
 *    context), median of BENCH_RENDERS loads. Goal < 1 s.
 * 5. Live transcript: a command run prints a line every 20 ms (about 50 blocks/s) for BENCH_LIVE_SECONDS while
 *    its page is open; the main thread's lateness (a 50 ms timer) against the same page idle, and how long
 *    after the run's last line the page shows it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AgentRuns } from '@agent-runs/sdk';
import { startServerProcess, type ServerProcess } from '@agent-runs/server/bench/server-process';
import { FakeModel, text, toolCalls } from '@agent-runs/server/test/agent/support/fake-model';
import type { Browser } from 'playwright-core';
import { signedInPage, watchMainThread, ms, percentile } from './page-probes';

const RENDERS = Number(process.env.BENCH_RENDERS ?? 7);
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 15);
const TOOL_CALLS = 1_000;
const CALLS_PER_REPLY = 50;
const LAST_TEXT = 'All 1000 steps done.';

async function withServer<T>(dist: string, settings: Record<string, string>, use: (server: ServerProcess) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-run-page-'));
  const server = await startServerProcess({ DATABASE_URL: `sqlite:${path.join(dataDir, 'bench.db')}`, DATA_DIR: dataDir, DASHBOARD_DIR: dist, ...settings });
  try {
    return await use(server);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function waitForState(client: AgentRuns, runId: string, states: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await client.agent.runs.retrieve(runId);
    if (states.includes(run.state)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.state}`);
    await delay(250);
  }
}

export async function longRunFirstRender(browser: Browser, dist: string): Promise<void> {
  const model = await FakeModel.start();
  try {
    for (let reply = 0; reply < TOOL_CALLS / CALLS_PER_REPLY; reply++) {
      const calls = Array.from({ length: CALLS_PER_REPLY }, (_, i) => {
        const n = reply * CALLS_PER_REPLY + i;
        const line = `line-${String(n).padStart(4, '0')}`;
        return n % 2 === 0
          ? { id: `edit-${n}`, name: 'Edit', arguments: { file_path: 'lines.txt', old_string: `${line}: before`, new_string: `${line}: after\n${line}: added` } }
          : { id: `cmd-${n}`, name: 'Bash', arguments: { command: `grep -c after lines.txt; echo step ${n}` } };
      });
      model.reply(toolCalls(calls));
    }
    model.reply(text(LAST_TEXT));
    await withServer(dist, { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'bench-model' }, async (server) => {
      const client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, maxRetries: 0 });
      const environment = await client.agent.environments.create({ name: 'lines', setup_commands: [`seq -f 'line-%04g: before' 0 ${TOOL_CALLS - 1} > lines.txt`] });
      const started = Date.now();
      const { run_id } = await client.agent.runs.create({ prompt: 'Edit every line.', config: { environment_id: environment.uid, max_turns: TOOL_CALLS / CALLS_PER_REPLY + 5 } });
      const run = await waitForState(client, run_id, ['SUCCEEDED', 'FAILED', 'ERROR'], 600_000);
      const conversation = await client.agent.runs.conversation(run_id);
      const blocks = conversation.steps.flatMap((s) => s.messages).reduce((n, m) => n + m.content.length, 0);
      console.log(`long run: ${run.state} with ${blocks.toLocaleString('en-US')} conversation blocks, made in ${((Date.now() - started) / 1000).toFixed(1)} s`);

      const renders: number[] = [];
      for (let i = 0; i < RENDERS; i++) {
        const page = await signedInPage(browser, server.baseUrl, server.adminKey);
        await page.goto(`/runs/${run_id}`);
        await page.getByText(LAST_TEXT).first().waitFor({ timeout: 60_000 });
        renders.push(await page.evaluate(() => performance.now()));
        await page.context().close();
      }
      const median = percentile(renders, 50);
      console.log(
        `first render of a run page with ${blocks.toLocaleString('en-US')} blocks: median ${ms(median)}, first (cold) ${ms(renders[0]!)}, max ${ms(Math.max(...renders))} over ${RENDERS} loads (goal < 1 s) → ${median < 1000 ? 'met' : 'MISSED'}`,
      );
    });
  } finally {
    await model.close();
  }
}

export async function liveTranscript(browser: Browser, dist: string): Promise<void> {
  const lines = LIVE_SECONDS * 50;
  const script = `i=0; while [ $i -lt ${lines} ]; do echo "line $i"; i=$((i+1)); sleep 0.02; done; echo LIVE-END`;
  await withServer(dist, { RUNNER: 'command', AGENT_COMMAND: 'sh' }, async (server) => {
    const client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, maxRetries: 0 });
    // The page is open on a finished run first, for the idle baseline, then on the live one.
    const warmup = await client.agent.runs.create({ prompt: 'echo warm', title: 'warm-up' });
    await waitForState(client, warmup.run_id, ['SUCCEEDED'], 60_000);
    const page = await signedInPage(browser, server.baseUrl, server.adminKey);
    await page.goto(`/runs/${warmup.run_id}`);
    await page.getByText('warm').first().waitFor();
    const probe = await watchMainThread(page);
    await delay(3_000);
    const idle = await probe.read();

    const { run_id } = await client.agent.runs.create({ prompt: script, title: 'live transcript' });
    await page.goto(`/runs/${run_id}`);
    const reloaded = await watchMainThread(page);
    const started = Date.now();
    await page.getByText('LIVE-END').first().waitFor({ timeout: (LIVE_SECONDS + 60) * 1000 });
    const shownAt = Date.now();
    const busy = await reloaded.read();
    const run = await waitForState(client, run_id, ['SUCCEEDED'], 60_000);
    const conversation = await client.agent.runs.conversation(run_id);
    const blocks = conversation.steps.flatMap((s) => s.messages).reduce((n, m) => n + m.content.length, 0);
    const seconds = (Date.parse(run.updated_at) - Date.parse(run.started_at ?? run.created_at)) / 1000;
    const line = (what: string, x: { lags: number[]; longTasks: number }, s: number) =>
      `${what}: timer lateness p50 ${ms(percentile(x.lags, 50))}, p99 ${ms(percentile(x.lags, 99))}, max ${ms(Math.max(0, ...x.lags))}; long tasks ${(x.longTasks / s).toFixed(0)} ms per s`;
    console.log(`live transcript: ${blocks.toLocaleString('en-US')} blocks in ${seconds.toFixed(1)} s → ${(blocks / seconds).toFixed(1)} blocks/s`);
    console.log(`  ${line('idle run page (baseline)', idle, 3)}`);
    console.log(`  ${line('live run page', busy, (shownAt - started) / 1000)}`);
    console.log(`  the page showed the run's last line ${ms(Math.max(0, shownAt - Date.parse(run.updated_at)))} after the run ended`);
  });
}
