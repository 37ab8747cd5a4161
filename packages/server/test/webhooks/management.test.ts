/**
 * Factories, team secrets, webhooks and the delivery log through the REST API (responses validated against
 * openapi/v1.yaml by the test server), on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, toTimestamp } from '../../src/clock';
import { insertWebhook } from '../../src/webhooks/repository';
import { testDatabases } from '../support/databases';
import { startTestServer, type TeamWithKey, type TestServer } from '../support/server';
import { restClient, send, type RestClient } from './helpers';

const problemCode = (body: any) =>
  String(body?.type ?? '')
    .split('/')
    .pop();

describe.each(testDatabases())('webhook management (%s)', (kind) => {
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  let otherTeam: TeamWithKey;
  let other: RestClient;
  const clock = new ManualClock(new Date('2026-06-01T12:00:00.000Z'));
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ database: kind, clock, engine: false });
    admin = restClient(server, server.adminKey);
    const defaultTeam = await server.ctx.db.selectFrom('teams').select('id').where('name', '=', 'default').executeTakeFirstOrThrow();
    const { createApiKey } = await import('../../src/api-keys/service');
    const memberKey = await createApiKey(server.ctx.db, clock, { teamId: defaultTeam.id, name: 'member', role: 'member', createdBy: 'operator' });
    member = restClient(server, memberKey.api_key);
    otherTeam = await server.createTeamWithKey('other-team', 'admin');
    other = restClient(server, otherTeam.apiKey);
  });
  afterAll(() => server?.close());

  const newFactory = () => admin.createFactory(`factory-${++n}`);

  describe('factories', () => {
    it('create → 201 Factory; names are unique per team; list newest first with cursor pages; get', async () => {
      const created = await admin.post('/factories', { name: 'support' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        uid: expect.stringMatching(/^fac_[0-9a-z]{26}$/),
        name: 'support',
        definition_source: 'api',
        created_at: expect.any(String),
      });
      const dup = await admin.post('/factories', { name: 'support' });
      expect(dup.status).toBe(409);
      expect(problemCode(dup.body)).toBe('conflict');
      // Another team may use the same name.
      expect((await other.post('/factories', { name: 'support' })).status).toBe(201);

      const names: string[] = [];
      for (let i = 0; i < 3; i++) {
        clock.advance(1000);
        names.push((await admin.post('/factories', { name: `paged-${i}` })).body.name);
      }
      const page1 = await admin.get('/factories?limit=2');
      expect(page1.body.factories.map((f: any) => f.name)).toEqual(['paged-2', 'paged-1']);
      expect(page1.body.page_info.has_next_page).toBe(true);
      const page2 = await admin.get(`/factories?limit=2&cursor=${page1.body.page_info.next_cursor}`);
      expect(page2.body.factories[0].name).toBe('paged-0');
      expect((await admin.get(`/factories/${created.body.uid}`)).body).toEqual(created.body);
    });

    it('members read factories but cannot create them (403)', async () => {
      const uid = await newFactory();
      expect((await member.get(`/factories/${uid}`)).status).toBe(200);
      expect((await member.get('/factories')).status).toBe(200);
      const denied = await member.post('/factories', { name: 'nope' });
      expect(denied.status).toBe(403);
      expect(problemCode(denied.body)).toBe('not_authorized');
    });

    it("another team's factory is 404, exactly like a missing one", async () => {
      const uid = await newFactory();
      for (const path of [`/factories/${uid}`, `/factories/${uid}/webhooks`]) {
        const res = await other.get(path);
        expect(res.status).toBe(404);
        expect(problemCode(res.body)).toBe('resource_not_found');
      }
      expect((await other.post(`/factories/${uid}/webhooks`, { name: 'x' })).status).toBe(404);
      expect((await other.get('/factories')).body.factories.map((f: any) => f.uid)).not.toContain(uid);
    });
  });

  describe('team secrets', () => {
    it('put creates or replaces and answers name + timestamps, never the value; list is names only, sorted', async () => {
      const first = await admin.put('/secrets/B_SECRET', { value: 'first-value-123' });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ name: 'B_SECRET', created_at: expect.any(String), updated_at: first.body.created_at });
      clock.advance(5000);
      const replaced = await admin.put('/secrets/B_SECRET', { value: 'second-value-456' });
      expect(replaced.body.created_at).toBe(first.body.created_at);
      expect(replaced.body.updated_at).toBe(toTimestamp(clock.now()));
      await admin.put('/secrets/A_SECRET', { value: 'a' });
      const list = await admin.get('/secrets');
      const names = list.body.secrets.map((s: any) => s.name);
      expect(names.indexOf('A_SECRET')).toBeLessThan(names.indexOf('B_SECRET'));
      expect(JSON.stringify(list.body)).not.toMatch(/first-value|second-value/);
      for (const s of list.body.secrets) expect(Object.keys(s).sort()).toEqual(['created_at', 'name', 'updated_at']);
      // The value is encrypted at rest.
      const row = await server.ctx.db.selectFrom('team_secrets').select('value').where('name', '=', 'B_SECRET').executeTakeFirstOrThrow();
      expect(row.value).toMatch(/^v1\./);
      expect(row.value).not.toContain('second-value');
    });

    it('delete → 204, then 404; a secret a webhook names cannot be deleted (409 naming it)', async () => {
      await admin.put('/secrets/GONE', { value: 'x' });
      expect((await admin.delete('/secrets/GONE')).status).toBe(204);
      expect((await admin.delete('/secrets/GONE')).status).toBe(404);
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'uses secret', secret_name: 'IN_USE' });
      const refused = await admin.delete('/secrets/IN_USE');
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain(wh.uid);
    });

    it('secrets are admin only (members get 403 even for the list) and per team', async () => {
      await admin.put('/secrets/TEAM_ONLY', { value: 'x' });
      expect((await member.get('/secrets')).status).toBe(403);
      expect((await member.put('/secrets/M', { value: 'x' })).status).toBe(403);
      expect((await member.delete('/secrets/TEAM_ONLY')).status).toBe(403);
      expect((await other.get('/secrets')).body.secrets.map((s: any) => s.name)).not.toContain('TEAM_ONLY');
      expect((await other.delete('/secrets/TEAM_ONLY')).status).toBe(404);
    });

    it('a value used by a url_token webhook must be URL-safe (422)', async () => {
      const factory = await newFactory();
      await admin.createWebhook(factory, { name: 'form', auth_mode: 'url_token', secret_name: 'FORM_TOKEN' });
      const res = await admin.put('/secrets/FORM_TOKEN', { value: 'has spaces and / slashes' });
      expect(res.status).toBe(422);
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect((await admin.put('/secrets/FORM_TOKEN', { value: 'url-safe-value_0123456789' })).status).toBe(200);
    });
  });

  describe('creating webhooks', () => {
    it('token (default): generated secret shown once under the suggested name; reads never show it', async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'Deploy events' });
      expect(wh).toMatchObject({
        uid: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
        factory_uid: factory,
        name: 'Deploy events',
        auth_mode: 'token',
        signature_scheme: null,
        secret_name: 'WEBHOOK_DEPLOY_EVENTS_SECRET',
        secret_configured: true,
        delivery_id_header: null,
        enabled: true,
        ingress_url: `${server.ingressUrl}/webhooks/w/${wh.uid}`,
      });
      expect(wh.secret).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
      const read = await admin.get(`/factories/${factory}/webhooks/${wh.uid}`);
      expect(read.body).not.toHaveProperty('secret');
      expect(JSON.stringify(read.body)).not.toContain(wh.secret);
      const list = await admin.get(`/factories/${factory}/webhooks`);
      expect(JSON.stringify(list.body)).not.toContain(wh.secret);
      // Stored as a team secret under the suggested name, encrypted.
      expect((await admin.get('/secrets')).body.secrets.map((s: any) => s.name)).toContain('WEBHOOK_DEPLOY_EVENTS_SECRET');
      const stored = await server.ctx.db.selectFrom('webhooks').select('secret').where('id', '=', wh.uid).executeTakeFirstOrThrow();
      expect(stored.secret).not.toContain(wh.secret);
      expect(server.ctx.secrets.decrypt(stored.secret!)).toBe(wh.secret);
    });

    it('url_token: the create answer embeds the token in ingress_url; later reads render {token}', async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'Form posts', auth_mode: 'url_token' });
      expect(wh.ingress_url).toBe(`${server.ingressUrl}/webhooks/w/${wh.uid}/${wh.secret}`);
      const read = await admin.get(`/factories/${factory}/webhooks/${wh.uid}`);
      expect(read.body.ingress_url).toBe(`${server.ingressUrl}/webhooks/w/${wh.uid}/{token}`);
    });

    it('signature: generated whsec_ secret for standard-webhooks; provider secret echoed once; others may wait for it', async () => {
      const factory = await newFactory();
      const sw = await admin.createWebhook(factory, { name: 'sw', auth_mode: 'signature', signature_scheme: 'standard-webhooks' });
      expect(sw.secret).toMatch(/^whsec_/);
      const gh = await admin.createWebhook(factory, { name: 'gh', auth_mode: 'signature', signature_scheme: 'github', provider_secret: 'given-by-github' });
      expect(gh).toMatchObject({ secret: 'given-by-github', secret_configured: true, signature_scheme: 'github' });
      const slack = await admin.createWebhook(factory, { name: 'slack', auth_mode: 'signature', signature_scheme: 'slack' });
      expect(slack).toMatchObject({ secret: null, secret_configured: false });
      expect((await admin.get(`/factories/${factory}/webhooks/${slack.uid}`)).body.secret_configured).toBe(false);
      // The pending webhook's secret name holds no team secret yet.
      expect((await admin.get('/secrets?limit=500')).body.secrets.map((s: any) => s.name)).not.toContain(slack.secret_name);
    });

    it('secret_name naming an existing team secret: the webhook uses its value and the answer shows no secret', async () => {
      await admin.put('/secrets/SHARED_TOKEN', { value: 'shared-token-value-0123456789' });
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'shared', secret_name: 'SHARED_TOKEN' });
      expect(wh).toMatchObject({ secret: null, secret_name: 'SHARED_TOKEN', secret_configured: true });
      expect((await send(wh.ingress_url, '{}', { headers: { authorization: 'Bearer shared-token-value-0123456789' } })).status).toBe(202);
      // A url_token webhook cannot take a secret that is not URL-safe.
      await admin.put('/secrets/NOT_URL_SAFE', { value: 'has spaces in it' });
      const refused = await admin.post(`/factories/${factory}/webhooks`, { name: 'url', auth_mode: 'url_token', secret_name: 'NOT_URL_SAFE' });
      expect(refused.status).toBe(422);
    });

    it('the suggested secret name already taken → 409 asking for secret_name', async () => {
      await admin.put('/secrets/WEBHOOK_TAKEN_SECRET', { value: 'x' });
      const factory = await newFactory();
      const res = await admin.post(`/factories/${factory}/webhooks`, { name: 'taken' });
      expect(res.status).toBe(409);
      expect(res.body.detail).toMatch(/secret_name/);
    });

    it('invalid mode/scheme combinations: unknown scheme 400; missing or superfluous scheme / provider secret 422', async () => {
      const factory = await newFactory();
      const unknown = await admin.post(`/factories/${factory}/webhooks`, { name: 'a', auth_mode: 'signature', signature_scheme: 'paypal' });
      expect(unknown.status).toBe(400);
      const cases = [
        { name: 'b', auth_mode: 'signature' },
        { name: 'c', auth_mode: 'token', signature_scheme: 'github' },
        { name: 'd', auth_mode: 'url_token', provider_secret: 'x' },
      ];
      for (const body of cases) {
        const res = await admin.post(`/factories/${factory}/webhooks`, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(problemCode(res.body)).toBe('validation_failed');
        expect(res.body.errors[0].path).toMatch(/^\$\.(signature_scheme|provider_secret)$/);
      }
      expect((await admin.get(`/factories/${factory}/webhooks`)).body.webhooks).toEqual([]);
    });

    it("names are unique among a factory's live webhooks", async () => {
      const factory = await newFactory();
      const first = await admin.createWebhook(factory, { name: 'dup', secret_name: 'DUP_ONE' });
      const dup = await admin.post(`/factories/${factory}/webhooks`, { name: 'dup', secret_name: 'DUP_TWO' });
      expect(dup.status).toBe(409);
      await admin.delete(`/factories/${factory}/webhooks/${first.uid}`);
      expect((await admin.post(`/factories/${factory}/webhooks`, { name: 'dup', secret_name: 'DUP_THREE' })).status).toBe(201);
    });

    it('the 21st webhook of a factory → 409 limit_exceeded saying so; deleting one makes room', async () => {
      const factory = await newFactory();
      const made = [];
      for (let i = 0; i < 20; i++) made.push(await admin.createWebhook(factory, { name: `w${i}` }));
      const refused = await admin.post(`/factories/${factory}/webhooks`, { name: 'w20' });
      expect(refused.status).toBe(409);
      expect(problemCode(refused.body)).toBe('limit_exceeded');
      expect(refused.body.detail).toMatch(/at most 20 webhooks/);
      expect(refused.headers.get('x-should-retry')).toBe('false');
      await admin.delete(`/factories/${factory}/webhooks/${made[0].uid}`);
      expect((await admin.post(`/factories/${factory}/webhooks`, { name: 'w20' })).status).toBe(201);
    });

    it('the limit holds when 25 creates race', async () => {
      const factory = await newFactory();
      const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => admin.post(`/factories/${factory}/webhooks`, { name: `r${i}` })));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
      expect(answers.filter((a) => a.status === 409).every((a) => problemCode(a.body) === 'limit_exceeded')).toBe(true);
      expect((await admin.get(`/factories/${factory}/webhooks?limit=500`)).body.webhooks).toHaveLength(20);
    });

    it('members cannot create, update, rotate or delete webhooks (403) but may read them and their log', async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'guarded' });
      const base = `/factories/${factory}/webhooks`;
      for (const res of [
        await member.post(base, { name: 'mine' }),
        await member.patch(`${base}/${wh.uid}`, { enabled: false }),
        await member.post(`${base}/${wh.uid}/rotate-secret`, {}),
        await member.delete(`${base}/${wh.uid}`),
      ]) {
        expect(res.status).toBe(403);
        expect(problemCode(res.body)).toBe('not_authorized');
      }
      expect((await member.get(`${base}/${wh.uid}`)).status).toBe(200);
      expect((await member.get(base)).status).toBe(200);
      expect((await member.get(`${base}/${wh.uid}/deliveries`)).status).toBe(200);
      expect((await admin.get(`${base}/${wh.uid}`)).body.enabled).toBe(true);
    });
  });

  describe('updating, deleting and rotating', () => {
    it('rename, delivery_id_header set and clear, enable/disable', async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'before' });
      const path = `/factories/${factory}/webhooks/${wh.uid}`;
      clock.advance(1000);
      const renamed = await admin.patch(path, { name: 'after', delivery_id_header: 'X-Event-Id' });
      expect(renamed.body).toMatchObject({ name: 'after', delivery_id_header: 'X-Event-Id', enabled: true });
      expect(renamed.body.updated_at).not.toBe(wh.updated_at);
      expect((await admin.patch(path, { delivery_id_header: null })).body.delivery_id_header).toBeNull();
      expect((await admin.patch(path, { enabled: false })).body.enabled).toBe(false);
      expect((await admin.get(path)).body.enabled).toBe(false);
      expect((await admin.patch(path, { enabled: true })).body.enabled).toBe(true);
    });

    it('a delivery ID header that carries a credential is refused at create and update (422 at $.delivery_id_header)', async () => {
      const factory = await newFactory();
      for (const header of ['Authorization', 'cookie', 'Stripe-Signature', 'X-Hub-Signature-256', 'webhook-signature', 'X-Gitlab-Token']) {
        const created = await admin.post(`/factories/${factory}/webhooks`, { name: `h${header.length}`, delivery_id_header: header });
        expect(created.status).toBe(422);
        expect(problemCode(created.body)).toBe('validation_failed');
        expect(created.body.errors).toEqual([expect.objectContaining({ path: '$.delivery_id_header' })]);
      }
      const wh = await admin.createWebhook(factory, { name: 'kept' });
      const path = `/factories/${factory}/webhooks/${wh.uid}`;
      const updated = await admin.patch(path, { delivery_id_header: 'Authorization' });
      expect(updated.status).toBe(422);
      expect((await admin.get(path)).body.delivery_id_header).toBeNull();
      expect((await admin.get(`/factories/${factory}/webhooks`)).body.webhooks).toHaveLength(1);
    });

    it('re-enabling re-applies the definition: a changed team secret reaches the webhook then, not before', async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'reapply' });
      const path = `/factories/${factory}/webhooks/${wh.uid}`;
      await admin.put(`/secrets/${wh.secret_name}`, { value: 'the-new-value-0123456789' });
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      expect((await send(wh.ingress_url, '{"a":1}', { headers: bearer(wh.secret) })).status).toBe(202); // snapshot still old
      expect((await send(wh.ingress_url, '{"a":2}', { headers: bearer('the-new-value-0123456789') })).status).toBe(401);
      await admin.patch(path, { enabled: false });
      await admin.patch(path, { enabled: true });
      expect((await send(wh.ingress_url, '{"a":3}', { headers: bearer(wh.secret) })).status).toBe(401);
      expect((await send(wh.ingress_url, '{"a":4}', { headers: bearer('the-new-value-0123456789') })).status).toBe(202);
    });

    it('delete → 204; reads 404; the delivery log stays readable', async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'doomed' });
      const res = await send(wh.ingress_url, '{"keep":"me"}', { headers: { authorization: `Bearer ${wh.secret}` } });
      const path = `/factories/${factory}/webhooks/${wh.uid}`;
      expect((await admin.delete(path)).status).toBe(204);
      expect((await admin.get(path)).status).toBe(404);
      expect((await admin.delete(path)).status).toBe(404);
      expect((await admin.patch(path, { enabled: true })).status).toBe(404);
      expect((await admin.get(`/factories/${factory}/webhooks`)).body.webhooks).toEqual([]);
      expect((await admin.deliveries(factory, wh.uid)).map((d) => d.label)).toEqual(['Accepted']);
      expect((await admin.delivery(factory, wh.uid, res.body.delivery_id)).payload).toEqual({ keep: 'me' });
    });

    it('rotate: empty body generates; provider_secret only for signature; other schemes need it (422)', async () => {
      const factory = await newFactory();
      const token = await admin.createWebhook(factory, { name: 't' });
      const rotated = await admin.post(`/factories/${factory}/webhooks/${token.uid}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(rotated.body.secret).not.toBe(token.secret);
      expect((await admin.post(`/factories/${factory}/webhooks/${token.uid}/rotate-secret`, { provider_secret: 'x' })).status).toBe(422);
      const gh = await admin.createWebhook(factory, { name: 'g', auth_mode: 'signature', signature_scheme: 'github', provider_secret: 'one' });
      const needs = await admin.post(`/factories/${factory}/webhooks/${gh.uid}/rotate-secret`, {});
      expect(needs.status).toBe(422);
      expect(needs.body.errors[0].path).toBe('$.provider_secret');
      const set = await admin.post(`/factories/${factory}/webhooks/${gh.uid}/rotate-secret`, { provider_secret: 'two' });
      expect(set.body).toMatchObject({ secret: 'two', secret_configured: true });
      // The team secret holds the new value too.
      const row = await server.ctx.db.selectFrom('team_secrets').select('value').where('name', '=', gh.secret_name).executeTakeFirstOrThrow();
      expect(server.ctx.secrets.decrypt(row.value)).toBe('two');
    });

    it('a files factory: create, rename, header change, rotate and delete → 409; toggling enabled works', async () => {
      const factory = await admin.createFactory(`files-${++n}`, 'files');
      const created = await admin.post(`/factories/${factory}/webhooks`, { name: 'nope' });
      expect(created.status).toBe(409);
      // A webhook the definition apply would have written (that is another issue's endpoint).
      const nowTs = toTimestamp(clock.now());
      const team = await server.ctx.db.selectFrom('factories').select('team_id').where('id', '=', factory).executeTakeFirstOrThrow();
      await server.ctx.db
        .insertInto('team_secrets')
        .values({
          team_id: team.team_id,
          name: 'FILES_SECRET',
          value: server.ctx.secrets.encrypt('files-secret-value-0123'),
          created_at: nowTs,
          updated_at: nowTs,
        })
        .execute();
      const uid = 'wh_filesdefined000000000000000';
      await insertWebhook(server.ctx.db, {
        id: uid,
        team_id: team.team_id,
        factory_id: factory,
        name: 'from-file',
        auth_mode: 'token',
        signature_scheme: null,
        secret_name: 'FILES_SECRET',
        secret: server.ctx.secrets.encrypt('files-secret-value-0123'),
        delivery_id_header: null,
        enabled: 1,
        definition_file: 'webhooks/from-file.yaml',
        created_at: nowTs,
        updated_at: nowTs,
        deleted_at: null,
      });
      const path = `/factories/${factory}/webhooks/${uid}`;
      const rename = await admin.patch(path, { name: 'renamed' });
      expect(rename.status).toBe(409);
      expect(rename.body.detail).toMatch(/files/);
      expect((await admin.patch(path, { delivery_id_header: 'X-Id' })).status).toBe(409);
      const rotate = await admin.post(`${path}/rotate-secret`, {});
      expect(rotate.status).toBe(409);
      expect(rotate.body.detail).toBe('This factory is defined by files; give the team secret a new value or change the files, and apply again.');
      expect((await admin.delete(path)).status).toBe(409);
      // The managed-secret flow: new team secret value, then toggle Enabled off and on.
      await admin.put('/secrets/FILES_SECRET', { value: 'files-secret-value-NEW' });
      expect((await admin.patch(path, { enabled: false })).status).toBe(200);
      expect((await admin.patch(path, { enabled: true, name: 'from-file' })).status).toBe(200); // same name is no rename
      const ingress = `${server.ingressUrl}/webhooks/w/${uid}`;
      expect((await send(ingress, '{}', { headers: { authorization: 'Bearer files-secret-value-0123' } })).status).toBe(401);
      expect((await send(ingress, '{}', { headers: { authorization: 'Bearer files-secret-value-NEW' } })).status).toBe(202);
    });
  });

  describe('delivery log', () => {
    it('newest first with cursor pages; one entry with payload for Accepted only; unknown entries 404', async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'log' });
      const auth = { authorization: `Bearer ${wh.secret}` };
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        ids.push((await send(wh.ingress_url, JSON.stringify({ i }), { headers: auth })).body.delivery_id);
      }
      clock.advance(1000);
      expect((await send(wh.ingress_url, 'nope', { headers: auth })).status).toBe(400);
      const page1 = await admin.get(`/factories/${factory}/webhooks/${wh.uid}/deliveries?limit=4`);
      const rejected = page1.body.deliveries[0].delivery_id;
      expect(page1.body.deliveries.map((d: any) => d.delivery_id)).toEqual([rejected, ids[4], ids[3], ids[2]]);
      for (const d of page1.body.deliveries) expect(d).not.toHaveProperty('payload');
      const page2 = await admin.get(`/factories/${factory}/webhooks/${wh.uid}/deliveries?limit=4&cursor=${page1.body.page_info.next_cursor}`);
      expect(page2.body.deliveries.map((d: any) => d.delivery_id)).toEqual([ids[1], ids[0]]);
      expect(page2.body.page_info).toEqual({ has_next_page: false, next_cursor: null });
      expect((await admin.delivery(factory, wh.uid, ids[0]!)).payload).toEqual({ i: 0 });
      const rej = await admin.delivery(factory, wh.uid, rejected);
      expect(rej.label).toBe('Rejected (invalid JSON)');
      expect(rej).not.toHaveProperty('payload');
      expect((await admin.get(`/factories/${factory}/webhooks/${wh.uid}/deliveries/dlv_00000000000000000000000000`)).status).toBe(404);
      const bad = await admin.get(`/factories/${factory}/webhooks/${wh.uid}/deliveries?cursor=garbage`);
      expect(bad.status).toBe(400);
    });

    it('serves a stored payload nested 100,000 arrays deep exactly as received', async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'deep' });
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      const sent = await send(wh.ingress_url, deep, { headers: { authorization: `Bearer ${wh.secret}` } });
      expect(sent.status).toBe(202);
      const res = await fetch(`${server.apiUrl}/factories/${factory}/webhooks/${wh.uid}/deliveries/${sent.body.delivery_id}`, {
        headers: { authorization: `Bearer ${server.adminKey}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await res.text();
      expect(text).toContain(`"payload":${deep}`);
      const view = JSON.parse(text);
      expect(view).toMatchObject({ delivery_id: sent.body.delivery_id, webhook_uid: wh.uid, label: 'Accepted', size: deep.length });
    });

    it("another team cannot read a webhook's log, nor reach an entry through another webhook", async () => {
      const factory = await newFactory();
      const wh = await admin.createWebhook(factory, { name: 'private' });
      const sibling = await admin.createWebhook(factory, { name: 'sibling' });
      const id = (await send(wh.ingress_url, '{"secret":"payload"}', { headers: { authorization: `Bearer ${wh.secret}` } })).body.delivery_id;
      expect((await other.get(`/factories/${factory}/webhooks/${wh.uid}/deliveries`)).status).toBe(404);
      expect((await other.get(`/factories/${factory}/webhooks/${wh.uid}/deliveries/${id}`)).status).toBe(404);
      expect((await other.get(`/factories/${factory}/webhooks/${wh.uid}`)).status).toBe(404);
      expect((await other.patch(`/factories/${factory}/webhooks/${wh.uid}`, { enabled: false })).status).toBe(404);
      expect((await other.post(`/factories/${factory}/webhooks/${wh.uid}/rotate-secret`, {})).status).toBe(404);
      expect((await other.delete(`/factories/${factory}/webhooks/${wh.uid}`)).status).toBe(404);
      expect((await admin.get(`/factories/${factory}/webhooks/${sibling.uid}/deliveries/${id}`)).status).toBe(404);
      // Nothing changed.
      expect((await admin.get(`/factories/${factory}/webhooks/${wh.uid}`)).body.enabled).toBe(true);
    });
  });
});
