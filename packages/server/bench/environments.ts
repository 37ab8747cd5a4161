/**
 * pnpm bench:environments — what an environment image costs a run (docs/sandbox.md §Image root). Prints
 * figures; not a timed test. Needs bubblewrap and the image tools (docker-registry, skopeo, umoci,
 * busybox-static); without them it says so and exits non-zero.
 *
 * 1. Sandbox start: `/bin/true` started BENCH_ENV_STARTS (200) times each way, interleaved (the order
 *    alternates every round; BENCH_ENV_WARMUP (10) rounds first, not counted), with the default network
 *    (allowlist: egress proxy and socat bridge) and cgroups where the host allows them:
 *    - host view: today's sandbox (the host's /usr, /bin, /lib*, a minimal /etc);
 *    - cached image: a busybox image already unpacked in the cache (`RunSandbox.useImage`), its top-level
 *      entries bound read-only, the host's helpers (prlimit, sh, socat) through their own loader.
 *    p50 / p99 from the spawn call until `exited` settles.
 * 2. Cold pull + unpack: one image of busybox plus BENCH_ENV_IMAGE_MB (50) MB of random (incompressible)
 *    files, pushed to a loopback `docker-registry`, acquired once by a fresh image cache: resolve (skopeo
 *    inspect), pull by digest (skopeo copy), unpack (umoci), hygiene pass. Wall time of `acquire`.
 * 3. Create → first output of a run, warm image cache: the real server (bench/server-process.ts, SQLite,
 *    RUNNER=command with `echo`) and an environment with the busybox image and a repository of
 *    BENCH_ENV_REPO_FILES (1,000) files (~4 MB) served over smart HTTP by a loopback git forge with a token
 *    (test/support/git-forge.ts). One run first (it pulls the image, not counted), then BENCH_ENV_RUNS (20)
 *    one after another: from `POST /agent/runs` until the run's first assistant `content` event arrives on
 *    its event stream — claim, the run's workspace disk, the image, the clone and checkout, the command.
 *
 * Temp directories, the registry and the sandboxes' cgroups are removed at the end (also on Ctrl-C).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createImageCache, type ImageLease } from '../src/engine/images/cache';
import { parseImageReference, type ImageReference } from '../src/engine/images/reference';
import { createSandbox, type RunSandbox } from '../src/engine/sandbox';
import { loadSettings } from '../src/settings';
import { startGitForge } from '../test/support/git-forge';
import { buildTestImage, imageToolsAvailable, pushTestImage, startTestRegistry, type TestRegistry } from '../test/support/registry';
import { api, envInt, loadAverage, onCleanup, percentile, runBench, runEvents, sortNumbers } from './common';
import { startSqliteServerProcess } from './server-process';

const STARTS = envInt('BENCH_ENV_STARTS', 200, 1);
const WARMUP_ROUNDS = envInt('BENCH_ENV_WARMUP', 10);
const IMAGE_MB = envInt('BENCH_ENV_IMAGE_MB', 50, 1);
const GOAL_START_P50_MS = 20;
const GOAL_COLD_PULL_MS = 10_000;
const RUNS = envInt('BENCH_ENV_RUNS', 20, 1);
const REPO_FILES = envInt('BENCH_ENV_REPO_FILES', 1000, 1);
const GOAL_FIRST_OUTPUT_P50_MS = 1000;
const GIT_TOKEN = 'bench-git-token-0123456789';

async function startTrue(sandbox: RunSandbox): Promise<number> {
  const started = performance.now();
  const proc = await sandbox.spawn({ argv: ['/bin/true'], env: {}, stdin: 'ignore', wallTimeMs: 10_000, limitOutput: false });
  proc.stdout.resume();
  proc.stderr.resume();
  const exit = await proc.exited;
  if (exit.code !== 0) throw new Error(`/bin/true exited ${exit.code ?? exit.signal}: ${exit.startError ?? ''}`);
  return performance.now() - started;
}

const summary = (label: string, samples: number[]) => {
  const sorted = sortNumbers(samples);
  return `${label.padEnd(14)} p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(sorted, 99).toFixed(1).padStart(6)} ms`;
};

async function main(): Promise<void> {
  if (!imageToolsAvailable) throw new Error('needs docker-registry, skopeo, umoci and busybox-static (scripts/ci/debian-packages.txt)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-environments-'));
  onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const registry = await startTestRegistry();
  onCleanup(() => registry.close());
  const settings = loadSettings({ DATA_DIR: dataDir, IMAGE_REGISTRIES: `http://${registry.host}` });
  const sandbox = createSandbox(settings, pino({ level: 'silent' }));
  onCleanup(() => sandbox.close());
  if (!sandbox.status.available) throw new Error(`the sandbox is unavailable: ${sandbox.status.problems.join('; ')}`);

  // 1. Sandbox start, host view against a cached image.
  const small = buildTestImage();
  onCleanup(() => small.remove());
  const smallImage = pushTestImage(small, registry, 'bench/busybox:1');
  const smallRef = parseImageReference(smallImage) as ImageReference;
  const cache = createImageCache(settings);
  const lease: ImageLease = await cache.acquire({ reference: smallRef });
  // A workspace each: a run's workspace is its own disk (docs/sandbox.md "One fence per run").
  const hostRun = sandbox.forRun('bench-host-view', path.join(dataDir, 'runs', 'bench-host-view'));
  const imageRun = sandbox.forRun('bench-image-view', path.join(dataDir, 'runs', 'bench-image-view'));
  imageRun.useImage(lease);
  const samples = { host: [] as number[], image: [] as number[] };
  const loadBefore = loadAverage();
  for (let round = 0; round < WARMUP_ROUNDS + STARTS; round++) {
    const order = round % 2 === 0 ? (['host', 'image'] as const) : (['image', 'host'] as const);
    for (const which of order) {
      const ms = await startTrue(which === 'host' ? hostRun : imageRun);
      if (round >= WARMUP_ROUNDS) samples[which].push(ms);
    }
  }
  await Promise.all([hostRun.close(), imageRun.close()]);
  console.log(
    `\n1. Sandbox start of /bin/true, ${STARTS} each, interleaved (network ${sandbox.status.network}, limits ${sandbox.status.limits}; load ${loadBefore} → ${loadAverage()})`,
  );
  console.log(`   ${summary('host view', samples.host)}`);
  console.log(`   ${summary('cached image', samples.image)}`);
  const imageP50 = percentile(sortNumbers(samples.image), 50);
  console.log(`   goal: cached-image p50 < ${GOAL_START_P50_MS} ms — ${imageP50 < GOAL_START_P50_MS ? 'met' : 'NOT met'}`);

  // 2. One cold pull + unpack of a ~50 MB image.
  const big = buildTestImage({ randomBytes: IMAGE_MB * 1024 * 1024 });
  onCleanup(() => big.remove());
  const bigRef = parseImageReference(pushTestImage(big, registry, 'bench/big:1')) as ImageReference;
  const coldDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-environments-cold-'));
  onCleanup(() => fs.rmSync(coldDir, { recursive: true, force: true }));
  const coldCache = createImageCache(loadSettings({ DATA_DIR: coldDir, IMAGE_REGISTRIES: `http://${registry.host}` }));
  let reports = 0;
  const started = performance.now();
  const cold = await coldCache.acquire({ reference: bigRef, onProgress: () => (reports += 1) });
  const coldMs = performance.now() - started;
  cold.release();
  console.log(`\n2. Cold pull + unpack of busybox + ${IMAGE_MB} MB random files from the loopback registry (${reports} progress reports)`);
  console.log(`   ${(coldMs / 1000).toFixed(2)} s — goal < ${GOAL_COLD_PULL_MS / 1000} s: ${coldMs < GOAL_COLD_PULL_MS ? 'met' : 'NOT met'}`);
  lease.release();

  await firstOutputOfWarmRuns(registry, smallImage);
}

/** Part 3: create → first output of runs in an image with a checked-out repository, the image cached. */
async function firstOutputOfWarmRuns(registry: TestRegistry, image: string): Promise<void> {
  const forge = await startGitForge({ token: GIT_TOKEN });
  onCleanup(() => forge.close());
  // ~4 KB of text per file, 1,000 files: about 4 MB, as a service's repository of modest size.
  const files: Record<string, string> = {};
  for (let i = 0; i < REPO_FILES; i++) files[`src/module-${String(i).padStart(4, '0')}.txt`] = `${`line ${i} of the bench repository\n`.repeat(128)}`;
  forge.createRepository('bench/app', files);
  const server = await startSqliteServerProcess('bench-environments-runs-', {
    RUNNER: 'command',
    AGENT_COMMAND: 'echo first-output',
    IMAGE_REGISTRIES: `http://${registry.host}`,
    GITHUB_BASE_URL: forge.url,
    SANDBOX_ALLOWED_HOSTS: `127.0.0.1:${forge.port}`,
  });
  await api(server, 'PUT', '/secrets/GIT_TOKEN', { value: GIT_TOKEN });
  const environment = await api<{ uid: string }>(server, 'POST', '/agent/environments', {
    name: 'bench',
    docker_image: image,
    github_repos: [{ owner: 'bench', repo: 'app' }],
  });

  const createToFirstOutput = async (): Promise<number> => {
    const started = performance.now();
    const { run_id } = await api<{ run_id: string }>(server, 'POST', '/agent/runs', { prompt: 'bench', config: { environment_id: environment.uid } });
    const stop = new AbortController();
    try {
      for await (const event of runEvents(server, run_id, stop.signal)) {
        // The run's own output, not the prompt the engine records first.
        if (event.kind === 'content' && /"role":"assistant"/.test(event.data)) return performance.now() - started;
        if (event.kind === 'state' && /"state":"(FAILED|ERROR|CANCELLED)"/.test(event.data)) throw new Error(`bench run ${run_id} ended: ${event.data}`);
      }
      throw new Error(`bench run ${run_id}: the event stream ended without output`);
    } finally {
      stop.abort();
    }
  };
  const coldMs = await createToFirstOutput();
  const loadBefore = loadAverage();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await createToFirstOutput());
  console.log(
    `\n3. Create → first output, image cached, ${REPO_FILES}-file repository cloned, ${RUNS} runs one after another (load ${loadBefore} → ${loadAverage()})`,
  );
  console.log(`   first run (pulls the image, not counted): ${coldMs.toFixed(0)} ms`);
  console.log(`   ${summary('warm', samples)}`);
  const p50 = percentile(sortNumbers(samples), 50);
  console.log(`   goal: p50 < ${GOAL_FIRST_OUTPUT_P50_MS} ms — ${p50 < GOAL_FIRST_OUTPUT_P50_MS ? 'met' : 'NOT met'}`);
}

runBench(main);
