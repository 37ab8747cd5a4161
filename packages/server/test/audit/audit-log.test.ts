/**
 * The audit log through the public API on every test database (docs/decisions.md §The audit log): each
 * family of admin changes leaves one event naming the key, the operation, the resource and the address,
 * and never a value; nothing is recorded for what did not happen and nothing happens unrecorded (the
 * event shares the change's transaction); members get 403; filters, pages, another team's events, the
 * retention sweep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneAuditEvents } from '../../src/audit/retention';
import type { AuditTrail } from '../../src/audit/trail';
import { ManualClock } from '../../src/clock';
import { putSecret } from '../../src/secrets/service';
import { updateTeamBudget } from '../../src/budgets/service';
import { testDatabases } from '../support/databases';
import { apiClient, expectProblem, type ApiClient, type HttpResponse } from '../support/http';
import { startTestServer, type TeamWithKey, type TestServer } from '../support/server';

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/;

describe.each(testDatabases())('audit log (%s)', (kind) => {
  const clock = new ManualClock(Date.parse('2026-11-01T08:00:00Z'));
  let server: TestServer;
  let team: TeamWithKey;
  let admin: ApiClient;
  let member: ApiClient;
  let other: ApiClient;

  beforeAll(async () => {
    server = await startTestServer({
      database: kind,
      clock,
      engine: false,
      notificationDelivery: false,
      env: { NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1' },
    });
    team = await server.createTeamWithKey('audit-a', 'admin');
    admin = apiClient(server.apiUrl, team.apiKey);
    const memberKey = await admin.post('/api-keys', { name: 'reader', role: 'member' });
    member = apiClient(server.apiUrl, memberKey.body.api_key);
    other = apiClient(server.apiUrl, (await server.createTeamWithKey('audit-b', 'admin')).apiKey);
  });
  afterAll(() => server?.close());

  const patch = (client: ApiClient, path: string, body: unknown) => client.request('PATCH', path, { body });
  const put = (client: ApiClient, path: string, body: unknown) => client.request('PUT', path, { body });
  /** Each change at its own instant, so the log's order is the order of the calls. */
  async function change<T = any>(call: Promise<HttpResponse<T>>, status: number): Promise<HttpResponse<T>> {
    const res = await call;
    expect(res.status, res.text).toBe(status);
    clock.advance(1000);
    return res;
  }
  async function allEvents(client: ApiClient, query = ''): Promise<any[]> {
    const res = await client.get(`/audit-events?limit=500${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.audit_events;
  }
  const storedRows = () => server.ctx.db.selectFrom('audit_events').selectAll().where('team_id', '=', team.teamId).execute();

  // About thirty admin requests, each its operation's first (its validator compiles): slow on a loaded machine.
  it('records every family of admin changes with who, what, when and where, and never a value', { timeout: 120_000 }, async () => {
    const secretValue = 'audit-secret-value-7c1d0f2a9e';
    const envValue = 'audit-env-value-55aa21';
    const before = (await allEvents(admin)).length;
    const expected: Array<[string, string, string, string]> = [];
    const expect1 = (operation: string, type: string, action: string, id: string) => expected.push([operation, type, action, id]);

    const key = (await change(admin.post('/api-keys', { name: 'ci', role: 'member' }), 201)).body;
    expect1('createApiKey', 'api_key', 'created', key.key_id);
    await change(admin.delete(`/api-keys/${key.key_id}`), 204);
    expect1('deleteApiKey', 'api_key', 'revoked', key.key_id);

    await change(put(admin, '/secrets/AUDIT_TOKEN', { value: secretValue }), 200);
    expect1('putSecret', 'secret', 'created', 'AUDIT_TOKEN');
    await change(put(admin, '/secrets/AUDIT_TOKEN', { value: `${secretValue}-2` }), 200);
    expect1('putSecret', 'secret', 'updated', 'AUDIT_TOKEN');
    await change(admin.delete('/secrets/AUDIT_TOKEN'), 204);
    expect1('deleteSecret', 'secret', 'deleted', 'AUDIT_TOKEN');

    const factory = (await change(admin.post('/factories', { name: 'audited' }), 201)).body.uid;
    expect1('createFactory', 'factory', 'created', factory);
    const webhook = (await change(admin.post(`/factories/${factory}/webhooks`, { name: 'inbound' }), 201)).body;
    expect1('createWebhook', 'webhook', 'created', webhook.uid);
    const delivery = await fetch(`${server.ingressUrl}/webhooks/w/${webhook.uid}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${webhook.secret}`, 'content-type': 'application/json' },
      body: '{"event":"audited"}',
    });
    expect(delivery.status).toBe(202);
    const { delivery_id: deliveryId } = (await delivery.json()) as { delivery_id: string };
    await change(admin.post(`/factories/${factory}/webhooks/${webhook.uid}/deliveries/${deliveryId}/replay`), 200);
    expect1('replayWebhookDelivery', 'webhook_delivery', 'replayed', deliveryId);
    await change(patch(admin, `/factories/${factory}/webhooks/${webhook.uid}`, { enabled: false }), 200);
    expect1('updateWebhook', 'webhook', 'disabled', webhook.uid);
    await change(patch(admin, `/factories/${factory}/webhooks/${webhook.uid}`, { name: 'renamed', enabled: true }), 200);
    expect1('updateWebhook', 'webhook', 'updated', webhook.uid);
    const rotated = (await change(admin.post(`/factories/${factory}/webhooks/${webhook.uid}/rotate-secret`), 200)).body;
    expect1('rotateWebhookSecret', 'webhook', 'secret_rotated', webhook.uid);

    const automation = (await change(admin.post(`/factories/${factory}/automations`, { name: 'triage', prompt: 'Triage it.', triggers: [] }), 201)).body.uid;
    expect1('createAutomation', 'automation', 'created', automation);
    await change(patch(admin, `/factories/${factory}/automations/${automation}`, { prompt: 'Triage it well.' }), 200);
    expect1('updateAutomation', 'automation', 'updated', automation);
    await change(admin.delete(`/factories/${factory}/automations/${automation}`), 204);
    expect1('deleteAutomation', 'automation', 'deleted', automation);
    await change(admin.delete(`/factories/${factory}/webhooks/${webhook.uid}`), 204);
    expect1('deleteWebhook', 'webhook', 'deleted', webhook.uid);

    const filesFactory = (await change(admin.post('/factories', { name: 'from-files', definition_source: 'files' }), 201)).body.uid;
    expect1('createFactory', 'factory', 'created', filesFactory);
    await change(admin.post(`/factories/${filesFactory}/definitions/apply`, { files: [] }), 200);
    expect1('applyFactoryDefinitions', 'factory', 'definitions_applied', filesFactory);

    const environment = (await change(admin.post('/agent/environments', { name: 'audited', env_vars: { TOKEN: envValue } }), 201)).body.uid;
    expect1('createEnvironment', 'environment', 'created', environment);
    await change(patch(admin, `/agent/environments/${environment}`, { description: 'changed' }), 200);
    expect1('updateEnvironment', 'environment', 'updated', environment);
    await change(admin.delete(`/agent/environments/${environment}`), 204);
    expect1('deleteEnvironment', 'environment', 'deleted', environment);

    const schedule = (await change(admin.post('/agent/schedules', { name: 'nightly', cron_schedule: '0 3 * * *', prompt: 'tidy up' }), 201)).body.id;
    expect1('createScheduledAgent', 'schedule', 'created', schedule);
    await change(admin.post(`/agent/schedules/${schedule}/pause`), 200);
    expect1('pauseScheduledAgent', 'schedule', 'paused', schedule);
    await change(admin.post(`/agent/schedules/${schedule}/resume`), 200);
    expect1('resumeScheduledAgent', 'schedule', 'resumed', schedule);
    await change(put(admin, `/agent/schedules/${schedule}`, { name: 'nightly', cron_schedule: '0 4 * * *', prompt: 'tidy up', enabled: true }), 200);
    expect1('updateScheduledAgent', 'schedule', 'updated', schedule);
    await change(admin.delete(`/agent/schedules/${schedule}`), 200);
    expect1('deleteScheduledAgent', 'schedule', 'deleted', schedule);

    const subscription = (await change(admin.post('/notifications/subscriptions', { url: 'http://127.0.0.1:9/hook', event_types: ['run.state_changed'] }), 201))
      .body;
    expect1('createNotificationSubscription', 'notification_subscription', 'created', subscription.uid);
    const resigned = (await change(admin.post(`/notifications/subscriptions/${subscription.uid}/rotate-secret`), 200)).body;
    expect1('rotateNotificationSubscriptionSecret', 'notification_subscription', 'secret_rotated', subscription.uid);
    await change(patch(admin, `/notifications/subscriptions/${subscription.uid}`, { enabled: false }), 200);
    expect1('updateNotificationSubscription', 'notification_subscription', 'disabled', subscription.uid);
    await change(admin.delete(`/notifications/subscriptions/${subscription.uid}`), 204);
    expect1('deleteNotificationSubscription', 'notification_subscription', 'deleted', subscription.uid);

    await change(put(admin, '/team/budget', { max_tokens_per_month: 1_000_000 }), 200);
    expect1('updateTeamBudget', 'team_budget', 'updated', team.teamId);

    const events = (await allEvents(admin)).slice(0, -before || undefined);
    expect(events.map((e) => [e.operation_id, e.resource.type, e.action, e.resource.id])).toEqual(expected.reverse());
    for (const event of events) {
      expect(event.actor).toEqual({ key_id: team.keyId, name: 'audit-a-admin' });
      expect(event.address).toMatch(LOOPBACK);
      expect(event.id).toMatch(/^aud_/);
    }
    const byOperation = (id: string) => events.find((e) => e.operation_id === id);
    expect(byOperation('putSecret').changed_fields).toEqual(['value']);
    expect(byOperation('createEnvironment').changed_fields).toEqual(['env_vars', 'name']);
    expect(byOperation('deleteSecret').changed_fields).toEqual([]);
    expect(Date.parse(events.at(-1).occurred_at)).toBeLessThan(Date.parse(events[0].occurred_at));

    const stored = JSON.stringify(await storedRows());
    for (const value of [secretValue, envValue, key.api_key, webhook.secret, rotated.secret, subscription.secret, resigned.secret]) {
      expect(typeof value).toBe('string');
      expect(stored).not.toContain(value);
    }
  });

  it('records nothing for a refused change, nor for what members do', async () => {
    const before = await storedRows();
    expectProblem(await admin.delete('/secrets/NEVER_SET'), 404, 'resource_not_found');
    expectProblem(await admin.delete(`/api-keys/${team.keyId}`), 409, 'conflict');
    expect((await member.post('/agent/runs', { prompt: 'not an audit event' })).status).toBe(200);
    expect(await storedRows()).toEqual(before);
  });

  it("records the event in the change's transaction: when it cannot be recorded, the change does not happen", async () => {
    let seenInTransaction: string[] = [];
    const unrecordable: AuditTrail = {
      async record(db) {
        // The change was made in this same transaction: it is visible here, and failing takes it back.
        seenInTransaction = (await db.selectFrom('team_secrets').select('name').where('team_id', '=', team.teamId).execute()).map((r) => r.name);
        throw new Error('the audit log cannot be written');
      },
    };
    await expect(putSecret(server.ctx, team.teamId, 'NEVER_KEPT', 'never-kept-value-0123456789', unrecordable)).rejects.toThrow(/audit log/);
    expect(seenInTransaction).toContain('NEVER_KEPT');
    const secrets = await admin.get('/secrets?limit=500');
    expect(secrets.body.secrets.map((s: { name: string }) => s.name)).not.toContain('NEVER_KEPT');
    const budgetBefore = (await admin.get('/team/budget')).body;
    await expect(updateTeamBudget(server.ctx, team.teamId, { max_tokens_per_month: 42 }, unrecordable)).rejects.toThrow(/audit log/);
    expect((await admin.get('/team/budget')).body).toEqual(budgetBefore);
  });

  it('answers members 403, like every admin operation', async () => {
    expectProblem(await member.get('/audit-events'), 403, 'not_authorized');
  });

  it('filters by resource, actor and time, and pages newest first', async () => {
    const second = await admin.post('/api-keys', { name: 'second-admin', role: 'admin' });
    const secondAdmin = apiClient(server.apiUrl, second.body.api_key);
    clock.advance(1000);
    const from = clock.now().toISOString();
    await change(put(secondAdmin, '/secrets/FILTERED', { value: 'filtered-value-0123456789' }), 200);
    await change(put(secondAdmin, '/secrets/OTHER', { value: 'other-value-0123456789' }), 200);
    await change(put(secondAdmin, '/secrets/FILTERED', { value: 'filtered-value-9876543210' }), 200);
    const to = clock.now().toISOString();
    await change(admin.delete('/secrets/OTHER'), 204);

    const filtered = await allEvents(admin, '&resource_type=secret&resource_id=FILTERED');
    expect(filtered.map((e) => e.action)).toEqual(['updated', 'created']);
    const byActor = await allEvents(admin, `&actor_key_id=${second.body.key_id}`);
    expect(byActor.map((e) => [e.resource.id, e.actor.name])).toEqual([
      ['FILTERED', 'second-admin'],
      ['OTHER', 'second-admin'],
      ['FILTERED', 'second-admin'],
    ]);
    const inWindow = await allEvents(admin, `&since=${from}&until=${to}`);
    expect(inWindow.map((e) => e.resource.id)).toEqual(['FILTERED', 'OTHER', 'FILTERED']);
    expect(await allEvents(admin, '&resource_type=webhook&resource_id=FILTERED')).toEqual([]);

    const everything = await allEvents(admin);
    const paged: any[] = [];
    let cursor: string | null = null;
    do {
      const page: HttpResponse = await admin.get(`/audit-events?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.audit_events.length).toBeLessThanOrEqual(7);
      paged.push(...page.body.audit_events);
      cursor = page.body.page_info.next_cursor;
    } while (cursor);
    expect(paged).toEqual(everything);
    expect(everything.length).toBeGreaterThan(14);

    const firstPage = await admin.get('/audit-events?limit=1');
    expectProblem(await admin.get(`/audit-events?resource_type=secret&cursor=${firstPage.body.page_info.next_cursor}`), 400, 'invalid_request');
    expectProblem(await admin.get('/audit-events?resource_type=nonsense'), 400, 'invalid_request');
    expectProblem(await admin.get('/audit-events?since=yesterday'), 400, 'invalid_request');
  });

  it('shows a team only its own events', async () => {
    const theirs = await allEvents(other);
    expect(theirs).toEqual([]);
    expect(await allEvents(other, `&actor_key_id=${team.keyId}`)).toEqual([]);
    expect(await allEvents(other, '&resource_type=secret&resource_id=FILTERED')).toEqual([]);
    await change(put(other, '/secrets/THEIRS', { value: 'theirs-value-0123456789' }), 200);
    expect((await allEvents(admin)).some((e) => e.resource.id === 'THEIRS')).toBe(false);
    expect((await allEvents(other)).map((e) => e.resource.id)).toEqual(['THEIRS']);
  });

  it('deletes events older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const old = await allEvents(admin);
    expect(old.length).toBeGreaterThan(0);
    clock.advance((server.ctx.settings.audit.retentionDays + 1) * 86_400_000);
    await change(put(admin, '/secrets/AFTER_A_YEAR', { value: 'after-a-year-0123456789' }), 200);
    const deleted = await pruneAuditEvents(server.ctx, { batchSize: 5 });
    expect(deleted).toBeGreaterThanOrEqual(old.length);
    expect((await allEvents(admin)).map((e) => e.resource.id)).toEqual(['AFTER_A_YEAR']);
    expect(await allEvents(other)).toEqual([]);
  });
});
