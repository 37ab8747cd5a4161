/**
 * The Automations API over real HTTP on SQLite and PostgreSQL (responses validated against the contract by
 * the test server): CRUD and roles, webhook_ids validation (UIDs, never file names), payload filter
 * validation with JSON paths, Test filter (saved and draft, both verdicts), and factory dispatch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { send, type RestClient } from '../webhooks/helpers';
import { createAutomation, deliver, factoryWithWebhook, problemCode, runsWhere, startWorld, trigger, unique, type AutomationWorld } from './helpers';

const UNKNOWN_UID = 'wh_0000000000aaaaaaaaaaaaaaaa';

describe.each(testDatabases())('automations API (%s)', (kind) => {
  let world: AutomationWorld;
  let admin: RestClient;
  let member: RestClient;
  beforeAll(async () => {
    world = await startWorld(kind);
    ({ admin, member } = world);
  });
  afterAll(() => world?.close());

  describe('CRUD', () => {
    it('create → 201 Automation with selected_webhooks; get; list newest first in pages; patch; delete → 204', async () => {
      const hook = await factoryWithWebhook(admin);
      const created = await admin.post(`/factories/${hook.factory}/automations`, {
        name: 'Triage',
        prompt: 'Triage it.',
        config: { model_id: 'echo', name: 'triage' },
        triggers: [trigger([hook.uid], { action: ['opened'] })],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toEqual({
        uid: expect.stringMatching(/^aut_[0-9a-z]{26}$/),
        factory_uid: hook.factory,
        name: 'Triage',
        prompt: 'Triage it.',
        // (the contract's defaults of the limits are filled in by request validation)
        config: expect.objectContaining({ model_id: 'echo', name: 'triage' }),
        enabled: true,
        triggers: [trigger([hook.uid], { action: ['opened'] })],
        selected_webhooks: [{ uid: hook.uid, name: hook.name, state: 'enabled' }],
        created_at: '2026-06-01T12:00:00.000Z',
        updated_at: '2026-06-01T12:00:00.000Z',
      });
      const uid = created.body.uid;
      expect((await admin.get(`/factories/${hook.factory}/automations/${uid}`)).body).toEqual(created.body);

      world.clock.advance(1000);
      const second = await createAutomation(admin, hook.factory, { triggers: [] });
      world.clock.advance(1000);
      const third = await createAutomation(admin, hook.factory, { triggers: [] });
      const page1 = await admin.get(`/factories/${hook.factory}/automations?limit=2`);
      expect(page1.body.automations.map((a: any) => a.uid)).toEqual([third.uid, second.uid]);
      expect(page1.body.page_info.has_next_page).toBe(true);
      const page2 = await admin.get(`/factories/${hook.factory}/automations?limit=2&cursor=${page1.body.page_info.next_cursor}`);
      expect(page2.body.automations.map((a: any) => a.uid)).toEqual([uid]);
      expect(page2.body.page_info).toEqual({ has_next_page: false, next_cursor: null });

      const patched = await admin.patch(`/factories/${hook.factory}/automations/${uid}`, { name: 'Renamed', enabled: false, prompt: 'New prompt.' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ uid, name: 'Renamed', enabled: false, prompt: 'New prompt.', triggers: created.body.triggers });

      expect((await admin.delete(`/factories/${hook.factory}/automations/${uid}`)).status).toBe(204);
      const gone = await admin.get(`/factories/${hook.factory}/automations/${uid}`);
      expect(gone.status).toBe(404);
      expect(problemCode(gone.body)).toBe('resource_not_found');
    });

    it('names are unique within a factory (409)', async () => {
      const hook = await factoryWithWebhook(admin);
      await createAutomation(admin, hook.factory, { name: 'same', triggers: [] });
      const dup = await admin.post(`/factories/${hook.factory}/automations`, { name: 'same', prompt: 'p', triggers: [] });
      expect(dup.status).toBe(409);
      expect(problemCode(dup.body)).toBe('conflict');
      const other = await createAutomation(admin, hook.factory, { triggers: [] });
      const rename = await admin.patch(`/factories/${hook.factory}/automations/${other.uid}`, { name: 'same' });
      expect(rename.status).toBe(409);
    });

    it('members read and may not change (403); other teams see 404', async () => {
      const hook = await factoryWithWebhook(admin);
      const automation = await createAutomation(admin, hook.factory, { triggers: [trigger([hook.uid])] });
      const path = `/factories/${hook.factory}/automations`;
      expect((await member.get(path)).status).toBe(200);
      expect((await member.get(`${path}/${automation.uid}`)).status).toBe(200);
      for (const res of [
        await member.post(path, { name: 'x', prompt: 'p', triggers: [] }),
        await member.patch(`${path}/${automation.uid}`, { enabled: false }),
        await member.delete(`${path}/${automation.uid}`),
      ]) {
        expect(res.status).toBe(403);
        expect(problemCode(res.body)).toBe('not_authorized');
      }
      const otherTeam = await world.server.createTeamWithKey(unique('team'), 'admin');
      const { restClient } = await import('../webhooks/helpers');
      const other = restClient(world.server, otherTeam.apiKey);
      expect((await other.get(`${path}/${automation.uid}`)).status).toBe(404);
      expect((await other.patch(`${path}/${automation.uid}`, { enabled: false })).status).toBe(404);
    });

    it("selected_webhooks reports each webhook's state: enabled, disabled, unknown UID", async () => {
      const hook = await factoryWithWebhook(admin);
      const off = await admin.createWebhook(hook.factory, { name: 'off', enabled: false });
      const automation = await createAutomation(admin, hook.factory, { triggers: [trigger([hook.uid, off.uid]), trigger([UNKNOWN_UID, hook.uid])] });
      expect(automation.selected_webhooks).toEqual([
        { uid: hook.uid, name: hook.name, state: 'enabled' },
        { uid: off.uid, name: 'off', state: 'disabled' },
        { uid: UNKNOWN_UID, state: 'unknown' },
      ]);
    });

    it('an unknown environment in config → 422 at $.config.environment_id', async () => {
      const hook = await factoryWithWebhook(admin);
      const res = await admin.post(`/factories/${hook.factory}/automations`, {
        name: 'env',
        prompt: 'p',
        config: { environment_id: 'env_00000000000000000000000000' },
        triggers: [],
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ path: '$.config.environment_id', message: expect.stringContaining('unknown environment') }]);
    });
  });

  describe('webhook_ids take UIDs, never file names', () => {
    it.each([
      ['a file path', (h: { name: string }) => `webhooks/${h.name}.yaml`],
      ['a file name', (h: { name: string }) => `${h.name}.yaml`],
      ['the webhook name', (h: { name: string }) => h.name],
      ['anything that is not a UID', () => 'github'],
    ])('%s → 422 saying so, with the path of the entry', async (_label, idOf) => {
      const hook = await factoryWithWebhook(admin);
      const res = await admin.post(`/factories/${hook.factory}/automations`, {
        name: 'x',
        prompt: 'p',
        triggers: [trigger([hook.uid]), trigger([hook.uid, idOf(hook)])],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(problemCode(res.body)).toBe('validation_failed');
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(res.body.errors).toEqual([{ path: '$.triggers[1].filter.webhook_ids[1]', message: expect.stringContaining('webhook_ids take webhook UIDs') }]);
      expect(res.body.detail).toContain('not file names');
      expect((await admin.get(`/factories/${hook.factory}/automations`)).body.automations).toEqual([]);
    });

    it('the refusal names the UID to use when the name is recognisable', async () => {
      const hook = await factoryWithWebhook(admin);
      const res = await admin.post(`/factories/${hook.factory}/automations`, { name: 'x', prompt: 'p', triggers: [trigger([hook.name])] });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].message).toContain(hook.uid);
    });

    it('PATCH triggers is validated the same way and leaves the automation unchanged', async () => {
      const hook = await factoryWithWebhook(admin);
      const automation = await createAutomation(admin, hook.factory, { triggers: [trigger([hook.uid])] });
      const res = await admin.patch(`/factories/${hook.factory}/automations/${automation.uid}`, { triggers: [trigger(['webhooks/github.yaml'])] });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].path).toBe('$.triggers[0].filter.webhook_ids[0]');
      expect((await admin.get(`/factories/${hook.factory}/automations/${automation.uid}`)).body).toEqual(automation);
    });
  });

  describe('payload filters are validated when saved', () => {
    it.each([
      [{ action: { in: ['opened'], foo: 1 } }, '$.triggers[0].filter.payload.action', 'mixes operator keys'],
      [{ issue: { labels: { not_in: 'wontfix' } } }, '$.triggers[0].filter.payload.issue.labels.not_in', 'must be an array'],
      [{ assignee: { exists: 'yes' } }, '$.triggers[0].filter.payload.assignee.exists', 'true or false'],
      [{ a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } }, '$.triggers[0].filter.payload.a.b.c.d.e.f.g.h.i', 'deeper than 8'],
      [{ action: [{ nested: true }] }, '$.triggers[0].filter.payload.action[0]', 'JSON scalars'],
    ])('%j → 422 validation_failed at %s', async (payload, path, message) => {
      const hook = await factoryWithWebhook(admin);
      const res = await admin.post(`/factories/${hook.factory}/automations`, { name: 'f', prompt: 'p', triggers: [trigger([hook.uid], payload)] });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(problemCode(res.body)).toBe('validation_failed');
      expect(res.body.errors).toContainEqual({ path, message: expect.stringContaining(message) });
    });

    it('too many keys and too large filters are refused at the filter root', async () => {
      const hook = await factoryWithWebhook(admin);
      const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
      const res = await admin.post(`/factories/${hook.factory}/automations`, { name: 'f', prompt: 'p', triggers: [trigger([hook.uid], many)] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toContainEqual({ path: '$.triggers[0].filter.payload', message: expect.stringContaining('at most 100') });
      const big = { text: { in: Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(1000, 'x')) } };
      const large = await admin.post(`/factories/${hook.factory}/automations`, { name: 'g', prompt: 'p', triggers: [trigger([hook.uid], big)] });
      expect(large.status).toBe(422);
      expect(large.body.errors).toContainEqual({ path: '$.triggers[0].filter.payload', message: expect.stringContaining('bytes') });
    });
  });

  describe('Test filter', () => {
    async function scenario() {
      const hook = await factoryWithWebhook(admin);
      const second = await admin.createWebhook(hook.factory, { name: unique('second') });
      const automation = await createAutomation(admin, hook.factory, {
        enabled: false, // tested as if enabled
        triggers: [trigger([hook.uid], { action: ['opened', 'reopened'], issue: { labels: { not_in: ['wontfix'] } } })],
      });
      const opened = await deliver(hook, '{"action":"opened","issue":{"labels":["bug"]}}');
      const closed = await deliver(hook, '{"action":"closed","issue":{"labels":["bug"]}}');
      const wontfix = await deliver(hook, '{"action":"opened","issue":{"labels":["bug","wontfix"]}}');
      const fromSecond = await send(second.ingress_url, '{"action":"opened"}', { headers: { authorization: `Bearer ${second.secret}` } });
      expect(fromSecond.status).toBe(202);
      return { hook, second, automation, opened, closed, wontfix, fromSecondId: fromSecond.body.delivery_id as string };
    }

    it('saved automation: Would trigger, with both checks passed', async () => {
      const s = await scenario();
      const res = await member.post(`/factories/${s.hook.factory}/automations/${s.automation.uid}/test-filter`, { delivery_id: s.opened });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        result: 'Would trigger',
        webhook_check: { passed: true, reason: `Delivery came from selected webhook ${s.hook.uid}.` },
        payload_check: { passed: true, reason: 'Every filter key matched.', path: null },
      });
      expect(await runsWhere(admin, `factory_uid=${s.hook.factory}`)).toEqual([]); // nothing started
    });

    it('saved automation: Would not trigger, with the first failing path and why', async () => {
      const s = await scenario();
      const base = `/factories/${s.hook.factory}/automations/${s.automation.uid}/test-filter`;
      const closed = await admin.post(base, { delivery_id: s.closed });
      expect(closed.body).toEqual({
        result: 'Would not trigger',
        webhook_check: { passed: true, reason: `Delivery came from selected webhook ${s.hook.uid}.` },
        payload_check: { passed: false, reason: expect.stringContaining('"closed"'), path: '$.action' },
      });
      const wontfix = await admin.post(base, { delivery_id: s.wontfix });
      expect(wontfix.body.payload_check).toEqual({ passed: false, reason: expect.stringContaining('wontfix'), path: '$.issue.labels[1]' });

      const otherWebhook = await admin.post(base, { delivery_id: s.fromSecondId });
      expect(otherWebhook.body.result).toBe('Would not trigger');
      expect(otherWebhook.body.webhook_check).toEqual({
        passed: false,
        reason: expect.stringContaining(`webhook ${s.second.uid}, which the trigger does not select`),
      });
    });

    it('draft trigger: both verdicts, and an invalid draft filter → 422 with its path', async () => {
      const s = await scenario();
      const path = `/factories/${s.hook.factory}/test-filter`;
      const yes = await member.post(path, { delivery_id: s.closed, trigger: trigger([s.hook.uid], { action: 'closed' }) });
      expect(yes.status, JSON.stringify(yes.body)).toBe(200);
      expect(yes.body).toMatchObject({ result: 'Would trigger', payload_check: { passed: true, path: null } });
      const noFilter = await member.post(path, { delivery_id: s.closed, trigger: trigger([s.hook.uid]) });
      expect(noFilter.body).toMatchObject({ result: 'Would trigger', payload_check: { passed: true, reason: expect.stringContaining('No payload filter') } });
      const no = await member.post(path, { delivery_id: s.opened, trigger: trigger([s.hook.uid], { issue: { assignee: { exists: true } } }) });
      expect(no.body).toEqual({
        result: 'Would not trigger',
        webhook_check: { passed: true, reason: expect.any(String) },
        payload_check: { passed: false, reason: expect.stringContaining('missing'), path: '$.issue.assignee' },
      });
      const wrongHook = await member.post(path, { delivery_id: s.opened, trigger: trigger([s.second.uid]) });
      expect(wrongHook.body).toMatchObject({ result: 'Would not trigger', webhook_check: { passed: false } });

      const invalid = await member.post(path, { delivery_id: s.opened, trigger: trigger([s.hook.uid], { action: { in: 'opened' } }) });
      expect(invalid.status).toBe(422);
      expect(invalid.body.errors).toEqual([{ path: '$.trigger.filter.payload.action.in', message: expect.any(String) }]);
      const fileName = await member.post(path, { delivery_id: s.opened, trigger: trigger([`${s.hook.name}.yaml`]) });
      expect(fileName.status).toBe(422);
      expect(fileName.body.errors[0].path).toBe('$.trigger.filter.webhook_ids[0]');
    });

    it('unknown delivery → 404; a delivery that is not Accepted → 409', async () => {
      const s = await scenario();
      const base = `/factories/${s.hook.factory}/automations/${s.automation.uid}/test-filter`;
      const unknown = await admin.post(base, { delivery_id: 'dlv_00000000000000000000000000' });
      expect(unknown.status).toBe(404);
      const rejected = await send(s.hook.url, '{"a":1}', { headers: { authorization: 'Bearer nope' } });
      expect(rejected.status).toBe(401);
      const [entry] = await admin.deliveries(s.hook.factory, s.hook.uid);
      expect(entry.label).toBe('Rejected (auth)');
      const conflict = await admin.post(base, { delivery_id: entry.delivery_id });
      expect(conflict.status).toBe(409);
      expect(problemCode(conflict.body)).toBe('conflict');
      const draft = await admin.post(`/factories/${s.hook.factory}/test-filter`, { delivery_id: entry.delivery_id, trigger: trigger([s.hook.uid]) });
      expect(draft.status).toBe(409);
      // A delivery of another factory is not this factory's.
      const elsewhere = await factoryWithWebhook(admin);
      const foreign = await deliver(elsewhere, '{"a":1}');
      expect((await admin.post(base, { delivery_id: foreign })).status).toBe(404);
    });
  });

  describe('factory dispatch', () => {
    it('POST /factories/{uid}/runs → 200 RunAgentResponse; the run records the factory, source API and the caller; follow-up and cancel work', async () => {
      const { factory } = await factoryWithWebhook(admin);
      const res = await member.post(`/factories/${factory}/runs`, { prompt: 'Reply to the customer.', title: 'Customer reply', config: { name: 'support' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ run_id: expect.any(String), task_id: res.body.run_id, state: 'QUEUED' });
      const run = (await member.get(`/agent/runs/${res.body.run_id}`)).body;
      expect(run).toMatchObject({
        title: 'Customer reply',
        prompt: 'Reply to the customer.',
        source: 'API',
        factory_uid: factory,
        creator: { type: 'service_account', display_name: 'member' },
        agent_config: { name: 'support' },
      });
      expect(run.automation_id).toBeUndefined();
      expect((await runsWhere(admin, `factory_uid=${factory}`)).map((r) => r.run_id)).toEqual([res.body.run_id]);

      const followup = await member.post(`/agent/runs/${res.body.run_id}/followups`, { message: 'Also CC the manager.' });
      expect(followup.status).toBe(200);
      expect(followup.body).toMatchObject({ run_id: res.body.run_id, state: 'QUEUED' });
      const cancel = await member.post(`/agent/runs/${res.body.run_id}/cancel`);
      expect(cancel.status).toBe(200);
      expect(cancel.body).toBe(res.body.run_id);
      expect((await member.get(`/agent/runs/${res.body.run_id}`)).body.state).toBe('CANCELLED');
    });

    it('unknown or foreign factory → 404; agent_identity_uid is not a dispatch field (400)', async () => {
      expect((await admin.post('/factories/fac_00000000000000000000000000/runs', { prompt: 'x' })).status).toBe(404);
      const otherTeam = await world.server.createTeamWithKey(unique('team'), 'admin');
      const { restClient } = await import('../webhooks/helpers');
      const { factory } = await factoryWithWebhook(admin);
      expect((await restClient(world.server, otherTeam.apiKey).post(`/factories/${factory}/runs`, { prompt: 'x' })).status).toBe(404);
      const bad = await admin.post(`/factories/${factory}/runs`, { prompt: 'x', agent_identity_uid: 'u' });
      expect(bad.status).toBe(400);
    });
  });
});
