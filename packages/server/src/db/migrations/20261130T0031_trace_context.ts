/**
 * `runs.trace_context`: the W3C `traceparent` of the span that queued the run (docs/decisions.md §Traces),
 * so the worker that claims it later, in this process or another, continues the trace of the webhook
 * delivery or request that created it. Null when tracing was off then.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runs').addColumn('trace_context', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runs').dropColumn('trace_context').execute();
}
