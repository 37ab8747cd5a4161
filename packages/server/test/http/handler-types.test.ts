/**
 * Handlers read `req.query`, `req.body` and `req.params` typed from the contract's `operations` (api/operations.ts),
 * without casts or conversions. The types hold only because the request validator (http/validator.ts) coerces
 * query values and fills in defaults before a handler runs: this checks both sides — the types at `pnpm
 * typecheck`, and at run time what the real validator hands a handler over real HTTP.
 */
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '@agent-runs/contract';
import { expressPath, type OperationQuery, type OperationRequestHandler } from '../../src/api/operations';
import { startValidatedApp } from '../support/validated-app';

type Params<H> = H extends (req: infer R, ...rest: never[]) => unknown ? R : never;
type ListRunsRequest = Params<OperationRequestHandler<'listRuns'>>;

describe('handler types', () => {
  it('type the query from the contract, with defaulted parameters always present', () => {
    expectTypeOf<OperationQuery<'listRuns'>['limit']>().toEqualTypeOf<number>();
    expectTypeOf<OperationQuery<'listRuns'>['sort_by']>().toEqualTypeOf<'created_at' | 'updated_at' | 'title' | 'agent'>();
    expectTypeOf<OperationQuery<'listRuns'>['state']>().toEqualTypeOf<components['schemas']['RunState'][] | undefined>();
    expectTypeOf<OperationQuery<'listRuns'>['metadata']>().toEqualTypeOf<{ [key: string]: string } | undefined>();
    expectTypeOf<OperationQuery<'listAgents'>['include_malformed_skills']>().toEqualTypeOf<boolean>();
    expectTypeOf<ListRunsRequest['query']>().toEqualTypeOf<OperationQuery<'listRuns'>>();
    // @ts-expect-error not a parameter of listRuns
    expectTypeOf<OperationQuery<'listRuns'>['not_a_filter']>().toBeUnknown();
  });

  it('type the body and the path parameters from the contract', () => {
    expectTypeOf<Params<OperationRequestHandler<'createRun'>>['body']>().toEqualTypeOf<components['schemas']['RunAgentRequest']>();
    // An optional body may be absent.
    expectTypeOf<Params<OperationRequestHandler<'rotateWebhookSecret'>>['body']>().toEqualTypeOf<
      components['schemas']['RotateWebhookSecretRequest'] | undefined
    >();
    expectTypeOf<Params<OperationRequestHandler<'getRun'>>['params']>().toEqualTypeOf<{ runId: string }>();
  });
});

describe('what the validator hands a handler', () => {
  const seen: Record<string, unknown>[] = [];
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    const record: RequestHandler = (req, res) => {
      seen.push({ ...req.query });
      res.json({ items: [] });
    };
    ({ base, close } = await startValidatedApp(false, (api) => {
      api.get(expressPath('/agent/runs'), record);
      api.get(expressPath('/agent'), record);
    }));
  });
  afterAll(() => close?.());

  async function queryOf(path: string): Promise<Record<string, unknown>> {
    const before = seen.length;
    const res = await fetch(`${base}${path}`);
    expect(res.status, await res.text()).toBe(200);
    expect(seen.length).toBe(before + 1);
    return seen[before]!;
  }

  it('fills in the defaults of the parameters not given', async () => {
    const query = await queryOf('/agent/runs');
    expect(query).toMatchObject({ limit: 20, sort_by: 'updated_at', sort_order: 'desc' });
  });

  it('coerces numbers, keeps one value of an array parameter as an array, and a deepObject as strings', async () => {
    const query = await queryOf('/agent/runs?limit=5&state=QUEUED&metadata[ticket]=42&created_after=2026-05-01T09:00:00%2B02:00');
    expect(query).toMatchObject({ limit: 5, state: ['QUEUED'], metadata: { ticket: '42' }, created_after: '2026-05-01T09:00:00+02:00' });
    expect((await queryOf('/agent/runs?state=QUEUED&state=FAILED')).state).toEqual(['QUEUED', 'FAILED']);
  });

  it('coerces booleans', async () => {
    expect(await queryOf('/agent?include_malformed_skills=true')).toMatchObject({ include_malformed_skills: true, refresh: false, sort_by: 'name' });
  });
});
