// The SDK end to end against the real server (in-process, fresh SQLite, echo runner): a run from create
// through its events to the terminal state, pagination across pages, follow-ups, cancel, a retried create
// that never makes two runs, the error classes, raw responses, and a webhook delivery signed with
// `signWebhook` that an automation turns into a run; every schedule operation, and a firing's run; the audit log.
import { startTestServer, type TestServer } from '@agent-runs/server/test/support/server';
import {
  AgentRuns,
  AgentRunsError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  CursorPage,
  NotFoundError,
  type TranscriptLine,
  signWebhook,
  type Fetch,
  type RunEvent,
  type RunItem,
  type ScheduledAgentItem,
  type WebhookWithSecret,
} from '@agent-runs/sdk';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UNKNOWN_RUN = '00000000-0000-4000-8000-000000000000';
let counter = 0;
const unique = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${++counter}`;

/** Every event of the stream until it ends by itself, failing after `ms`. */
async function collect(stream: AsyncIterable<RunEvent> & { controller: AbortController }, ms: number): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stream.controller.abort();
  }, ms);
  try {
    for await (const event of stream) events.push(event);
  } catch (err) {
    if (timedOut) throw new Error(`event stream did not end within ${ms} ms; got ${JSON.stringify(events)}`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return events;
}

/** Polls `probe` until it answers something other than undefined, failing after `ms`. */
async function eventually<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const states = (events: RunEvent[]): string[] => events.flatMap((e) => (e.event === 'state' ? [e.data.state] : []));
const texts = (events: RunEvent[]): string[] => events.flatMap((e) => (e.event === 'content' && e.data.block.type === 'text' ? [e.data.block.text] : []));

describe('SDK against the real server (echo runner)', () => {
  let server: TestServer;
  let client: AgentRuns;

  beforeAll(async () => {
    server = await startTestServer({ env: { ECHO_DELAY_MS: '50' } });
    client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, timeout: 10_000 });
  });
  afterAll(() => server?.close());

  it('create → events → terminal: the stream reports each state and the echoed text, then ends', { timeout: 30_000 }, async () => {
    const prompt = `Echo me ${unique('prompt')}`;
    const created = await client.agent.runs.create({ prompt, config: { name: unique('e2e') } });
    expect(created).toMatchObject({ run_id: expect.any(String), task_id: created.run_id, state: 'QUEUED' });

    const events = await collect(client.agent.runs.events(created.run_id), 15_000);
    expect(states(events).at(-1)).toBe('SUCCEEDED');
    expect(states(events)).toContain('INPROGRESS');
    expect(texts(events)).toContain(prompt);
    for (const e of events) expect(e.data.run_id).toBe(created.run_id);
    // Ids increase, so a consumer can resume after any of them.
    const ids = events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    // Resuming after the first event replays only what followed it.
    const resumed = await collect(client.agent.runs.events(created.run_id, { lastEventId: events[0]!.id }), 15_000);
    expect(resumed.map((e) => e.id)).toEqual(events.slice(1).map((e) => e.id));

    const run: RunItem = await client.agent.runs.retrieve(created.run_id);
    expect(run).toMatchObject({ run_id: created.run_id, state: 'SUCCEEDED', prompt, source: 'API' });
  });

  it("teamEvents: every state change of the team's runs, found by session_id; apiKeys.current names the key and team", { timeout: 30_000 }, async () => {
    const me = await client.apiKeys.current();
    expect(me).toMatchObject({ key: { role: 'admin' }, team: { name: 'default', team_id: expect.stringMatching(/^team_/) } });

    const stream = client.agent.runs.teamEvents();
    const seen: RunEvent[] = [];
    const reading = (async () => {
      for await (const event of stream) seen.push(event);
    })().catch(() => {}); // ends with the abort below
    // Created right after the stream was asked for, maybe before the server has it: a run's next change
    // still brings its recent earlier states (the stream's first-sight window), QUEUED included.
    const runIds = [(await client.agent.runs.create({ prompt: 'team one' })).run_id, (await client.agent.runs.create({ prompt: 'team two' })).run_id];
    const finished = (id: string) => seen.some((e) => e.event === 'state' && e.data.run_id === id && e.data.state === 'SUCCEEDED');
    try {
      await eventually(async () => runIds.every(finished) || undefined, 20_000, 'both runs on the team stream');
    } finally {
      stream.controller.abort();
      await reading;
    }
    for (const id of runIds) {
      expect(seen.filter((e) => e.data.run_id === id).map((e) => (e.event === 'state' ? e.data.state : e.event))).toEqual([
        'QUEUED',
        'CLAIMED',
        'INPROGRESS',
        'SUCCEEDED',
      ]);
    }
    const run = await client.agent.runs.retrieve(runIds[0]!);
    const found = await client.agent.runs.list({ session_id: run.session_id! });
    expect(found.data.map((r) => r.run_id)).toEqual([runIds[0]]);
  });

  it('createAndWait resolves with the terminal run', { timeout: 30_000 }, async () => {
    const run = await client.agent.runs.createAndWait({ prompt: 'wait for me' }, { maxWaitMs: 20_000, pollIntervalMs: 200 });
    expect(run).toMatchObject({ state: 'SUCCEEDED', prompt: 'wait for me' });
    const conversation = await client.agent.runs.conversation(run.run_id);
    const assistant = conversation.steps.flatMap((s) => s.messages).filter((m) => m.role === 'assistant');
    expect(assistant.flatMap((m) => m.content)).toContainEqual(expect.objectContaining({ type: 'text', text: 'wait for me' }));
  });

  it('pagination: 25 runs, pages of 10 — for await walks all, hasNextPage/getNextPage step through 10/10/5', { timeout: 45_000 }, async () => {
    const name = unique('paged');
    const created: string[] = [];
    for (let i = 0; i < 25; i++) created.push((await client.agent.runs.create({ prompt: `page item ${i}`, config: { name } })).run_id);
    // Sorted by creation, so runs finishing meanwhile (updated_at changes) cannot move between pages.
    const query = { name, limit: 10, sort_by: 'created_at', sort_order: 'asc' } as const;

    const walked: string[] = [];
    for await (const run of client.agent.runs.list(query)) walked.push(run.run_id);
    expect(walked).toHaveLength(25);
    expect(new Set(walked)).toEqual(new Set(created));
    expect(walked).toEqual(created);

    let page = await client.agent.runs.list(query);
    expect(page).toBeInstanceOf(CursorPage);
    const sizes = [page.data.length];
    const seen = page.data.map((r) => r.run_id);
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      sizes.push(page.data.length);
      seen.push(...page.data.map((r) => r.run_id));
    }
    expect(sizes).toEqual([10, 10, 5]);
    expect(seen).toEqual(created);
    expect(page.page_info).toEqual({ has_next_page: false, next_cursor: null });
    await expect(page.getNextPage()).rejects.toBeInstanceOf(AgentRunsError);

    const pages: number[] = [];
    for await (const p of (await client.agent.runs.list(query)).iterPages()) pages.push(p.data.length);
    expect(pages).toEqual([10, 10, 5]);
  });

  it('a follow-up to a finished run re-queues it and it completes again', { timeout: 30_000 }, async () => {
    const first = await client.agent.runs.createAndWait({ prompt: 'first turn' }, { maxWaitMs: 20_000 });
    expect(first.state).toBe('SUCCEEDED');

    const answer = await client.agent.runs.followup(first.run_id, { message: 'second turn' });
    expect(answer).toEqual({ run_id: first.run_id, task_id: first.run_id, state: 'QUEUED' });

    const again = await client.agent.runs.wait(first.run_id, { maxWaitMs: 20_000, pollIntervalMs: 200 });
    expect(again.state).toBe('SUCCEEDED');
    const conversation = await client.agent.runs.conversation(first.run_id);
    expect(conversation.steps.length).toBeGreaterThanOrEqual(2);
    const assistantTexts = conversation.steps
      .flatMap((s) => s.messages)
      .filter((m) => m.role === 'assistant')
      .flatMap((m) => m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
    expect(assistantTexts).toEqual(['first turn', 'second turn']);
  });

  it('a create retried after a lost response (same Idempotency-Key) makes exactly one run', { timeout: 30_000 }, async () => {
    const attempts: Array<{ key: string | null; retryCount: string | null; status?: number }> = [];
    let dropped: { run_id: string } | undefined;
    // The first POST reaches the server and is answered; the answer is then "lost" as a connection error.
    const flakyFetch: Fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      const isCreate = init?.method === 'POST' && new URL(String(input instanceof Request ? input.url : input)).pathname.endsWith('/agent/runs');
      const response = await fetch(input, init);
      if (isCreate) {
        attempts.push({ key: headers.get('idempotency-key'), retryCount: headers.get('x-retry-count'), status: response.status });
        if (attempts.length === 1) {
          dropped = (await response.json()) as { run_id: string };
          throw new TypeError('fetch failed', { cause: new Error('ECONNRESET (simulated after the server answered)') });
        }
      }
      return response;
    };
    const flaky = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, fetch: flakyFetch, maxRetries: 4 });
    const name = unique('idem');

    const { data, response } = await flaky.agent.runs.create({ prompt: 'exactly once', config: { name } }).withResponse();
    expect(dropped?.run_id).toEqual(expect.any(String));
    expect(data.run_id).toBe(dropped!.run_id);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    const replayed = attempts.filter((a) => a.status === 200);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(replayed.length).toBe(2); // the lost answer and its replay (any in-between attempt was a retryable 409)
    expect(new Set(attempts.map((a) => a.key)).size).toBe(1);
    expect(attempts[0]!.key).toEqual(expect.any(String));
    expect(attempts.map((a) => a.retryCount)).toEqual(attempts.map((_, i) => String(i)));

    const runs = [];
    for await (const run of client.agent.runs.list({ name, limit: 100 })) runs.push(run);
    expect(runs.map((r) => r.run_id)).toEqual([dropped!.run_id]);
  });

  it('an explicit idempotencyKey replays the first answer; the same key with another body is a ConflictError', { timeout: 15_000 }, async () => {
    const idempotencyKey = randomUUID();
    const name = unique('explicit-key');
    const first = await client.agent.runs.create({ prompt: 'keyed', config: { name } }, { idempotencyKey }).withResponse();
    const second = await client.agent.runs.create({ prompt: 'keyed', config: { name } }, { idempotencyKey }).withResponse();
    expect(second.data.run_id).toBe(first.data.run_id);
    expect(second.response.headers.get('idempotent-replayed')).toBe('true');

    const err = await client.agent.runs.create({ prompt: 'another body', config: { name } }, { idempotencyKey }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).status).toBe(409);
    expect((await client.agent.runs.list({ name })).data).toHaveLength(1);
  });

  it('error classes from the real server: 401 AuthenticationError, 404 NotFoundError, 400 BadRequestError', { timeout: 30_000 }, async () => {
    const statuses: number[] = [];
    const countingFetch: Fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const counted = client.withOptions({ fetch: countingFetch });

    const badKey = new AgentRuns({ apiKey: `ar_live_${'x'.repeat(43)}`, baseURL: server.apiUrl, fetch: countingFetch });
    const unauthenticated = await badKey.agent.runs.list().catch((e: unknown) => e);
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);
    expect(unauthenticated).toMatchObject({ status: 401, code: 'authentication_required' });
    expect((unauthenticated as APIError).requestId).toEqual(expect.any(String));

    const missing = await counted.agent.runs.retrieve(UNKNOWN_RUN).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'resource_not_found', retryable: false });
    expect((missing as APIError).requestId).toBe((missing as APIError).headers?.get('x-request-id'));
    expect((missing as APIError).detail).toEqual(expect.any(String));
    const missingFactory = await counted.factories.retrieve('fac_doesnotexist').catch((e: unknown) => e);
    expect(missingFactory).toBeInstanceOf(NotFoundError);

    // A finished run cannot be cancelled: 400 invalid_request (as the Oz API), which the SDK does not retry.
    const done = await client.agent.runs.createAndWait({ prompt: 'finish first' }, { maxWaitMs: 20_000 });
    statuses.length = 0;
    const finished = await counted.agent.runs.cancel(done.run_id).catch((e: unknown) => e);
    expect(finished).toBeInstanceOf(BadRequestError);
    expect(finished).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(statuses).toEqual([400]);
    for (const err of [unauthenticated, missing, finished]) expect(err).toBeInstanceOf(APIError);
  });

  it('transcript() follows the 302 to the signed download URL; models, agents and environments answer Oz shapes', { timeout: 30_000 }, async () => {
    const run = await client.agent.runs.createAndWait({ prompt: 'transcribe me' }, { maxWaitMs: 20_000 });
    const response = await client.agent.runs.transcript(run.run_id);
    expect(response.redirected).toBe(true);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TranscriptLine);
    expect(lines[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'transcribe me' }] });
    expect(lines.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'transcribe me' }] });
    const token = new URL(response.url).searchParams.get('token')!;
    const keyless = new AgentRuns({ apiKey: 'ar_live_not-a-key', baseURL: server.apiUrl, maxRetries: 0 });
    expect(await (await keyless.agent.runs.downloadTranscript(run.run_id, token)).text()).toBe(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));

    const models = await client.agent.models.list();
    expect(models).toEqual({ default_model_id: 'echo', models: [expect.objectContaining({ id: 'echo', provider: 'UNKNOWN', vision_supported: false })] });
    const { agents } = await client.agent.list({ repo: 'agent-runs/bundled' });
    expect(agents.flatMap((a) => a.variants.map((v) => v.id))).toContain('agent-runs/bundled:create-skill/SKILL.md');
    const env = await client.agent.environments.create({ name: unique('sdk-env'), setup_commands: ['true'] });
    expect(env).toMatchObject({ uid: expect.stringMatching(/^env_/), config: { setup_commands: ['true'] }, setup_failed: false });
    expect((await client.agent.environments.list({ sort_by: 'name' })).data.map((e) => e.uid)).toContain(env.uid);
  });

  it('withResponse() and asResponse() expose status and the x-request-id header', { timeout: 15_000 }, async () => {
    const { run_id } = await client.agent.runs.create({ prompt: 'raw responses' });
    const { data, response, requestId } = await client.agent.runs.retrieve(run_id).withResponse();
    expect(data.run_id).toBe(run_id);
    expect(response.status).toBe(200);
    expect(requestId).toEqual(expect.any(String));
    expect(requestId).toBe(response.headers.get('x-request-id'));

    const raw = await client.agent.runs.list({ limit: 1 }).asResponse();
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    expect(raw.bodyUsed).toBe(false);
    expect(((await raw.json()) as { runs: unknown[] }).runs).toHaveLength(1);

    // Two requests, two ids.
    const other = await client.agent.runs.retrieve(run_id).withResponse();
    expect(other.requestId).not.toBe(requestId);
  });

  it('webhooks: token and standard-webhooks (signWebhook) deliveries to the real ingress → 202 → WEBHOOK runs', { timeout: 45_000 }, async () => {
    const factory = await client.factories.create({ name: unique('sdk-factory') });
    const tokenHook: WebhookWithSecret = await client.factories.webhooks.create(factory.uid, { name: unique('token hook'), auth_mode: 'token' });
    const signedHook: WebhookWithSecret = await client.factories.webhooks.create(factory.uid, {
      name: unique('signed hook'),
      auth_mode: 'signature',
      signature_scheme: 'standard-webhooks',
    });
    expect(tokenHook.secret).toEqual(expect.any(String));
    expect(signedHook.secret).toMatch(/^whsec_/);
    for (const hook of [tokenHook, signedHook]) {
      expect(hook.ingress_url).toBe(`${server.ingressUrl}/webhooks/w/${hook.uid}`);
      expect(hook.enabled).toBe(true);
    }
    const automation = await client.factories.automations.create(factory.uid, {
      name: unique('on delivery'),
      prompt: 'Handle the delivery.',
      enabled: true,
      triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [tokenHook.uid, signedHook.uid], payload: { type: 'order.created' } } }],
    });
    expect(automation.selected_webhooks.map((w) => w.uid).sort()).toEqual([tokenHook.uid, signedHook.uid].sort());

    // Standard Webhooks: headers from the SDK's signer over the exact bytes posted.
    const signedBody = JSON.stringify({ type: 'order.created', id: unique('ord') });
    const signature = await signWebhook({ secret: signedHook.secret!, payload: signedBody });
    const signedRes = await fetch(signedHook.ingress_url, {
      method: 'POST',
      headers: { ...signature, 'content-type': 'application/json' },
      body: signedBody,
    });
    expect(signedRes.status, await signedRes.clone().text()).toBe(202);
    const { delivery_id: signedDelivery } = (await signedRes.json()) as { delivery_id: string };

    // A bad signature is refused (and starts nothing).
    const forged = await fetch(signedHook.ingress_url, {
      method: 'POST',
      headers: {
        ...(await signWebhook({ secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64'), payload: signedBody })),
        'content-type': 'application/json',
      },
      body: signedBody,
    });
    expect(forged.status).toBe(401);

    // Token mode: the secret as a bearer token.
    const tokenBody = JSON.stringify({ type: 'order.created', id: unique('ord') });
    const tokenRes = await fetch(tokenHook.ingress_url, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenHook.secret!}`, 'content-type': 'application/json' },
      body: tokenBody,
    });
    expect(tokenRes.status, await tokenRes.clone().text()).toBe(202);
    const { delivery_id: tokenDelivery } = (await tokenRes.json()) as { delivery_id: string };

    // A delivery the filter does not select: accepted, no run.
    const ignored = await fetch(tokenHook.ingress_url, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenHook.secret!}` },
      body: JSON.stringify({ type: 'order.deleted' }),
    });
    expect(ignored.status).toBe(202);

    const runs = await eventually(
      async () => {
        const page = await client.agent.runs.list({ factory_uid: factory.uid, limit: 50 });
        return page.data.length >= 2 ? page.data : undefined;
      },
      15_000,
      'two WEBHOOK runs of the factory',
    );
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run).toMatchObject({ source: 'WEBHOOK', factory_uid: factory.uid, automation_id: automation.uid });
    expect(runs.map((r) => r.delivery_id).sort()).toEqual([signedDelivery, tokenDelivery].sort());
    // Each delivery's runs, by its delivery_id; an unknown one matches nothing.
    const bySigned = await client.agent.runs.list({ delivery_id: signedDelivery });
    expect(bySigned.data.map((r) => r.delivery_id)).toEqual([signedDelivery]);
    expect((await client.agent.runs.list({ delivery_id: 'dlv_unknown' })).data).toEqual([]);

    // The run carries the exact body as event-payload.json, and finishes on the echo runner.
    const signedRun = runs.find((r) => r.delivery_id === signedDelivery)!;
    const attachment = await client.agent.runs.attachment(signedRun.run_id, 'event-payload.json');
    expect(await attachment.text()).toBe(signedBody);
    expect((await client.agent.runs.wait(signedRun.run_id, { maxWaitMs: 20_000 })).state).toBe('SUCCEEDED');

    // The delivery log, through the SDK.
    const logged = [];
    for await (const d of client.factories.webhooks.deliveries.list(factory.uid, signedHook.uid)) logged.push(d);
    expect(logged.find((d) => d.delivery_id === signedDelivery)?.label).toBe('Accepted');
    const verdict = await client.factories.automations.testFilter(factory.uid, automation.uid, { delivery_id: signedDelivery });
    expect(verdict.result).toBe('Would trigger');
  });
});

describe('SDK cancel against the real server (slow echo runner)', () => {
  let server: TestServer;
  let client: AgentRuns;

  beforeAll(async () => {
    // The echo runner stays INPROGRESS for a minute unless cancelled.
    server = await startTestServer({ env: { ECHO_DELAY_MS: '60000' } });
    client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, timeout: 10_000 });
  });
  afterAll(() => server?.close());

  it('cancels a running run: answers its id, the stream ends with CANCELLED', { timeout: 30_000 }, async () => {
    const { run_id } = await client.agent.runs.create({ prompt: 'long work' });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15_000);
    try {
      for await (const event of client.agent.runs.events(run_id, {}, { signal: controller.signal })) {
        if (event.event === 'state' && event.data.state === 'INPROGRESS') break;
      }
    } finally {
      clearTimeout(timer);
    }
    expect((await client.agent.runs.retrieve(run_id)).state).toBe('INPROGRESS');

    const started = Date.now();
    const cancelled: string = await client.agent.runs.cancel(run_id);
    expect(cancelled).toBe(run_id);
    const final = await client.agent.runs.wait(run_id, { maxWaitMs: 10_000, pollIntervalMs: 100 });
    expect(final.state).toBe('CANCELLED');
    expect(Date.now() - started).toBeLessThan(10_000);

    // Cancelling again answers 400 (CANCELLED is terminal); the stream of a cancelled run reports CANCELLED and ends.
    await expect(client.agent.runs.cancel(run_id)).rejects.toBeInstanceOf(BadRequestError);
    const events = await collect(client.agent.runs.events(run_id), 10_000);
    expect(states(events).at(-1)).toBe('CANCELLED');
  });
});

describe('SDK schedules against the real server (a clock the test moves)', () => {
  let server: TestServer;
  let client: AgentRuns;
  let now = Date.parse('2026-11-27T08:00:00Z');

  beforeAll(async () => {
    // The firing loop is off: the test moves the server's clock and fires the due slots itself.
    server = await startTestServer({ clock: { now: () => new Date(now) }, engine: { scheduler: false } });
    client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, timeout: 10_000, maxRetries: 0 });
  });
  afterAll(() => server?.close());

  it(
    'create, list, retrieve, update, pause, resume, delete; a firing starts a run that lists by schedule_id and names its schedule',
    { timeout: 30_000 },
    async () => {
      const created = await client.agent.schedules.create({
        name: unique('Morning'),
        cron_schedule: '0 9 * * *',
        time_zone: 'Europe/Paris',
        prompt: 'Good morning',
        metadata: { kind: 'greeting' },
      });
      expect(created).toMatchObject({ time_zone: 'Europe/Paris', enabled: true, history: { next_run: '2026-11-28T08:00:00.000Z' } });
      const listed: ScheduledAgentItem[] = [];
      for await (const schedule of client.agent.schedules.list()) listed.push(schedule);
      expect(listed.map((s) => s.id)).toContain(created.id);
      expect((await client.agent.schedules.retrieve(created.id)).name).toBe(created.name);

      const updated = await client.agent.schedules.update(created.id, {
        name: created.name,
        cron_schedule: '30 9 * * *',
        enabled: true,
        prompt: 'Good morning again',
      });
      expect(updated).toMatchObject({ time_zone: 'Europe/Paris', prompt: 'Good morning again', history: { next_run: '2026-11-27T08:30:00.000Z' } });
      expect(updated.metadata).toBeUndefined();
      expect((await client.agent.schedules.pause(created.id)).enabled).toBe(false);
      expect((await client.agent.schedules.resume(created.id)).history.next_run).toBe('2026-11-27T08:30:00.000Z');

      now = Date.parse('2026-11-27T08:30:00Z');
      const { runs } = await server.fireDueSchedules();
      expect(runs).toHaveLength(1);
      const page = await client.agent.runs.list({ schedule_id: created.id });
      expect(page.data.map((r) => r.run_id)).toEqual(runs);
      const run = await client.agent.runs.retrieve(runs[0]!);
      expect(run).toMatchObject({
        source: 'SCHEDULED_AGENT',
        prompt: 'Good morning again',
        schedule: { schedule_id: created.id, cron_schedule: '30 9 * * *', scheduled_for: '2026-11-27T08:30:00.000Z' },
      });
      expect((await client.agent.schedules.retrieve(created.id)).history).toMatchObject({ last_run_id: runs[0], last_outcome: 'run_created' });

      expect(await client.agent.schedules.delete(created.id)).toEqual({ success: true });
      await expect(client.agent.schedules.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
      expect((await client.agent.runs.retrieve(runs[0]!)).schedule?.schedule_id).toBe(created.id);
    },
  );

  it('a schedule the server refuses is a BadRequestError naming the field', { timeout: 15_000 }, async () => {
    const err = await client.agent.schedules
      .create({ name: 'bad', cron_schedule: '0 9 * * *', time_zone: 'Mars/Olympus_Mons', prompt: 'x' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).errors).toMatchObject([{ path: '$.time_zone' }]);
  });
});

describe('SDK audit events against the real server', () => {
  let server: TestServer;
  let client: AgentRuns;

  beforeAll(async () => {
    server = await startTestServer({ engine: false });
    client = new AgentRuns({ apiKey: server.adminKey, baseURL: server.apiUrl, timeout: 10_000, maxRetries: 0 });
  });
  afterAll(() => server?.close());

  it('auditEvents.list walks every page of the filtered log, newest first; a member key is refused', { timeout: 30_000 }, async () => {
    for (let i = 0; i < 5; i++) await client.secrets.put(`SDK_AUDIT_${i}`, { value: `sdk-audit-value-${i}-0123456789` });
    await client.secrets.delete('SDK_AUDIT_0');
    const seen: string[] = [];
    for await (const event of client.auditEvents.list({ resource_type: 'secret', limit: 2 })) seen.push(`${event.action} ${event.resource.id}`);
    expect(seen).toEqual(['deleted SDK_AUDIT_0', ...[4, 3, 2, 1, 0].map((i) => `created SDK_AUDIT_${i}`)]);
    const first = await client.auditEvents.list({ resource_type: 'secret', resource_id: 'SDK_AUDIT_0' });
    expect(first.data.map((e) => e.operation_id)).toEqual(['deleteSecret', 'putSecret']);
    expect(first.hasNextPage()).toBe(false);

    const { api_key: memberKey } = await client.apiKeys.create({ name: 'sdk-member', role: 'member' });
    const member = new AgentRuns({ apiKey: memberKey, baseURL: server.apiUrl, maxRetries: 0 });
    const err = await member.auditEvents.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(403);
  });
});
