/**
 * Migration 20261127T0016_oz_parity on a database holding runs and conversations recorded before it: the
 * metadata index is filled from the runs' metadata; an
 * `action_result` whose output was a string (or another non-object JSON value) and an `action` whose input
 * was the model's unparseable arguments take the contract's object shapes; everything else is untouched,
 * and a resumed model run gives the model back exactly what it sent (SQLite and PostgreSQL).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMigrator, migrateToLatest } from '../../src/db/migrate';
import { readEventsOfKind } from '../../src/runs/events';
import { recordedArguments, recordedOutputText } from '../../src/engine/runners/model-tools';
import { testDatabases, type TestDatabase } from '../support/databases';

const MIGRATION = '20261127T0016_oz_parity';
const now = '2026-11-20T10:00:00.000Z';

describe.each(testDatabases())('migration %s', (kind) => {
  let t: TestDatabase;
  afterEach(async () => {
    await t?.close();
  });

  it('rewrites stored action outputs and unparseable action inputs to objects, and nothing else', async () => {
    t = await kind.create({ migrate: false });
    const migrator = createMigrator(t.db);
    const names = (await migrator.getMigrations()).map((m) => m.name);
    const previous = names[names.indexOf(MIGRATION) - 1]!;
    const moved = await migrator.migrateTo(previous);
    if (moved.error) throw moved.error;

    await t.db.insertInto('teams').values({ id: 'team_old', name: 'old', created_at: now }).execute();
    await t.db
      .insertInto('runs')
      .values({
        id: 'run-old',
        team_id: 'team_old',
        title: 't',
        prompt: 'p',
        state: 'SUCCEEDED',
        source: 'API',
        creator_type: 'service_account',
        creator_uid: 'key_x',
        creator_display_name: 'x',
        creator_email: null,
        status_message: null,
        session_id: 'session-old',
        config: null,
        resolved_config: '{}',
        runner: 'model',
        factory_id: null,
        automation_id: null,
        delivery_id: null,
        metadata: '{"ticket":"T-1","team":"web"}',
        parent_run_id: null,
        usage: null,
        event_seq: 6,
        lease_owner: null,
        lease_expires_at: null,
        claim_count: 1,
        cancel_requested_at: null,
        created_at: now,
        updated_at: now,
        started_at: now,
        completed_at: now,
      } as never)
      .execute();
    const block = (seq: number, b: unknown) => ({
      run_id: 'run-old',
      team_id: 'team_old',
      seq,
      kind: 'content' as const,
      created_at: now,
      data: JSON.stringify({ run_id: 'run-old', step_id: 'step_1', message_id: `msg_${seq}`, role: 'tool', timestamp: now, block: b }),
    });
    const blocks = [
      { type: 'text', text: 'hello' },
      { type: 'action', id: 'call_1', category: 'integration', name: 'add', input: '{"a": 1,' },
      { type: 'action', id: 'call_2', category: 'integration', name: 'add', input: { a: 1, b: 2 } },
      { type: 'action_result', action_id: 'call_1', category: 'integration', name: 'add', state: 'failed', output: 'The tool arguments are not valid JSON.' },
      { type: 'action_result', action_id: 'call_2', category: 'integration', name: 'add', state: 'completed', output: 3 },
      { type: 'action_result', action_id: 'call_3', category: 'skill', name: 'read_skill', state: 'completed', output: { text: 'already an object' } },
      { type: 'event', name: 'stderr', data: { text: 'warn' } },
    ];
    await t.db
      .insertInto('run_events')
      .values(blocks.map((b, i) => block(i + 1, b)))
      .execute();
    await t.db
      .insertInto('run_events')
      .values({
        run_id: 'run-old',
        team_id: 'team_old',
        seq: 8,
        kind: 'state',
        created_at: now,
        data: JSON.stringify({ run_id: 'run-old', state: 'SUCCEEDED', updated_at: now }),
      })
      .execute();

    expect(await migrateToLatest(t.db)).toContain(MIGRATION);

    const after = (await readEventsOfKind(t.db, 'team_old', 'run-old', 'content')).map((e) => e.data.block);
    expect(after).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'action', id: 'call_1', category: 'integration', name: 'add', input: { unparsed_arguments: '{"a": 1,' } },
      { type: 'action', id: 'call_2', category: 'integration', name: 'add', input: { a: 1, b: 2 } },
      {
        type: 'action_result',
        action_id: 'call_1',
        category: 'integration',
        name: 'add',
        state: 'failed',
        output: { text: 'The tool arguments are not valid JSON.' },
      },
      { type: 'action_result', action_id: 'call_2', category: 'integration', name: 'add', state: 'completed', output: { value: 3 } },
      { type: 'action_result', action_id: 'call_3', category: 'skill', name: 'read_skill', state: 'completed', output: { text: 'already an object' } },
      { type: 'event', name: 'stderr', data: { text: 'warn' } },
    ]);
    // The metadata index is filled from the runs' metadata.
    const metadata = await t.db.selectFrom('run_metadata').selectAll().orderBy('key').execute();
    expect(metadata).toEqual([
      { team_id: 'team_old', run_id: 'run-old', key: 'team', value: 'web' },
      { team_id: 'team_old', run_id: 'run-old', key: 'ticket', value: 'T-1' },
    ]);
    const state = await t.db.selectFrom('run_events').select('data').where('seq', '=', 8).executeTakeFirstOrThrow();
    expect(JSON.parse(state.data)).toEqual({ run_id: 'run-old', state: 'SUCCEEDED', updated_at: now });

    // What a resumed run hands the model again: the arguments as sent, the outputs' text.
    const actions = after.filter((b) => b.type === 'action');
    const results = after.filter((b) => b.type === 'action_result');
    expect(recordedArguments(actions[0]!)).toBe('{"a": 1,');
    expect(JSON.parse(recordedArguments(actions[1]!))).toEqual({ a: 1, b: 2 });
    expect(recordedOutputText(results[0]!.output)).toBe('The tool arguments are not valid JSON.');
    expect(recordedOutputText(results[1]!.output)).toBe('{"value":3}');
  });
});
