/**
 * Budgets through the public API (docs/decisions.md §Budgets and usage), on every test database: a run's
 * own max_tokens and max_cost, the team's monthly budget (admins set it, members read it), the refusal
 * to start runs once it is spent, usage per team and month, and the month's rollover on the injected clock.
 * The model is the scripted fake provider (real HTTP), which reports each call's usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, waitForRunState, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';
import { FakeModel, text, usage } from '../agent/support/fake-model';

const MODEL = 'budget-model';
// USD per million tokens: 300 prompt + 50 completion tokens cost 600 + 500 = 1,100 micro-dollars.
const PRICES = { [MODEL]: { input_per_mtok: 2, output_per_mtok: 10 } };
const FINISHED = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
// A whole server with its engine, and runs through the model runner: slow on a busy shared machine.
const SLOW_MS = 120_000;

describe.each(testDatabases())('budgets (%s)', (kind) => {
  let server: TestServer;
  let model: FakeModel;
  const clock = new ManualClock(Date.parse('2026-11-29T08:00:00Z'));

  beforeAll(async () => {
    model = await FakeModel.start();
    server = await startTestServer({
      database: kind,
      clock,
      env: { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: MODEL, MODEL_PRICES: JSON.stringify(PRICES) },
      engine: { scheduler: false },
    });
  }, SLOW_MS);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  async function newTeam(name: string): Promise<{ admin: ApiClient; member: ApiClient }> {
    const { apiKey } = await server.createTeamWithKey(name, 'admin');
    const admin = apiClient(server.apiUrl, apiKey);
    const created = await admin.post('/api-keys', { name: `${name}-member`, role: 'member' });
    expect(created.status).toBe(201);
    return { admin, member: apiClient(server.apiUrl, created.body.api_key) };
  }

  async function runToEnd(client: ApiClient, body: unknown) {
    const created = await client.post('/agent/runs', body);
    expect(created.status).toBe(200);
    return waitForRunState(client, created.body.run_id, FINISHED, SLOW_MS);
  }

  it(
    'ends a run that passes its max_tokens FAILED budget_exceeded, with what it used',
    async () => {
      const { member } = await newTeam('run-tokens');
      model.reply(text('A long answer.', usage(80, 40)));
      const run = await runToEnd(member, { prompt: 'Write at length.', config: { max_tokens: 100 } });
      expect(run.state).toBe('FAILED');
      expect(run.status_message).toEqual({
        message: 'The run used 120 tokens; its max_tokens is 100 tokens.',
        error_code: 'budget_exceeded',
        retryable: false,
      });
      expect(run.usage).toMatchObject(usage(80, 40));
      expect(run.agent_config.max_tokens).toBe(100);
    },
    SLOW_MS,
  );

  it(
    'makes no model call once a run has used its max_tokens: a follow-up fails at start',
    async () => {
      const { member } = await newTeam('run-reached');
      model.reply(text('Exactly on budget.', usage(90, 10)));
      const run = await runToEnd(member, { prompt: 'Answer briefly.', config: { max_tokens: 100 } });
      expect(run.state).toBe('SUCCEEDED'); // the last answer landed on the limit, not past it
      const calls = model.requests.length;

      const followup = await member.post(`/agent/runs/${run.run_id}/followups`, { message: 'And more?' });
      expect(followup.status).toBe(200);
      const resumed = await waitForRunState(member, run.run_id, ['FAILED'], SLOW_MS);
      expect(resumed.status_message).toMatchObject({ error_code: 'budget_exceeded', message: 'The run used 100 tokens; its max_tokens is 100 tokens.' });
      expect(model.requests.length).toBe(calls);
    },
    SLOW_MS,
  );

  it(
    'ends a run that passes its max_cost, and prices the usage of every run',
    async () => {
      const { member } = await newTeam('run-cost');
      model.reply(text('Costly.', usage(300, 50)));
      const run = await runToEnd(member, { prompt: 'Spend.', config: { max_cost: 0.001 } });
      expect(run.state).toBe('FAILED');
      expect(run.status_message).toMatchObject({ error_code: 'budget_exceeded', message: 'The run used $0.0011; its max_cost is $0.001.' });
      expect(run.usage).toEqual({ ...usage(300, 50), cost_usd: 0.0011 });
    },
    SLOW_MS,
  );

  it('refuses max_cost for a model without a price and bad budget values, naming the field', async () => {
    const { member } = await newTeam('run-invalid');
    const unpriced = await member.post('/agent/runs', { prompt: 'x', config: { model_id: 'other-model', max_cost: 1 } });
    expectProblem(unpriced, 400, 'invalid_request');
    expect(unpriced.body.errors).toEqual([{ path: '$.config.max_cost', message: 'needs a price for the model other-model in MODEL_PRICES' }]);
    for (const config of [{ max_tokens: 0 }, { max_tokens: 1.5 }, { max_cost: 0 }, { max_cost: 5e-324 }, { max_cost: 0.0000009 }, { max_cost: 'a lot' }]) {
      const res = await member.post('/agent/runs', { prompt: 'x', config });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([`$.config.${Object.keys(config)[0]}`]);
    }
  });

  it('takes a cost limit from the contract minimum (one micro-dollar) up, for a run and for the team; below it is a 400 naming the field', async () => {
    const { admin, member } = await newTeam('cost-floor');
    // Run to its end, so that its model call is not counted by a later test.
    expect((await runToEnd(member, { prompt: 'x', config: { model_id: MODEL, max_cost: 0.000001 } })).run_id).toBeDefined();
    expect((await admin.request('PUT', '/team/budget', { body: { max_cost_usd_per_month: 0.000001 } })).status).toBe(200);
    for (const tooSmall of [5e-324, 0.0000009]) {
      const res = await admin.request('PUT', '/team/budget', { body: { max_cost_usd_per_month: tooSmall } });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['$.max_cost_usd_per_month']);
    }
  });

  it(
    'lets admins set the monthly budget and members read it; a spent budget fails the run and refuses new ones until the month ends',
    async () => {
      const { admin, member } = await newTeam('team-budget');
      const before = await member.get('/team/budget');
      expect(before.status).toBe(200);
      expect(before.body).toEqual({
        max_tokens_per_month: null,
        max_cost_usd_per_month: null,
        month: '2026-11',
        used_tokens: 0,
        used_cost_usd: 0,
        exceeded: false,
        updated_at: null,
      });
      expectProblem(await member.request('PUT', '/team/budget', { body: { max_tokens_per_month: 1 } }), 403, 'not_authorized');
      const invalid = await admin.request('PUT', '/team/budget', { body: { max_tokens_per_month: 0 } });
      expectProblem(invalid, 400, 'invalid_request');
      expect(invalid.body.errors[0].path).toMatch(/max_tokens_per_month/);

      const set = await admin.request('PUT', '/team/budget', { body: { max_tokens_per_month: 100, max_cost_usd_per_month: 5 } });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({
        max_tokens_per_month: 100,
        max_cost_usd_per_month: 5,
        used_tokens: 0,
        exceeded: false,
        updated_at: '2026-11-29T08:00:00.000Z',
      });

      model.reply(text('Over the team budget.', usage(70, 40)));
      const run = await runToEnd(member, { prompt: 'Work.' });
      expect(run.state).toBe('FAILED');
      expect(run.status_message).toEqual({
        message: 'The team used 110 tokens; its monthly token budget for 2026-11 is 100 tokens. The run used 110 tokens ($0.00054).',
        error_code: 'budget_exceeded',
        retryable: false,
      });

      const refused = await member.post('/agent/runs', { prompt: 'One more.' });
      expectProblem(refused, 409, 'limit_exceeded');
      expect(refused.body.retryable).toBe(false);
      expect(refused.body.detail).toBe(
        'The team used 110 tokens; its monthly token budget for 2026-11 is 100 tokens. No run can start until an admin raises the budget (PUT /team/budget) or the month ends (UTC).',
      );
      expectProblem(await member.post(`/agent/runs/${run.run_id}/followups`, { message: 'Retry.' }), 409, 'limit_exceeded');
      expect((await member.get('/team/budget')).body).toMatchObject({ used_tokens: 110, used_cost_usd: 0.00054, exceeded: true });

      // A run no client waits on (a schedule's slot) is still created, and fails at start without a model call.
      const schedule = await admin.post('/agent/schedules', { name: 'Nightly', cron_schedule: '0 9 * * *', prompt: 'Nightly work.' });
      expect(schedule.status).toBe(201);
      const calls = model.requests.length;
      clock.set(Date.parse('2026-11-29T09:00:00Z'));
      const { runs } = await server.fireDueSchedules();
      expect(runs).toHaveLength(1);
      const scheduled = await waitForRunState(member, runs[0]!, FINISHED, SLOW_MS);
      expect(scheduled).toMatchObject({ state: 'FAILED', source: 'SCHEDULED_AGENT', status_message: { error_code: 'budget_exceeded', retryable: false } });
      expect(scheduled.status_message.message).toBe('The team used 110 tokens; its monthly token budget for 2026-11 is 100 tokens. The run used 0 tokens.');
      expect(model.requests.length).toBe(calls);

      const november = await member.get('/usage');
      expect(november.status).toBe(200);
      expect(november.body).toEqual({
        month: '2026-11',
        ...usage(70, 40),
        cost_usd: 0.00054,
        models: [{ model_id: MODEL, ...usage(70, 40), cost_usd: 0.00054 }],
      });

      clock.set(Date.parse('2026-12-01T00:00:00Z'));
      try {
        expect((await member.get('/team/budget')).body).toMatchObject({ month: '2026-12', used_tokens: 0, exceeded: false });
        expect((await member.get('/usage')).body).toEqual({
          month: '2026-12',
          prompt_tokens: 0,
          completion_tokens: 0,
          total_tokens: 0,
          cost_usd: 0,
          models: [],
        });
        expect((await member.get('/usage?month=2026-11')).body).toEqual(november.body);
        model.reply(text('A new month.', usage(5, 5)));
        const next = await runToEnd(member, { prompt: 'Work again.' });
        expect(next.state).toBe('SUCCEEDED');
      } finally {
        clock.set(Date.parse('2026-11-29T08:00:00Z'));
      }
    },
    SLOW_MS,
  );

  it('keeps usage per team: another team sees only its own', async () => {
    const { member } = await newTeam('other-team');
    expect((await member.get('/usage?month=2026-11')).body).toMatchObject({ total_tokens: 0, models: [] });
    expectProblem(await member.get('/usage?month=2026-13'), 400, 'invalid_request');
  });
});
