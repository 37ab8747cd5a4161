/**
 * The response validator the tests' servers run (http/validator.ts, `validateResponses`): a response that breaks
 * the contract becomes a 500. Responses shared by $ref (a problem answer) are compiled once for every route
 * (patches/express-openapi-validator@5.6.2.patch): a shared validator must still judge each route's answers.
 */
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expressPath } from '../../src/api/operations';
import { startValidatedApp } from '../support/validated-app';

describe('response validation', () => {
  let base: string;
  let close: () => void;
  let answer: { status: number; body: unknown } = { status: 200, body: {} };

  beforeAll(async () => {
    const respond: RequestHandler = (_req, res) => {
      res.status(answer.status).type('application/problem+json').json(answer.body);
    };
    ({ base, close } = await startValidatedApp(true, (api) => {
      api.get(expressPath('/agent/runs/{runId}'), respond);
      api.get(expressPath('/agent/schedules/{scheduleId}'), respond);
    }));
  });
  afterAll(() => close?.());

  const problem = {
    type: 'about:blank',
    title: 'Not Found',
    status: 404,
    detail: 'Nothing with this id in your team.',
    instance: '/api/v1/agent/runs/r-1',
    error: 'Nothing with this id in your team.',
    retryable: false,
    trace_id: 'req-1',
  };

  it.each(['/agent/runs/r-1', '/agent/schedules/s-1'])('%s: a problem that follows the contract passes, one that does not is a 500', async (path) => {
    answer = { status: 404, body: problem };
    const ok = await fetch(`${base}${path}`);
    expect(ok.status, await ok.text()).toBe(404);
    answer = { status: 404, body: { ...problem, status: 'not a number' } };
    const broken = await fetch(`${base}${path}`);
    expect(broken.status).toBe(500);
    expect(((await broken.json()) as { message: string }).message).toMatch(/status/);
  });
});
