import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { isFullyMigrated, migrateToLatest } from '../../src/db/migrate';
import { isUniqueViolation, jsonTextField, toCount, forUpdateSkipLocked } from '../../src/db/dialect';
import { testDatabases, type TestDatabase } from '../support/databases';

/** tables.ts, column by column: [name, nullable]. Migrations must match it exactly. */
const EXPECTED: Record<string, Array<[string, boolean]>> = {
  teams: [
    ['id', false],
    ['name', false],
    ['created_at', false],
  ],
  api_keys: [
    ['id', false],
    ['team_id', false],
    ['name', false],
    ['role', false],
    ['key_hash', false],
    ['key_prefix', false],
    ['created_by', false],
    ['created_at', false],
    ['last_used_at', true],
    ['revoked_at', true],
  ],
  idempotency_keys: [
    ['team_id', false],
    ['key', false],
    ['method', false],
    ['path', false],
    ['request_hash', false],
    ['status_code', true],
    ['response_headers', true],
    ['response_body', true],
    ['created_at', false],
    ['expires_at', false],
  ],
  runs: [
    ['id', false],
    ['team_id', false],
    ['title', false],
    ['prompt', false],
    ['state', false],
    ['source', false],
    ['creator_type', false],
    ['creator_uid', false],
    ['creator_display_name', false],
    ['creator_email', true],
    ['status_message', true],
    ['session_id', false],
    ['config', true],
    ['resolved_config', true],
    ['runner', true],
    ['factory_id', true],
    ['automation_id', true],
    ['delivery_id', true],
    ['usage', true],
    ['event_seq', false],
    ['output_bytes', false],
    ['trace_context', true],
    ['lease_owner', true],
    ['lease_expires_at', true],
    ['claim_count', false],
    ['cancel_requested_at', true],
    ['metadata', true],
    ['parent_run_id', true],
    ['schedule_id', true],
    ['schedule', true],
    ['image_digest', true],
    ['created_at', false],
    ['updated_at', false],
    ['started_at', true],
    ['completed_at', true],
  ],
  run_events: [
    ['run_id', false],
    ['team_id', false],
    ['seq', false],
    ['kind', false],
    ['data', false],
    ['created_at', false],
    ['step_id', true],
  ],
  run_steps: [
    ['id', false],
    ['run_id', false],
    ['team_id', false],
    ['position', false],
    ['description', true],
    ['summary', true],
    ['started_at', false],
    ['completed_at', true],
  ],
  run_followups: [
    ['id', false],
    ['run_id', false],
    ['team_id', false],
    ['message', false],
    ['created_at', false],
    ['delivered_at', true],
  ],
  run_attachments: [
    ['run_id', false],
    ['team_id', false],
    ['file_name', false],
    ['mime_type', false],
    ['size', false],
    ['data', false],
    ['created_at', false],
  ],
  run_artifacts: [
    ['id', false],
    ['run_id', false],
    ['team_id', false],
    ['position', false],
    ['artifact_type', false],
    ['data', false],
    ['content', true],
    ['size', false],
    ['source_path', true],
    ['content_sha256', true],
    ['external_url', true],
    ['created_at', false],
  ],
  schedules: [
    ['id', false],
    ['team_id', false],
    ['name', false],
    ['cron_schedule', false],
    ['time_zone', false],
    ['prompt', false],
    ['config', true],
    ['metadata', true],
    ['enabled', false],
    ['next_run_at', true],
    ['version', false],
    ['created_by', false],
    ['updated_by', false],
    ['created_at', false],
    ['updated_at', false],
    ['last_ran_at', true],
    ['last_run_id', true],
    ['last_slot', true],
    ['last_fired_at', true],
    ['last_outcome', true],
    ['last_spawn_error', true],
    ['skipped_slots', false],
  ],
  team_claims: [
    ['team_id', false],
    ['last_claimed_at', false],
  ],
  team_budgets: [
    ['team_id', false],
    ['max_tokens_per_month', true],
    ['max_cost_micros_per_month', true],
    ['updated_at', false],
  ],
  team_monthly_usage: [
    ['team_id', false],
    ['month', false],
    ['model_id', false],
    ['prompt_tokens', false],
    ['completion_tokens', false],
    ['total_tokens', false],
    ['cost_micros', false],
  ],
};

const now = '2026-11-21T10:00:00.000Z';

describe.each(testDatabases())('database layer on %s', (kind) => {
  let t: TestDatabase;
  afterEach(async () => {
    await t?.close();
  });

  it('migrates an empty database to the data model of tables.ts, and reports it fully migrated', async () => {
    t = await kind.create({ migrate: false });
    expect(await isFullyMigrated(t.db)).toBe(false);
    const applied = await migrateToLatest(t.db);
    expect(applied).toEqual(expect.arrayContaining(['20261121T0001_core', '20261121T0002_runs']));
    expect(await isFullyMigrated(t.db)).toBe(true);
    expect(await migrateToLatest(t.db)).toEqual([]);

    const tables = await t.db.introspection.getTables();
    for (const [table, columns] of Object.entries(EXPECTED)) {
      const found = tables.find((x) => x.name === table);
      expect(found, table).toBeDefined();
      const actual = found!.columns.map((c) => [c.name, c.isNullable]).sort();
      expect(actual, table).toEqual([...columns].sort());
    }
  });

  it('returns rows as plain objects: column order, a later duplicate name winning, "__proto__" as a property', async () => {
    t = await kind.create();
    await t.db
      .insertInto('teams')
      .values([
        { id: 'team_a', name: 'acme', created_at: now },
        { id: 'team_b', name: 'beta', created_at: now },
      ])
      .execute();
    const rows = await t.db.selectFrom('teams').select(['name', 'id']).orderBy('id').execute();
    expect(rows).toEqual([
      { name: 'acme', id: 'team_a' },
      { name: 'beta', id: 'team_b' },
    ]);
    expect(Object.keys(rows[0]!)).toEqual(['name', 'id']);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);

    const { rows: odd } = await sql<Record<string, unknown>>`select 1 as "x", 2 as "x", 'p' as "__proto__"`.execute(t.db);
    expect(odd[0]!['x']).toBe(2);
    expect(Object.getOwnPropertyDescriptor(odd[0], '__proto__')?.value).toBe('p');
    expect(Object.getPrototypeOf(odd[0])).toBe(Object.prototype);

    // Streaming needs a cursor package on PostgreSQL, which the service does not use.
    if (kind.dialect === 'sqlite') {
      const streamed: unknown[] = [];
      for await (const row of t.db.selectFrom('teams').select(['id', 'name']).orderBy('id').stream()) streamed.push(row);
      expect(streamed).toEqual([
        { id: 'team_a', name: 'acme' },
        { id: 'team_b', name: 'beta' },
      ]);
    }

    // Writes without RETURNING still report what they changed.
    const updated = await t.db.updateTable('teams').set({ name: 'gamma' }).where('id', '=', 'team_b').executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(1);
  });

  it('detects unique violations (team name, api key hash, run event number) on this dialect', async () => {
    t = await kind.create();
    await t.db.insertInto('teams').values({ id: 'team_a', name: 'acme', created_at: now }).execute();
    const dup = await t.db
      .insertInto('teams')
      .values({ id: 'team_b', name: 'acme', created_at: now })
      .execute()
      .catch((e: unknown) => e);
    expect(isUniqueViolation(dup)).toBe(true);
    const other = await t.db
      .insertInto('teams')
      .values({ id: 'team_a', name: 'other', created_at: now })
      .execute()
      .catch((e: unknown) => e);
    expect(isUniqueViolation(other)).toBe(true);
    expect(isUniqueViolation(new Error('boom'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });

  it('normalises count(*) to a number and stores binary attachments byte for byte', async () => {
    t = await kind.create();
    await t.db.insertInto('teams').values({ id: 'team_a', name: 'acme', created_at: now }).execute();
    const row = await t.db
      .selectFrom('teams')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(toCount(row.n)).toBe(1);

    await t.db
      .insertInto('runs')
      .values({
        id: 'run-1',
        team_id: 'team_a',
        title: 't',
        prompt: 'p',
        state: 'QUEUED',
        source: 'API',
        creator_type: 'service_account',
        creator_uid: 'key_x',
        creator_display_name: 'x',
        creator_email: null,
        status_message: null,
        session_id: 's',
        config: null,
        resolved_config: JSON.stringify({ name: 'triage', model_id: 'm1' }),
        runner: null,
        factory_id: null,
        automation_id: null,
        delivery_id: null,
        usage: null,
        event_seq: 0,
        lease_owner: null,
        lease_expires_at: null,
        claim_count: 0,
        cancel_requested_at: null,
        created_at: now,
        updated_at: now,
        started_at: null,
        completed_at: null,
      })
      .execute();
    const bytes = Buffer.from([0, 1, 2, 255, 254, 0x80, 0x0a]);
    await t.db
      .insertInto('run_attachments')
      .values({
        run_id: 'run-1',
        team_id: 'team_a',
        file_name: 'a.bin',
        mime_type: 'application/octet-stream',
        size: bytes.length,
        data: bytes,
        created_at: now,
      })
      .execute();
    const stored = await t.db.selectFrom('run_attachments').select('data').executeTakeFirstOrThrow();
    expect(Buffer.compare(Buffer.from(stored.data), bytes)).toBe(0);

    // JSON field filter (the listRuns `name` / `model_id` filters) on this dialect.
    const byName = await t.db
      .selectFrom('runs')
      .select('id')
      .where(jsonTextField(t.dialect, 'resolved_config', 'name'), '=', 'triage')
      .execute();
    expect(byName.map((r) => r.id)).toEqual(['run-1']);
    const none = await t.db
      .selectFrom('runs')
      .select('id')
      .where(jsonTextField(t.dialect, 'resolved_config', 'model_id'), '=', 'triage')
      .execute();
    expect(none).toEqual([]);

    // The claim lock clause compiles only where supported, and the query runs on this dialect.
    const claimable = await forUpdateSkipLocked(t.db.selectFrom('runs').select('id').where('state', '=', 'QUEUED'), t.dialect).execute();
    expect(claimable.map((r) => r.id)).toEqual(['run-1']);

    // run_events: one event per (run_id, seq).
    const event = { run_id: 'run-1', team_id: 'team_a', seq: 1, kind: 'state' as const, data: '{}', created_at: now };
    await t.db.insertInto('run_events').values(event).execute();
    expect(
      isUniqueViolation(
        await t.db
          .insertInto('run_events')
          .values(event)
          .execute()
          .catch((e: unknown) => e),
      ),
    ).toBe(true);
  });

  it('enforces foreign keys: a run of an unknown team is refused', async () => {
    t = await kind.create();
    const err =
      await sql`insert into runs (id, team_id, title, prompt, state, source, creator_type, creator_uid, creator_display_name, session_id, created_at, updated_at) values ('r', 'team_missing', 't', 'p', 'QUEUED', 'API', 'service_account', 'k', 'k', 's', ${now}, ${now})`
        .execute(t.db)
        .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
  });
});
