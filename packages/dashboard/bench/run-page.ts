/**
 * bench:dashboard, the run page (docs/decisions.md §The run page as an agent console, §The run page at scale):
 *
 * 4. First render of a long run: the built-in agent (model runner, a scripted fake provider) makes 1,000
 *    tool calls — edits (drawn as diffs) and shell commands — so the run's conversation holds about 2,000
 *    blocks; time from navigation start until the frame after the run's last block entered the page (seen
 *    in the page), cold (new browser context), median of BENCH_RENDERS loads. Goal < 1 s.
 * 5. Live transcript: the same kind of run, as fast as the server makes it (a tool call is two blocks, the
 *    action and its result), while its page is open, for about BENCH_LIVE_SECONDS. For each block, the lag
 *    from its append on the server (its message's timestamp) to its appearance in the page (a
 *    MutationObserver: the call drawn, then its exit badge); p50/p95, and blocks per second appended and
 *    drawn. Goal: the page keeps up with 50 blocks/s. Also the main thread's lateness (a 50 ms timer) against
 *    the same page idle.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AgentRuns, type ConversationResponse } from '@agent-runs/sdk';
import { startServerProcess, type ServerProcess } from '@agent-runs/server/bench/server-process';
import { FakeModel, text, toolCalls } from '@agent-runs/server/test/agent/support/fake-model';
import type { Browser } from 'playwright-core';
import { consoleItems, itemAnchor } from '../src/pages/runs/console-items';
import { ms, percentile, signedInPage, watchMainThread, whenTextShown } from './page-probes';

const RENDERS = Number(process.env.BENCH_RENDERS ?? 7);
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 15);
const TOOL_CALLS = 1_000;
const CALLS_PER_REPLY = 50;
const LAST_TEXT = 'All 1000 steps done.';
/** The live run: as many calls as 50 blocks/s for BENCH_LIVE_SECONDS, ten to a model reply. */
const LIVE_CALLS = Math.ceil((LIVE_SECONDS * 50) / 2);
const LIVE_CALLS_PER_REPLY = 10;
const LIVE_END = 'Live run done.';
/** The live run's first call: its page is open before the blocks flow. */
const LIVE_PAUSE_SECONDS = 5;
/** Goal of the live part: blocks drawn this soon after their append (p95), at 50 blocks/s or more. */
const LIVE_LAG_GOAL_MS = 500;

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

type ScriptedCall = { id: string; name: string; arguments: Record<string, unknown> };

/** Tool call n of a run over lines.txt: an edit of line n (drawn as a diff) or a shell command, in turn. */
function workCall(n: number): ScriptedCall {
  const line = `line-${String(n).padStart(4, '0')}`;
  return n % 2 === 0
    ? { id: `edit-${n}`, name: 'Edit', arguments: { file_path: 'lines.txt', old_string: `${line}: before`, new_string: `${line}: after\n${line}: added` } }
    : { id: `cmd-${n}`, name: 'Bash', arguments: { command: `grep -c after lines.txt; echo step ${n}` } };
}

/**
 * The live run's call n: every other one a lookup with a tool the agent lacks, answered at once without a
 * process (drawn like a failed MCP call, its input as JSON and its error open), so the run reaches 50
 * blocks/s even when the machine is busy; the others as in the long run.
 */
function liveCall(n: number): ScriptedCall {
  return n % 2 === 1 ? { id: `lookup-${n}`, name: 'lookup', arguments: { step: n } } : workCall(n / 2);
}

/** Scripts `calls` tool calls, `perReply` to a model reply, then `lastText`. */
function scriptWork(model: FakeModel, calls: number, perReply: number, lastText: string, call = workCall): void {
  for (let first = 0; first < calls; first += perReply) {
    model.reply(toolCalls(Array.from({ length: Math.min(perReply, calls - first) }, (_, i) => call(first + i))));
  }
  model.reply(text(lastText));
}

/** Starts a run of the scripted work in an environment holding lines.txt. */
async function startWorkRun(client: AgentRuns, calls: number, replies: number): Promise<string> {
  const environment = await client.agent.environments.create({ name: 'lines', setup_commands: [`seq -f 'line-%04g: before' 0 ${calls - 1} > lines.txt`] });
  const { run_id } = await client.agent.runs.create({ prompt: 'Edit every line.', config: { environment_id: environment.uid, max_turns: replies + 5 } });
  return run_id;
}

const blockCount = (conversation: ConversationResponse): number => conversation.steps.flatMap((s) => s.messages).reduce((n, m) => n + m.content.length, 0);

export async function longRunFirstRender(browser: Browser, dist: string): Promise<void> {
  const model = await FakeModel.start();
  try {
    scriptWork(model, TOOL_CALLS, CALLS_PER_REPLY, LAST_TEXT);
    await withServer(dist, { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'bench-model' }, async (server) => {
      const client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, maxRetries: 0 });
      const started = Date.now();
      const run_id = await startWorkRun(client, TOOL_CALLS, TOOL_CALLS / CALLS_PER_REPLY);
      const run = await waitForState(client, run_id, ['SUCCEEDED', 'FAILED', 'ERROR'], 600_000);
      const blocks = blockCount(await client.agent.runs.conversation(run_id));
      console.log(`long run: ${run.state} with ${blocks.toLocaleString('en-US')} conversation blocks, made in ${((Date.now() - started) / 1000).toFixed(1)} s`);

      const renders: number[] = [];
      for (let i = 0; i < RENDERS; i++) {
        const page = await signedInPage(browser, server.baseUrl, server.adminKey);
        const last = await whenTextShown(page, LAST_TEXT);
        await page.goto(`/runs/${run_id}`);
        renders.push(await last.shown(60_000));
        await page.context().close();
      }
      const median = percentile(renders, 50);
      console.log(
        `first render of a run page with ${blocks.toLocaleString('en-US')} blocks: median ${ms(median)}, first (cold) ${ms(renders[0]!)}, max ${ms(Math.max(...renders))} over ${RENDERS} loads, load average ${os.loadavg()[0]!.toFixed(1)} (goal < 1 s) → ${median < 1000 ? 'met' : 'MISSED'}`,
      );
    });
  } finally {
    await model.close();
  }
}

/**
 * Runs in the page from its first script: when each transcript item (`#turn-<n>-item-<k>`) was first drawn,
 * and when a tool call's exit badge was (its result), by item id, in epoch milliseconds (the server's clock).
 * No named inner functions: tsx would wrap them in a helper the page does not have.
 */
function watchTranscript(): void {
  const w = window as unknown as { __drawn: Record<string, number>; __finished: Record<string, number> };
  w.__drawn = {};
  w.__finished = {};
  new MutationObserver((records) => {
    const now = Date.now();
    const touched: Element[] = [];
    for (const record of records) {
      const target = record.target instanceof Element ? record.target.closest('[id^="turn-"]') : null;
      if (target) touched.push(target);
      for (const node of record.addedNodes) {
        if (node instanceof Element) touched.push(...(node.matches('[id^="turn-"]') ? [node] : []), ...node.querySelectorAll('[id^="turn-"]'));
      }
    }
    for (const item of touched) {
      if (!/^turn-\d+-item-\d+$/.test(item.id)) continue;
      w.__drawn[item.id] ??= now;
      if (item.querySelector('.tool-ok, .tool-failed')) w.__finished[item.id] ??= now;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
}

export async function liveTranscript(browser: Browser, dist: string): Promise<void> {
  const model = await FakeModel.start();
  try {
    model.reply(toolCalls([{ id: 'pause', name: 'Bash', arguments: { command: `sleep ${LIVE_PAUSE_SECONDS}` } }]));
    scriptWork(model, LIVE_CALLS, LIVE_CALLS_PER_REPLY, LIVE_END, liveCall);
    await withServer(dist, { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'bench-model' }, async (server) => {
      const client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, maxRetries: 0 });
      const page = await signedInPage(browser, server.baseUrl, server.adminKey);
      await page.addInitScript(watchTranscript);
      const run_id = await startWorkRun(client, LIVE_CALLS, Math.ceil(LIVE_CALLS / LIVE_CALLS_PER_REPLY) + 1);
      await page.goto(`/runs/${run_id}`);
      await page.getByRole('heading', { name: 'Transcript' }).waitFor();
      const openedAt = Date.now();
      const busy = await watchMainThread(page);
      await page
        .getByText(LIVE_END)
        .first()
        .waitFor({ timeout: (LIVE_SECONDS + 120) * 1000 });
      const live = await busy.read();
      const liveSeconds = (Date.now() - openedAt) / 1000;
      await delay(3_000);
      const idle = await busy.read();

      const run = await waitForState(client, run_id, ['SUCCEEDED', 'FAILED', 'ERROR'], 60_000);
      const conversation = await client.agent.runs.conversation(run_id);
      const { drawn, finished } = await page.evaluate(() => {
        const w = window as unknown as { __drawn: Record<string, number>; __finished: Record<string, number> };
        return { drawn: w.__drawn, finished: w.__finished };
      });
      // Each measured block: appended (its message's timestamp) and drawn. Blocks appended before the page
      // was open came with its first read, not live, and are left out.
      const resultAppended = new Map<string, number>();
      for (const message of conversation.steps[0]?.messages ?? []) {
        for (const block of message.content) if (block.type === 'action_result') resultAppended.set(block.action_id, Date.parse(message.timestamp));
      }
      const blocks: Array<{ appended: number; drawn: number }> = [];
      consoleItems(conversation.steps[0]?.messages ?? []).forEach((item, k) => {
        if (item.kind !== 'tool') return;
        const id = itemAnchor(1, k);
        const actionAppended = Date.parse(item.timestamp);
        if (actionAppended >= openedAt && drawn[id] !== undefined) blocks.push({ appended: actionAppended, drawn: drawn[id] });
        const resultAt = resultAppended.get(item.action.id);
        if (resultAt !== undefined && resultAt >= openedAt && finished[id] !== undefined) blocks.push({ appended: resultAt, drawn: finished[id] });
      });
      const lags = blocks.map((b) => Math.max(0, b.drawn - b.appended));
      const span = (xs: number[]) => (Math.max(...xs) - Math.min(...xs)) / 1000;
      const appendedRate = blocks.length / span(blocks.map((b) => b.appended));
      const drawnRate = blocks.length / span(blocks.map((b) => b.drawn));
      const p95 = percentile(lags, 95);
      const line = (what: string, x: { lags: number[]; longTasks: number }, seconds: number) =>
        `${what}: timer lateness p50 ${ms(percentile(x.lags, 50))}, p99 ${ms(percentile(x.lags, 99))}, max ${ms(Math.max(0, ...x.lags))}; long tasks ${(x.longTasks / seconds).toFixed(0)} ms per s`;
      console.log(
        `live transcript: ${run.state}, ${blockCount(conversation).toLocaleString('en-US')} blocks; ${blocks.length} appended while the page was open at ${appendedRate.toFixed(1)} blocks/s, drawn at ${drawnRate.toFixed(1)} blocks/s`,
      );
      console.log(
        `  lag from append to the page: p50 ${ms(percentile(lags, 50))}, p95 ${ms(p95)}, max ${ms(Math.max(...lags))}; load average ${os.loadavg()[0]!.toFixed(1)} (goal: ≥ 50 blocks/s, p95 < ${LIVE_LAG_GOAL_MS} ms) → ${appendedRate >= 50 && p95 < LIVE_LAG_GOAL_MS ? 'met' : 'MISSED'}`,
      );
      console.log(`  ${line('live run page', live, liveSeconds)}`);
      console.log(`  ${line('the same page idle after the run (baseline)', idle, 3)}`);
    });
  } finally {
    await model.close();
  }
}
