/**
 * pnpm bench:filters — time to match one webhook delivery against 1,000 automations on one webhook
 * (goal: < 1 ms per delivery).
 *
 * Builds 1,000 automations with varied, realistic filters (equality, array values, nested keys, in /
 * not_in lists of 5–20 values, exists, number lists, array fields), a ~2 KB GitHub-like
 * pull_request payload, warms up, then times N match() calls (one call = one delivery evaluated
 * against all 1,000) and prints p50 / p99 / mean / max per delivery.
 *
 * Scenarios: the realistic mix above, and a worst case where every filter matches (no short-circuit:
 * every key of every filter is evaluated). Deterministic (seeded PRNG).
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { AutomationMatcher, type MatchableAutomation } from '../src/automations/matcher';
import { mulberry32 } from './common';

const AUTOMATIONS = 1_000;
const N = Number(process.env.BENCH_N ?? 10_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000);
const GOAL_MS = 1;
const WEBHOOK = 'wh_01jbench0000000000000000000';

// ----------------------------------------------------------------------------------------------
// Deterministic randomness

const rand = mulberry32(20_240_601);
const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const chance = (p: number): boolean => rand() < p;
function sample<T>(xs: readonly T[], n: number): T[] {
  const copy = [...xs];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, Math.min(n, copy.length));
}

// ----------------------------------------------------------------------------------------------
// A ~2 KB GitHub-like pull_request delivery

const payload = {
  action: 'opened',
  number: 1347,
  pull_request: {
    id: 1_996_412_233,
    number: 1347,
    state: 'open',
    locked: false,
    title: 'Fix race in webhook delivery dedup',
    user: { login: 'octocat', id: 583_231, type: 'User', site_admin: false },
    body: 'Dedup identity is now computed before the log insert. Closes #1301.',
    created_at: '2025-05-12T09:21:44Z',
    updated_at: '2025-05-12T09:21:44Z',
    closed_at: null,
    merged_at: null,
    draft: false,
    labels: [
      { id: 208_045_946, name: 'bug', color: 'd73a4a', default: true },
      { id: 208_045_947, name: 'ingress', color: '0e8a16', default: false },
    ],
    requested_reviewers: [{ login: 'hubot', id: 7, type: 'User' }],
    head: {
      label: 'octocat:fix/dedup-race',
      ref: 'fix/dedup-race',
      sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
      repo: { id: 1_296_269, name: 'agent-runs', full_name: 'acme/agent-runs', private: false },
    },
    base: {
      label: 'acme:main',
      ref: 'main',
      sha: '9049f1265b7d61be4a8904a9a27120d2064dab3b',
      repo: {
        id: 1_296_269,
        name: 'agent-runs',
        full_name: 'acme/agent-runs',
        private: false,
        owner: { login: 'acme', id: 9_919, type: 'Organization' },
        default_branch: 'main',
      },
    },
    author_association: 'MEMBER',
    mergeable: null,
    comments: 0,
    commits: 3,
    additions: 120,
    deletions: 14,
    changed_files: 5,
  },
  repository: {
    id: 1_296_269,
    name: 'agent-runs',
    full_name: 'acme/agent-runs',
    private: false,
    owner: { login: 'acme', id: 9_919, type: 'Organization' },
    html_url: 'https://github.com/acme/agent-runs',
    description: 'Cloud agent runs service',
    fork: false,
    topics: ['agents', 'webhooks', 'typescript'],
    visibility: 'public',
    default_branch: 'main',
    language: 'TypeScript',
    stargazers_count: 80,
  },
  organization: { login: 'acme', id: 9_919 },
  installation: { id: 2_311_213, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMjMxMTIxMw==' },
  sender: { login: 'octocat', id: 583_231, type: 'User', site_admin: false },
};

// ----------------------------------------------------------------------------------------------
// Varied filters

const ACTIONS = [
  'opened',
  'closed',
  'reopened',
  'synchronize',
  'edited',
  'labeled',
  'unlabeled',
  'assigned',
  'ready_for_review',
  'review_requested',
  'converted_to_draft',
  'locked',
  'unlocked',
  'milestoned',
  'demilestoned',
  'auto_merge_enabled',
  'auto_merge_disabled',
  'enqueued',
  'dequeued',
  'review_request_removed',
];
const BRANCHES = [
  'main',
  'master',
  'develop',
  'release',
  'staging',
  'production',
  'next',
  'canary',
  'hotfix',
  'trunk',
  'v1',
  'v2',
  'beta',
  'qa',
  'integration',
  'preview',
  'stable',
  'lts',
  'gh-pages',
  'docs',
];
const REPOS = Array.from({ length: 40 }, (_, i) => (i === 0 ? 'acme/agent-runs' : `acme/service-${i}`));
const LOGINS = [
  'octocat',
  'hubot',
  'dependabot[bot]',
  'renovate[bot]',
  'monalisa',
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'mallory',
  'niaj',
  'olivia',
  'peggy',
  'trent',
  'victor',
  'walter',
];
const TOPICS = ['agents', 'webhooks', 'typescript', 'python', 'infra', 'security', 'docs', 'ml', 'frontend', 'backend', 'cli', 'sdk', 'observability', 'data'];
const ASSOCIATIONS = ['OWNER', 'MEMBER', 'COLLABORATOR', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'NONE'];

function list<T>(xs: readonly T[], lo = 5, hi = 20): T[] {
  return sample(xs, int(lo, hi));
}

function randomFilter(): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  // Almost every automation filters on the action.
  switch (int(0, 3)) {
    case 0:
      f.action = pick(['opened', 'opened', 'synchronize', 'closed', 'labeled']);
      break;
    case 1:
      f.action = list(ACTIONS);
      break;
    case 2:
      f.action = { in: list(ACTIONS) };
      break;
    default:
      f.action = { not_in: list(ACTIONS.filter((a) => a !== 'opened' || chance(0.3))) };
  }
  const pr: Record<string, unknown> = {};
  if (chance(0.6)) pr.base = { ref: chance(0.5) ? { in: list(BRANCHES) } : pick(['main', 'main', 'develop']) };
  if (chance(0.4)) pr.draft = chance(0.8) ? false : { exists: true };
  if (chance(0.3)) pr.merged_at = chance(0.5) ? { exists: true } : null;
  if (chance(0.3)) pr.user = { login: { not_in: list(LOGINS) } };
  if (chance(0.2)) pr.head = { repo: { full_name: { in: list(REPOS) } } };
  if (chance(0.2)) pr.author_association = list(ASSOCIATIONS, 2, 5);
  if (chance(0.15)) pr.changed_files = { in: Array.from({ length: int(5, 20) }, (_, i) => i + 1) };
  if (chance(0.15)) pr.base = { repo: { owner: { login: 'acme', type: 'Organization' }, private: false } };
  if (Object.keys(pr).length > 0) f.pull_request = pr;
  if (chance(0.5)) f.repository = chance(0.5) ? { full_name: { in: list(REPOS) } } : { topics: { in: list(TOPICS) } };
  if (chance(0.3)) f.sender = { type: { not_in: ['Bot'] }, login: { not_in: list(LOGINS.slice(2)) } };
  if (chance(0.2)) f.installation = { exists: true };
  if (chance(0.1)) f.enterprise = { exists: false };
  return f;
}

/** Filters that all match `payload`, using every construct and the deepest paths (no short-circuit). */
function matchingFilter(): Record<string, unknown> {
  return {
    action: {
      in: [
        ...list(
          ACTIONS.filter((a) => a !== 'opened'),
          4,
          19,
        ),
        'opened',
      ],
    },
    number: { in: [1347, ...Array.from({ length: int(4, 19) }, () => int(1, 5000))] },
    pull_request: {
      base: {
        ref: {
          in: [
            ...list(
              BRANCHES.filter((b) => b !== 'main'),
              4,
              19,
            ),
            'main',
          ],
        },
        repo: { owner: { login: 'acme' } },
      },
      head: { repo: { full_name: { not_in: list(REPOS.slice(1)) } } },
      draft: false,
      merged_at: { exists: true },
      user: { login: { not_in: list(LOGINS.filter((l) => l !== 'octocat')) } },
    },
    repository: { topics: { in: [...list(TOPICS.slice(3), 4, 10), 'webhooks'] }, private: false },
    sender: { type: { not_in: ['Bot'] } },
    installation: { exists: true },
    enterprise: { exists: false },
  };
}

function automations(make: () => Record<string, unknown>): MatchableAutomation[] {
  return Array.from({ length: AUTOMATIONS }, (_, i) => ({
    automationId: `aut_${String(i).padStart(26, '0')}`,
    enabled: true,
    webhookIds: [WEBHOOK],
    payloadFilter: make(),
  }));
}

// ----------------------------------------------------------------------------------------------

type Stats = { p50: number; p99: number; mean: number; max: number };
type Row = {
  scenario: string;
  matched: number;
  paths: number;
  buildMs: number;
  wall: Stats;
  cpu: Stats;
};

function stats(samples: Float64Array): Stats {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  let total = 0;
  for (const t of sorted) total += t;
  return { p50: at(50), p99: at(99), mean: total / sorted.length, max: sorted[sorted.length - 1]! };
}

let sink = 0; // keeps the JIT from dropping the work

/** Cost of one process.cpuUsage() pair around nothing (ms), subtracted from the CPU samples. */
function cpuProbeOverhead(): number {
  const xs = new Float64Array(2_000);
  for (let i = 0; i < xs.length; i++) {
    const c0 = process.cpuUsage();
    const c = process.cpuUsage(c0);
    xs[i] = (c.user + c.system) / 1e3;
  }
  return stats(xs).p50;
}

function run(scenario: string, list: MatchableAutomation[], delivery: unknown, cpuOverhead: number): Row {
  const t0 = performance.now();
  const matcher = new AutomationMatcher(list);
  const buildMs = performance.now() - t0;
  if (matcher.skipped.length > 0) throw new Error(`bench filters invalid: ${JSON.stringify(matcher.skipped[0])}`);
  if (matcher.size !== AUTOMATIONS) throw new Error(`indexed ${matcher.size} automations`);

  for (let i = 0; i < WARMUP; i++) sink += matcher.match(WEBHOOK, delivery).length;

  const paths = matcher.candidates(WEBHOOK)[0]?.compiled.paths?.size ?? 0;
  const wall = new Float64Array(N);
  const cpu = new Float64Array(N);
  let matched = 0;
  for (let i = 0; i < N; i++) {
    const c0 = process.cpuUsage();
    const start = process.hrtime.bigint();
    const ids = matcher.match(WEBHOOK, delivery);
    const end = process.hrtime.bigint();
    const c = process.cpuUsage(c0);
    wall[i] = Number(end - start) / 1e6;
    cpu[i] = Math.max(0, (c.user + c.system) / 1e3 - cpuOverhead);
    matched = ids.length;
    sink += matched;
  }
  return { scenario, matched, paths, buildMs, wall: stats(wall), cpu: stats(cpu) };
}

const cpuOverhead = cpuProbeOverhead();
const realistic = automations(randomFilter);
const rows: Row[] = [
  run('realistic mix (varied filters)', realistic, payload, cpuOverhead),
  run('worst case (every filter matches)', automations(matchingFilter), payload, cpuOverhead),
];

// ----------------------------------------------------------------------------------------------
// Report

const payloadBytes = Buffer.byteLength(JSON.stringify(payload));
const filterBytes = realistic.reduce((n, a) => n + JSON.stringify(a.payloadFilter).length, 0) / AUTOMATIONS;
const ms = (x: number): string => x.toFixed(4);
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');

console.log('Payload filter matching benchmark (pnpm bench:filters)');
console.log(
  `  ${AUTOMATIONS.toLocaleString('en-US')} automations on one webhook; payload ${payloadBytes.toLocaleString('en-US')} bytes (GitHub pull_request-like); ~${Math.round(filterBytes)} bytes of JSON per filter (realistic mix)`,
);
console.log(
  `  ${N.toLocaleString('en-US')} timed deliveries per scenario after ${WARMUP.toLocaleString('en-US')} warm-up; one delivery = match() against all ${AUTOMATIONS.toLocaleString('en-US')}`,
);
console.log(`  node ${process.version}; ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}; load average ${load}`);
console.log('  wall = elapsed time per delivery (includes time the OS gave the CPU to other processes);');
console.log(`  cpu  = CPU time this process spent per delivery (process.cpuUsage, probe overhead ${ms(cpuOverhead)} ms subtracted)`);
console.log('');

const header = ['scenario', 'matched', 'paths', 'build ms', 'clock', 'p50 ms', 'p99 ms', 'mean ms', 'max ms', `p99 < ${GOAL_MS} ms`];
const body: string[][] = [];
for (const r of rows) {
  for (const [clock, st] of [
    ['wall', r.wall],
    ['cpu', r.cpu],
  ] as const) {
    const first = clock === 'wall';
    body.push([
      first ? r.scenario : '',
      first ? `${r.matched}/${AUTOMATIONS}` : '',
      first ? String(r.paths) : '',
      first ? r.buildMs.toFixed(1) : '',
      clock,
      ms(st.p50),
      ms(st.p99),
      ms(st.mean),
      ms(st.max),
      st.p99 < GOAL_MS ? 'met' : 'NOT met',
    ]);
  }
}
const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
const left = new Set([0, 4]);
const line = (cells: string[]): string => `| ${cells.map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w, i) => (left.has(i) ? ':' + '-'.repeat(w + 1) : '-'.repeat(w + 1) + ':')).join('|')}|`);
for (const row of body) console.log(line(row));
console.log('');
console.log('  matched = automations whose filter matched the delivery; paths = distinct payload paths resolved per delivery;');
console.log('  build ms = validating + compiling the 1,000 filters into the index (done on automation changes, not per delivery).');
console.log('');

const [primary, worst] = rows as [Row, Row];
const verdict = (st: Stats): string => (st.p99 < GOAL_MS ? 'MET' : 'NOT MET');
console.log(
  `Goal: < ${GOAL_MS} ms per delivery against ${AUTOMATIONS.toLocaleString('en-US')} automations (judged on p99).\n` +
    `  realistic mix: ${verdict(primary.wall)} on wall clock (p50 ${ms(primary.wall.p50)}, p99 ${ms(primary.wall.p99)}, mean ${ms(primary.wall.mean)} ms); ` +
    `${verdict(primary.cpu)} on CPU time (p50 ${ms(primary.cpu.p50)}, p99 ${ms(primary.cpu.p99)}, mean ${ms(primary.cpu.mean)} ms)\n` +
    `  worst case:    ${verdict(worst.wall)} on wall clock (p50 ${ms(worst.wall.p50)}, p99 ${ms(worst.wall.p99)} ms); ` +
    `${verdict(worst.cpu)} on CPU time (p50 ${ms(worst.cpu.p50)}, p99 ${ms(worst.cpu.p99)} ms)`,
);
if (Number(load.split(' ')[0]) > cpus().length) {
  console.log(`  note: the machine was busy (load ${load.split(' ')[0]} on ${cpus().length} CPUs): wall-clock tails include waiting for a CPU.`);
}
if (sink < 0) console.log(sink);
