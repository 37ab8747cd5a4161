/**
 * `pnpm bench:conversation-readers`: is the server still responsive while clients read a large conversation
 * (docs/decisions.md §Streamed conversations and the per-run output bound)? A server process (SQLite,
 * RUNNER=command) records one run plus BENCH_FOLLOWUPS (5) follow-ups, each printing BENCH_EXECUTION_MB (10)
 * MiB of 999-character lines: a conversation of ~60 MiB. Then, on that same run:
 *
 *   idle     /healthz sampled one request after another, nothing else going on;
 *   readers  BENCH_READERS (8) clients read GET …/conversation at once, to the end; /healthz sampled the
 *            same way meanwhile, and the server's RSS (/proc/<pid>/status VmRSS) with every sample.
 *
 * Printed: /healthz p50/p99 idle and during the reads, the readers' time and bytes, and the server's RSS
 * growth (its peak during the reads over its RSS just before). Goals: p99 < 100 ms, growth < 100 MB.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { api, envInt, loadAverage, percentile, runBench, sortNumbers } from './common';
import { startSqliteServerProcess, type ServerProcess } from './server-process';

const FOLLOWUPS = envInt('BENCH_FOLLOWUPS', 5);
const EXECUTION_BYTES = envInt('BENCH_EXECUTION_MB', 10, 1) * 1024 * 1024;
const READERS = envInt('BENCH_READERS', 8, 1);
const IDLE_SAMPLES = envInt('BENCH_IDLE_SAMPLES', 200, 10);
const SAMPLE_GAP_MS = 10;
const GOAL_P99_MS = 100;
const GOAL_RSS_GROWTH_MB = 100;

const rssBytes = (pid: number): number => {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) * 1024;
};
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

async function waitForState(server: ServerProcess, runId: string, state: string): Promise<void> {
  for (;;) {
    const run = await api<{ state: string; status_message?: { message: string } }>(server, 'GET', `/agent/runs/${runId}`);
    if (run.state === state) return;
    if (['FAILED', 'ERROR', 'CANCELLED'].includes(run.state)) throw new Error(`bench run ${runId} ended ${run.state}: ${run.status_message?.message}`);
    await delay(200);
  }
}

async function healthzMs(server: ServerProcess): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}/healthz`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`/healthz → ${res.status}`);
  return performance.now() - started;
}

/** Reads the whole conversation on a connection of its own; resolves with its byte count. */
function readConversation(server: ServerProcess, runId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.apiUrl}/agent/runs/${runId}/conversation`, { agent: false, headers: { authorization: `Bearer ${server.adminKey}` } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`GET …/conversation → ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const summary = (samples: number[]): string => {
  const sorted = sortNumbers(samples);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (${samples.length} samples)`;
};

async function main(): Promise<void> {
  const server = await startSqliteServerProcess('bench-conversation-readers-', {
    RUNNER: 'command',
    // Prints the number of bytes its first stdin line asks for.
    AGENT_COMMAND: `read n; head -c "$n" /dev/zero | tr '\\0' x | fold -w 999`,
    SANDBOX_OUTPUT_BYTES: String(EXECUTION_BYTES * 2),
  });

  console.log(`Recording a run plus ${FOLLOWUPS} follow-ups of ${mb(EXECUTION_BYTES)} each…`);
  const { run_id: runId } = await api<{ run_id: string }>(server, 'POST', '/agent/runs', { prompt: String(EXECUTION_BYTES) });
  await waitForState(server, runId, 'SUCCEEDED');
  for (let i = 0; i < FOLLOWUPS; i++) {
    await api(server, 'POST', `/agent/runs/${runId}/followups`, { message: String(EXECUTION_BYTES) });
    await waitForState(server, runId, 'SUCCEEDED');
  }
  const conversationBytes = await readConversation(server, runId);
  console.log(`conversation: ${mb(conversationBytes)} (load ${loadAverage()})`);

  const idle: number[] = [];
  for (let i = 0; i < IDLE_SAMPLES; i++) {
    idle.push(await healthzMs(server));
    await delay(SAMPLE_GAP_MS);
  }

  const rssBefore = rssBytes(server.pid);
  let rssPeak = rssBefore;
  const during: number[] = [];
  let reading = true;
  const started = performance.now();
  const reads = Promise.all(Array.from({ length: READERS }, () => readConversation(server, runId))).finally(() => (reading = false));
  while (reading) {
    during.push(await healthzMs(server));
    rssPeak = Math.max(rssPeak, rssBytes(server.pid));
    await delay(SAMPLE_GAP_MS);
  }
  const bytes = await reads;
  const seconds = (performance.now() - started) / 1000;
  if (bytes.some((b) => b !== conversationBytes)) throw new Error(`a reader got ${bytes.join(', ')} bytes, not ${conversationBytes}`);

  const growth = rssPeak - rssBefore;
  const p99 = percentile(sortNumbers(during), 99);
  console.log(`\n/healthz idle:                    ${summary(idle)}`);
  console.log(`/healthz during ${READERS} readers:       ${summary(during)}`);
  console.log(`readers: ${READERS} × ${mb(conversationBytes)} in ${seconds.toFixed(1)} s (${mb((READERS * conversationBytes) / seconds)}/s)`);
  console.log(`server RSS: ${mb(rssBefore)} before, peak ${mb(rssPeak)} during the reads: growth ${mb(growth)}`);
  console.log(`load average ${loadAverage()}, ${os.cpus().length} CPUs`);
  console.log(
    `goals: /healthz p99 < ${GOAL_P99_MS} ms — ${p99 < GOAL_P99_MS ? 'met' : 'NOT met'}; RSS growth < ${GOAL_RSS_GROWTH_MB} MB — ${growth < GOAL_RSS_GROWTH_MB * 1e6 ? 'met' : 'NOT met'}`,
  );
}

runBench(main);
