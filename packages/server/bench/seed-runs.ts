/**
 * Benchmark SETUP, not the product path: writes many realistic `runs` rows straight into the database
 * through Kysely (batched multi-row INSERTs inside transactions), so `GET /agent/runs` can be measured
 * against 100,000 runs without creating them one by one through the API.
 *
 * Only the `runs` table is filled, with `run_metadata` beside it (no events, steps or attachments): the list
 * endpoint reads `runs`, the metadata index and the attachment metadata of the page, nothing else. Deterministic (seeded PRNG).
 *
 * Spread: created_at uniform over the last 30 days (in-flight runs: the last 2 hours); states mostly
 * terminal (SUCCEEDED ≫ FAILED > CANCELLED > ERROR) with a small in-flight share; agent names (30 % none)
 * and model ids with a skewed popularity; 30 creators (service accounts and users); every source type.
 *
 * Metadata (Oz's `metadata`, for `metadata[key]=value` filters): 40 % of the runs carry `{team, ticket_id}` —
 * one of SEED_METADATA_TEAMS and `OPS-<n>` with n uniform in 1..SEED_TICKETS (about 20 runs per ticket at
 * 100,000 runs) — and the ticket id is also written into the run's prompt, as a person would mention it, so
 * a `q` search for it finds the same rare runs.
 *
 * No QUEUED rows: the server under test runs its workers, which would claim them at once and change the
 * data while it is measured (in steady state the QUEUED share of 100,000 runs is ~0 anyway). In-flight
 * rows (PENDING, CLAIMED, INPROGRESS, BLOCKED) hold a lease of a phantom worker that expires in 7 days,
 * so the sweeper leaves them alone too.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { openDatabase } from '../src/db/database';
import type { Database, RunsTable } from '../src/db/tables';
import { mulberry32 } from './common';

export const SEED_NAMES = [
  'triage',
  'code-review',
  'deploy',
  'docs',
  'release-notes',
  'incident',
  'dependency-bump',
  'pr-comments',
  'lint-fix',
  'support-reply',
] as const;
export const SEED_METADATA_TEAMS = ['web', 'infra', 'payments', 'data', 'mobile', 'security', 'support', 'growth'] as const;
/** Tickets `OPS-1` … `OPS-<SEED_TICKETS>` (see the header). */
export const SEED_TICKETS = 2_000;
export const seedTicket = (n: number): string => `OPS-${n}`;
export const SEED_MODEL_IDS = ['gpt-4.1', 'claude-sonnet-4', 'gpt-4o-mini', 'llama-3.3-70b', 'command', 'echo'] as const;

const STATES: Array<[string, number]> = [
  ['SUCCEEDED', 0.78],
  ['FAILED', 0.1],
  ['CANCELLED', 0.07],
  ['ERROR', 0.03],
  ['INPROGRESS', 0.012],
  ['BLOCKED', 0.004],
  ['CLAIMED', 0.003],
  ['PENDING', 0.001],
];
const SOURCES: Array<[string, number]> = [
  ['API', 0.4],
  ['WEBHOOK', 0.3],
  ['SCHEDULED_AGENT', 0.15],
  ['CLI', 0.1],
  ['WEB_APP', 0.05],
];
const WORDS =
  'summarise the open issues triage new bug reports review pull request check failing tests update dependencies write release notes for the last sprint investigate the incident on the payment service reply to the customer ticket fix lint errors in the api package refactor the webhook handler add tests'.split(
    ' ',
  );

export interface SeedOptions {
  teamId: string;
  count: number;
  /** "now" of the data set; created_at lies in [now − 30 days, now). */
  now?: Date;
  /** Rows per INSERT statement (28 columns each; stays under both drivers' parameter limits). */
  batchRows?: number;
  /** Rows per transaction. */
  transactionRows?: number;
  seed?: number;
}

export interface SeedResult {
  rows: number;
  seconds: number;
}

const DAY_MS = 24 * 3600 * 1000;

const usageJson = (prompt: number, completion: number): string =>
  JSON.stringify({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });

export async function seedRuns(db: Kysely<Database>, options: SeedOptions): Promise<SeedResult> {
  const rand = mulberry32(options.seed ?? 20_261_121);
  const now = (options.now ?? new Date()).getTime();
  const batchRows = options.batchRows ?? 500;
  const transactionRows = options.transactionRows ?? 10_000;
  const weighted = (xs: Array<[string, number]>): string => {
    let r = rand() * xs.reduce((s, [, w]) => s + w, 0);
    for (const [x, w] of xs) if ((r -= w) < 0) return x;
    return xs[xs.length - 1]![0];
  };
  /** Zipf-like pick: index i with weight 1/(i+1). */
  const skewed = <T>(xs: readonly T[]): T => {
    const weights = xs.map((_, i) => 1 / (i + 1));
    let r = rand() * weights.reduce((s, w) => s + w, 0);
    for (let i = 0; i < xs.length; i++) if ((r -= weights[i]!) < 0) return xs[i]!;
    return xs[xs.length - 1]!;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const creators = [
    ...Array.from({ length: 5 }, (_, i) => ({ type: 'service_account' as const, uid: `key_bench${String(i).padStart(21, '0')}`, name: `ci-bot-${i}` })),
    ...Array.from({ length: 25 }, (_, i) => ({ type: 'user' as const, uid: `user_bench${String(i).padStart(20, '0')}`, name: `User ${i}` })),
  ];
  const factories = Array.from({ length: 4 }, (_, i) => `fac_bench${String(i).padStart(21, '0')}`);
  const automations = Array.from({ length: 12 }, (_, i) => `aut_bench${String(i).padStart(21, '0')}`);
  const iso = (ms: number) => new Date(ms).toISOString();

  const makeRow = (): Insertable<RunsTable> => {
    const state = weighted(STATES);
    const inFlight = ['PENDING', 'CLAIMED', 'INPROGRESS', 'BLOCKED'].includes(state);
    const terminal = !inFlight;
    const createdMs = inFlight ? now - Math.floor(rand() * 2 * 3600 * 1000) : now - Math.floor(rand() * 30 * DAY_MS);
    const startedMs = createdMs + int(50, 5_000);
    const updatedMs = terminal ? startedMs + int(2_000, 30 * 60 * 1000) : Math.min(now, startedMs + int(0, 60_000));
    const source = weighted(SOURCES);
    const creator = creators[int(0, creators.length - 1)]!;
    const name = rand() < 0.3 ? undefined : skewed(SEED_NAMES);
    const modelId = skewed(SEED_MODEL_IDS);
    const words = Array.from({ length: int(6, 90) }, () => WORDS[int(0, WORDS.length - 1)]!);
    const metadata =
      rand() < 0.4 ? { team: SEED_METADATA_TEAMS[int(0, SEED_METADATA_TEAMS.length - 1)]!, ticket_id: seedTicket(int(1, SEED_TICKETS)) } : undefined;
    const prompt = metadata ? `${words.join(' ')} (ticket ${metadata.ticket_id})` : words.join(' ');
    const config = { ...(name ? { name } : {}), model_id: modelId };
    const resolved = { ...config, max_turns: 20, model_call_timeout_seconds: 120, run_timeout_seconds: 1800 };
    const statusMessage =
      state === 'FAILED'
        ? { message: `command exited with status ${int(1, 2)}`, error_code: 'runner_failed', retryable: false }
        : state === 'ERROR'
          ? { message: 'the run stopped because of an internal error', error_code: 'internal_error', retryable: true }
          : state === 'CANCELLED'
            ? { message: 'run cancelled on request' }
            : undefined;
    const fromAutomation = source === 'WEBHOOK' || source === 'SCHEDULED_AGENT';
    const started = state !== 'PENDING' && state !== 'CLAIMED' && !(state === 'CANCELLED' && rand() < 0.3);
    return {
      id: randomUUID(),
      team_id: options.teamId,
      title: [...words.slice(0, 8).join(' ')].slice(0, 80).join(''),
      prompt,
      state,
      source,
      creator_type: creator.type,
      creator_uid: creator.uid,
      creator_display_name: creator.name,
      creator_email: creator.type === 'user' ? `${creator.uid}@example.com` : null,
      status_message: statusMessage ? JSON.stringify(statusMessage) : null,
      session_id: randomUUID(),
      config: JSON.stringify(config),
      resolved_config: JSON.stringify(resolved),
      runner: modelId === 'command' ? 'command' : modelId === 'echo' ? 'echo' : 'model',
      factory_id: fromAutomation ? factories[int(0, factories.length - 1)]! : null,
      automation_id: fromAutomation ? automations[int(0, automations.length - 1)]! : null,
      delivery_id: source === 'WEBHOOK' ? `dlv_bench${randomUUID().replace(/-/g, '').slice(0, 21)}` : null,
      usage: terminal && started && modelId !== 'command' && modelId !== 'echo' ? usageJson(int(200, 20_000), int(50, 4_000)) : null,
      event_seq: int(3, 40),
      lease_owner: inFlight ? 'bench-seed:phantom-worker' : null,
      lease_expires_at: inFlight ? iso(now + 7 * DAY_MS) : null,
      claim_count: state === 'PENDING' ? 0 : 1,
      cancel_requested_at: state === 'CANCELLED' ? iso(updatedMs) : null,
      created_at: iso(createdMs),
      updated_at: iso(updatedMs),
      started_at: started ? iso(startedMs) : null,
      completed_at: terminal ? iso(updatedMs) : null,
      metadata: metadata ? JSON.stringify(metadata) : null,
      parent_run_id: null,
    };
  };

  const t0 = performance.now();
  let written = 0;
  while (written < options.count) {
    const inTx = Math.min(transactionRows, options.count - written);
    await db.transaction().execute(async (tx) => {
      for (let done = 0; done < inTx;) {
        const n = Math.min(batchRows, inTx - done);
        const rows = Array.from({ length: n }, makeRow);
        await tx.insertInto('runs').values(rows).execute();
        // What insertQueuedRun writes beside a run with metadata (the index of metadata filters).
        const metadataRows = rows.flatMap((row) =>
          Object.entries(row.metadata ? (JSON.parse(row.metadata) as Record<string, string>) : {}).map(([key, value]) => ({
            team_id: row.team_id,
            run_id: row.id,
            key,
            value,
          })),
        );
        if (metadataRows.length > 0) await tx.insertInto('run_metadata').values(metadataRows).execute();
        done += n;
      }
    });
    written += inTx;
  }
  return { rows: written, seconds: (performance.now() - t0) / 1000 };
}

/** seedRuns for a team found by name, on a database opened (and closed) here: for benchmarks in other packages. */
export async function seedRunsForTeam(databaseUrl: string, teamName: string, count: number): Promise<SeedResult> {
  const db = await openDatabase({ databaseUrl }, { poolSize: 1 });
  try {
    const team = await db.db.selectFrom('teams').select('id').where('name', '=', teamName).executeTakeFirstOrThrow();
    return await seedRuns(db.db, { teamId: team.id, count });
  } finally {
    await db.close();
  }
}
