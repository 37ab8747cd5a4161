/**
 * pnpm bench:gateway — what the model gateway (src/engine/gateway, docs/decisions.md §The model gateway)
 * adds to the first streamed byte of a model answer. Prints figures; asserts nothing beyond sanity checks.
 *
 * A fake OpenAI-compatible provider on 127.0.0.1 answers `POST /v1/chat/completions` with `stream: true`
 * by writing its first SSE chunk at once and the rest 1 ms later. Two ways to ask it, interleaved request by
 * request (BENCH_GATEWAY_REQUESTS (1000) each, after BENCH_GATEWAY_WARMUP (100) not counted), each over a
 * keep-alive connection as a CLI keeps one:
 *  - direct: node's http client to the provider;
 *  - gateway: the same request as a sandboxed process sends it — absolute-form `http://model-gateway.internal/…`
 *    to the run's egress proxy on its unix socket (what socat bridges 127.0.0.1:3128 to inside the sandbox),
 *    with the execution's key: key check, budget check, body parse (include_usage), forward with the
 *    operator's key, stream back, meter the usage.
 * Time to first byte = request written → first body chunk received. p50 / p99 each way and the added
 * latency (gateway − direct), and the paired per-round difference's median. Loopback only.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createEgressPolicy } from '../src/engine/egress/policy';
import { startEgressProxy } from '../src/engine/egress/proxy';
import { createModelGateway } from '../src/engine/gateway/gateway';
import type { TokenUsage } from '../src/runs/contract';
import { loadSettings } from '../src/settings';
import { envInt, loadAverage, onCleanup, percentile, runCleanups, sortNumbers } from './common';

const REQUESTS = envInt('BENCH_GATEWAY_REQUESTS', 1000, 1);
const WARMUP = envInt('BENCH_GATEWAY_WARMUP', 100);
const BODY = JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'x'.repeat(2000) }] });

const chunk = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

async function startProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: 'Hello' }));
      setTimeout(() => {
        res.write(chunk({}, 'stop'));
        res.end(
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'bench-model', choices: [], usage: { prompt_tokens: 500, completion_tokens: 1, total_tokens: 501 } })}\n\ndata: [DONE]\n\n`,
        );
      }, 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Milliseconds from writing the request to the first body chunk; the rest is read to the end. */
function timeToFirstByte(options: http.RequestOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(options, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      let first: number | undefined;
      res.on('data', () => {
        first ??= performance.now() - started;
      });
      res.on('end', () => (first === undefined ? reject(new Error('empty answer')) : resolve(first)));
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

async function main(): Promise<void> {
  const provider = await startProvider();
  onCleanup(() => provider.close());
  const log = pino({ level: 'silent' });
  const gateway = createModelGateway(
    loadSettings({ DATABASE_URL: 'sqlite::memory:', OPENAI_BASE_URL: `${provider.url}/v1`, OPENAI_API_KEY: 'sk-bench-operator' }),
    log,
  );
  onCleanup(() => gateway.close());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const socketPath = path.join(dir, 'egress.sock');
  const proxy = await startEgressProxy({
    policy: createEgressPolicy({ network: 'allowlist', allowedHosts: [] }),
    socketPath,
    modelGateway: gateway.entranceFor('bench'),
  });
  onCleanup(() => proxy.close());
  let counted = 0;
  const usage = { add: async (_spent: TokenUsage) => void counted++, assertWithinBudget: async () => {} };
  const access = gateway.open({ runId: 'bench', usage, teamKeys: {}, log });
  onCleanup(() => access.close());

  const headers = { 'content-type': 'application/json', authorization: `Bearer ${access.env.OPENAI_API_KEY}` };
  const directAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const proxyAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  onCleanup(() => {
    directAgent.destroy();
    proxyAgent.destroy();
  });
  const providerUrl = new URL(provider.url);
  const direct = () =>
    timeToFirstByte({ host: providerUrl.hostname, port: providerUrl.port, method: 'POST', path: '/v1/chat/completions', headers, agent: directAgent });
  const viaGateway = () =>
    timeToFirstByte({
      socketPath,
      method: 'POST',
      path: 'http://model-gateway.internal/v1/chat/completions',
      headers: { ...headers, host: 'model-gateway.internal' },
      agent: proxyAgent,
    });

  const load = loadAverage();
  const times = { direct: [] as number[], gateway: [] as number[], added: [] as number[] };
  for (let round = 0; round < WARMUP + REQUESTS; round++) {
    // Alternate which goes first so neither always finds the machine warmer.
    let d: number;
    let g: number;
    if (round % 2 === 0) {
      d = await direct();
      g = await viaGateway();
    } else {
      g = await viaGateway();
      d = await direct();
    }
    if (round < WARMUP) continue;
    times.direct.push(d);
    times.gateway.push(g);
    times.added.push(g - d);
  }
  if (counted !== WARMUP + REQUESTS) throw new Error(`the gateway counted ${counted} answers, expected ${WARMUP + REQUESTS}`);

  const direct50 = percentile(sortNumbers(times.direct), 50);
  const direct99 = percentile(sortNumbers(times.direct), 99);
  const gateway50 = percentile(sortNumbers(times.gateway), 50);
  const gateway99 = percentile(sortNumbers(times.gateway), 99);
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  console.log(`model gateway: time to first streamed byte, ${REQUESTS} requests each way (after ${WARMUP} warm-up), node ${process.version}, load ${load}`);
  console.log(`  direct to the provider      p50 ${ms(direct50)}  p99 ${ms(direct99)}`);
  console.log(`  through proxy + gateway     p50 ${ms(gateway50)}  p99 ${ms(gateway99)}`);
  console.log(
    `  added by the gateway        p50 ${ms(gateway50 - direct50)}  p99 ${ms(gateway99 - direct99)}  (paired per round: median ${ms(percentile(sortNumbers(times.added), 50))})`,
  );
  console.log(`  goal: < 2 ms added at p50 — ${gateway50 - direct50 < 2 ? 'met' : 'NOT met'}`);
}

main()
  .then(runCleanups)
  .catch(async (err: unknown) => {
    console.error(err);
    await runCleanups();
    process.exit(1);
  });
