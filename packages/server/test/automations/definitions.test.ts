/**
 * Factory definitions as files (contract: applyFactoryDefinitions) over real
 * HTTP on SQLite and PostgreSQL: stable UIDs, removed files delete, atomic failure (nothing changes) on a
 * missing secret and on a url_token secret that is not URL-safe, managed-secret pickup on re-apply and on an
 * Enabled off/on toggle, file automations firing, and the REST API refusing to change a files factory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { send, type RestClient } from '../webhooks/helpers';
import { problemCode, runsWhere, startWorld, trigger, unique, type AutomationWorld } from './helpers';

const TOKEN_A = 'first-managed-secret-value-0001';
const TOKEN_B = 'second-managed-secret-value-0002';
const TOKEN_C = 'third-managed-secret-value-00003';

const webhookFile = (name: string, body: string) => ({ path: `webhooks/${name}.yaml`, content: body });
const automationFile = (name: string, frontMatter: string, prompt = 'Handle the delivery.') => ({
  path: `automations/${name}.md`,
  content: `---\n${frontMatter}\n---\n${prompt}\n`,
});

describe.each(testDatabases())('definition apply (%s)', (kind) => {
  let world: AutomationWorld;
  let admin: RestClient;
  beforeAll(async () => {
    world = await startWorld(kind);
    admin = world.admin;
  });
  afterAll(() => world?.close());

  /** A fresh files factory and a fresh team secret (name, value) for it. */
  async function filesFactory(secretValue = TOKEN_A) {
    const factory = await admin.createFactory(unique('files'), 'files');
    const secret = unique('SECRET').replace('-', '_');
    expect((await admin.put(`/secrets/${secret}`, { value: secretValue })).status).toBe(200);
    const apply = (files: Array<{ path: string; content: string }>) => admin.post(`/factories/${factory}/definitions/apply`, { files });
    return { factory, secret, apply };
  }

  const post = (url: string, token: string, body = `{"n":${Math.random()}}`) => send(url, body, { headers: { authorization: `Bearer ${token}` } });
  /** The next rate-limit window (failed-auth budgets start over). */
  const nextWindow = () => world.clock.advance(61_000);

  it('assigns UIDs when files first apply, keeps them on later applies, and maps each file to its UID', async () => {
    const { factory, secret, apply } = await filesFactory();
    const first = await apply([
      webhookFile('github', `secretName: ${secret}\ndeliveryIdHeader: X-GitHub-Delivery`),
      webhookFile('linear', `authMode: url_token\nsecretName: ${secret}\nname: Linear events`),
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({
      webhooks: [
        { file: 'webhooks/github.yaml', uid: expect.stringMatching(/^wh_[0-9a-z]{26}$/), name: 'github', secret_name: secret },
        { file: 'webhooks/linear.yaml', uid: expect.stringMatching(/^wh_[0-9a-z]{26}$/), name: 'Linear events', secret_name: secret },
      ],
      automations: [],
      deleted: { webhooks: [], automations: [] },
    });
    const [github, linear] = first.body.webhooks.map((w: any) => w.uid);

    // Second apply: the automation references the UIDs the first apply answered.
    const second = await apply([
      webhookFile('github', `secretName: ${secret}\ndeliveryIdHeader: X-GitHub-Delivery`),
      webhookFile('linear', `authMode: url_token\nsecretName: ${secret}\nname: Linear events`),
      automationFile(
        'triage',
        `name: Triage\ntriggers:\n  - provider: webhook\n    event: received\n    filter:\n      webhook_ids: [${github}]\n      payload:\n        action: [opened]`,
      ),
    ]);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.webhooks.map((w: any) => w.uid)).toEqual([github, linear]);
    const automationUid = second.body.automations[0].uid;
    expect(second.body.automations).toEqual([{ file: 'automations/triage.md', uid: expect.stringMatching(/^aut_/), name: 'Triage' }]);

    const shown = await admin.get(`/factories/${factory}/automations/${automationUid}`);
    expect(shown.body).toMatchObject({
      name: 'Triage',
      prompt: 'Handle the delivery.',
      enabled: true,
      definition_file: 'automations/triage.md',
      triggers: [trigger([github], { action: ['opened'] })],
      selected_webhooks: [{ uid: github, name: 'github', state: 'enabled' }],
    });
    const webhook = await admin.get(`/factories/${factory}/webhooks/${linear}`);
    expect(webhook.body).toMatchObject({ name: 'Linear events', auth_mode: 'url_token', secret_name: secret, enabled: true });

    // The file automation fires on a matching delivery of the file webhook.
    const hook = (await admin.get(`/factories/${factory}/webhooks/${github}`)).body;
    const deliveryId = (await post(hook.ingress_url, TOKEN_A, '{"action":"opened"}')).body.delivery_id;
    expect((await runsWhere(admin, `automation_id=${automationUid}`)).map((r) => r.delivery_id)).toEqual([deliveryId]);

    // Applying the same files again changes nothing, not even versions.
    const third = await apply([
      webhookFile('github', `secretName: ${secret}\ndeliveryIdHeader: X-GitHub-Delivery`),
      webhookFile('linear', `authMode: url_token\nsecretName: ${secret}\nname: Linear events`),
      automationFile(
        'triage',
        `name: Triage\ntriggers:\n  - provider: webhook\n    event: received\n    filter:\n      webhook_ids: [${github}]\n      payload:\n        action: [opened]`,
      ),
    ]);
    expect(third.body).toEqual(second.body);
    expect((await admin.get(`/factories/${factory}/automations/${automationUid}`)).body).toEqual(shown.body);
  });

  it('removed files delete their resources: the webhook is soft-deleted (404 to senders), the automation is gone', async () => {
    const { factory, secret, apply } = await filesFactory();
    const first = await apply([webhookFile('keep', `secretName: ${secret}`), webhookFile('drop', `secretName: ${secret}`)]);
    const [keep, drop] = first.body.webhooks.map((w: any) => w.uid);
    const withAutomations = await apply([
      webhookFile('keep', `secretName: ${secret}`),
      webhookFile('drop', `secretName: ${secret}`),
      automationFile('a', `triggers:\n  - {provider: webhook, event: received, filter: {webhook_ids: [${keep}, ${drop}]}}`),
      automationFile('b', `triggers: []`),
    ]);
    const [a, b] = withAutomations.body.automations.map((x: any) => x.uid);
    const dropUrl = (await admin.get(`/factories/${factory}/webhooks/${drop}`)).body.ingress_url;

    const removed = await apply([
      webhookFile('keep', `secretName: ${secret}`),
      automationFile('a', `triggers:\n  - {provider: webhook, event: received, filter: {webhook_ids: [${keep}, ${drop}]}}`),
    ]);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.deleted).toEqual({ webhooks: [drop], automations: [b] });
    expect(removed.body.webhooks.map((w: any) => w.uid)).toEqual([keep]);
    expect((await admin.get(`/factories/${factory}/webhooks/${drop}`)).status).toBe(404);
    expect((await post(dropUrl, TOKEN_A)).status).toBe(404);
    expect((await admin.get(`/factories/${factory}/automations/${b}`)).status).toBe(404);
    const kept = await admin.get(`/factories/${factory}/automations/${a}`);
    expect(kept.body.selected_webhooks).toEqual([
      { uid: keep, name: 'keep', state: 'enabled' },
      { uid: drop, state: 'deleted' },
    ]);

    // Re-adding a file later makes a NEW webhook: the UID of a deleted one is never reused.
    const readded = await apply([webhookFile('keep', `secretName: ${secret}`), webhookFile('drop', `secretName: ${secret}`)]);
    expect(readded.body.webhooks[1].uid).not.toBe(drop);
  });

  describe('atomic failure: nothing changes', () => {
    async function appliedState(factory: string) {
      const webhooks = (await admin.get(`/factories/${factory}/webhooks`)).body.webhooks;
      const automations = (await admin.get(`/factories/${factory}/automations`)).body.automations;
      return { webhooks, automations };
    }

    it('a secretName that names no team secret fails the whole apply with per-file errors', async () => {
      const { factory, secret, apply } = await filesFactory();
      await apply([webhookFile('main', `secretName: ${secret}`), automationFile('a', 'triggers: []')]);
      const before = await appliedState(factory);
      world.clock.advance(1000);

      const res = await apply([
        webhookFile('main', `secretName: ${secret}\nenabled: false\nname: renamed`),
        webhookFile('extra', 'secretName: NO_SUCH_SECRET'),
        automationFile('a', 'enabled: false\ntriggers: []', 'Changed prompt.'),
        automationFile('new', 'triggers: []'),
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(problemCode(res.body)).toBe('validation_failed');
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(res.body.file_errors).toEqual([{ file: 'webhooks/extra.yaml', message: 'secretName "NO_SUCH_SECRET" does not name an existing team secret' }]);
      expect(await appliedState(factory)).toEqual(before);
    });

    it('a url_token secret that is not URL-safe fails the whole apply', async () => {
      const { factory, secret, apply } = await filesFactory();
      await apply([webhookFile('main', `secretName: ${secret}`)]);
      const before = await appliedState(factory);
      const unsafe = unique('UNSAFE').replace('-', '_');
      expect((await admin.put(`/secrets/${unsafe}`, { value: 'has spaces / and slashes?' })).status).toBe(200);

      const res = await apply([webhookFile('main', `secretName: ${secret}`), webhookFile('url', `authMode: url_token\nsecretName: ${unsafe}`)]);
      expect(res.status).toBe(422);
      expect(res.body.file_errors).toEqual([{ file: 'webhooks/url.yaml', message: expect.stringContaining('not URL-safe') }]);
      // The same secret is fine for a token webhook.
      expect(await appliedState(factory)).toEqual(before);
      expect((await apply([webhookFile('main', `secretName: ${secret}`), webhookFile('url', `secretName: ${unsafe}`)])).status).toBe(200);
    });

    it('every invalid file is reported at once', async () => {
      const { factory, secret, apply } = await filesFactory();
      const res = await apply([
        webhookFile('bad-yaml', 'secretName: [unclosed'),
        webhookFile('unknown-key', `secretName: ${secret}\ncolour: blue`),
        webhookFile('signature', `authMode: signature\nsecretName: ${secret}`),
        webhookFile('no-secret', 'authMode: token'),
        webhookFile('credential-header', `secretName: ${secret}\ndeliveryIdHeader: Authorization`),
        automationFile(
          'filter',
          `triggers:\n  - provider: webhook\n    event: received\n    filter:\n      webhook_ids: [wh_0000000000aaaaaaaaaaaaaaaa]\n      payload:\n        action: {in: opened}`,
        ),
        automationFile('file-name', 'triggers:\n  - {provider: webhook, event: received, filter: {webhook_ids: [unknown-key.yaml]}}'),
        automationFile('config', 'config: {max_turns: 0, model: x}\ntriggers: []'),
        { path: 'automations/no-front-matter.md', content: 'Just a prompt.' },
        automationFile('blank', 'triggers: []', '   '),
      ]);
      expect(res.status).toBe(422);
      const byFile = (file: string) =>
        res.body.file_errors
          .filter((e: any) => e.file === file)
          .map((e: any) => e.message)
          .join(' | ');
      expect(byFile('webhooks/bad-yaml.yaml')).toContain('invalid YAML');
      expect(byFile('webhooks/unknown-key.yaml')).toContain('unknown key "colour"');
      expect(byFile('webhooks/signature.yaml')).toContain('signatureScheme is required');
      expect(byFile('webhooks/no-secret.yaml')).toContain('secretName is required');
      expect(byFile('webhooks/credential-header.yaml')).toContain('carries a credential');
      expect(byFile('automations/filter.md')).toContain('triggers[0].filter.payload.action.in');
      expect(byFile('automations/file-name.md')).toMatch(/webhook_ids take webhook UIDs.*"unknown-key\.yaml" is a file name/);
      expect(byFile('automations/config.md')).toMatch(/config\.max_turns.*\| .*unknown key "model"|unknown key "model".*config\.max_turns/);
      expect(byFile('automations/no-front-matter.md')).toContain('front matter');
      expect(byFile('automations/blank.md')).toContain('prompt');
      expect((await admin.get(`/factories/${factory}/webhooks`)).body.webhooks).toEqual([]);
    });
  });

  it('a YAML alias bomb (billion laughs) fails quickly with 422, in a webhook file and in front matter', async () => {
    const { factory, secret, apply } = await filesFactory();
    const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const bomb = lines.join('\n');
    const started = Date.now();
    const res = await apply([webhookFile('bomb', `secretName: ${secret}\n${bomb}`), automationFile('bomb', `${bomb}\ntriggers: []`)]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(problemCode(res.body)).toBe('validation_failed');
    const messages = res.body.file_errors.map((e: any) => `${e.file}: ${e.message}`).join(' | ');
    expect(messages).toMatch(/webhooks\/bomb\.yaml: .*alias/i);
    expect(messages).toMatch(/automations\/bomb\.md: .*alias/i);
    expect((await admin.get(`/factories/${factory}/webhooks`)).body.webhooks).toEqual([]);
  });

  it('an automation prompt (the Markdown body) over 262,144 characters is refused with 422', async () => {
    const { factory, apply } = await filesFactory();
    const res = await apply([automationFile('long', 'triggers: []', 'p'.repeat(262_145))]);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.file_errors).toEqual([{ file: 'automations/long.md', message: expect.stringMatching(/prompt.*262,144/) }]);
    expect((await admin.get(`/factories/${factory}/automations`)).body.automations).toEqual([]);
  });

  it('an automation file naming a webhook file instead of its UID is refused, saying how to get the UID', async () => {
    const { factory, secret, apply } = await filesFactory();
    const files = [webhookFile('github', `secretName: ${secret}`)];
    const mention = (id: string) => automationFile('triage', `triggers:\n  - {provider: webhook, event: received, filter: {webhook_ids: [${id}]}}`);
    const first = await apply([...files, mention('webhooks/github.yaml')]);
    expect(first.status).toBe(422);
    expect(first.body.file_errors).toEqual([
      {
        file: 'automations/triage.md',
        message: expect.stringMatching(/webhook_ids take webhook UIDs .*webhooks\/github\.yaml gets its UID when it first applies/),
      },
    ]);
    expect((await admin.get(`/factories/${factory}/webhooks`)).body.webhooks).toEqual([]);
    const applied = await apply(files);
    const uid = applied.body.webhooks[0].uid;
    const again = await apply([...files, mention('github')]);
    expect(again.status).toBe(422);
    expect(again.body.file_errors[0].message).toContain(`the UID of webhooks/github.yaml is ${uid}`);
    expect((await apply([...files, mention(uid)])).status).toBe(200);
  });

  describe('managed secret pickup', () => {
    async function appliedWebhook() {
      const { factory, secret, apply } = await filesFactory(TOKEN_A);
      const files = [webhookFile('managed', `secretName: ${secret}`)];
      const applied = await apply(files);
      expect(applied.status).toBe(200);
      const uid = applied.body.webhooks[0].uid;
      const url = (await admin.get(`/factories/${factory}/webhooks/${uid}`)).body.ingress_url as string;
      nextWindow();
      return { factory, secret, uid, url, reapply: () => apply(files) };
    }

    it('a new team secret value takes effect only when the definition applies again', async () => {
      const w = await appliedWebhook();
      expect((await post(w.url, TOKEN_A)).status).toBe(202);
      expect((await admin.put(`/secrets/${w.secret}`, { value: TOKEN_B })).status).toBe(200);
      expect((await post(w.url, TOKEN_A)).status).toBe(202); // the webhook keeps its snapshot
      expect((await post(w.url, TOKEN_B)).status).toBe(401);

      const reapplied = await w.reapply();
      expect(reapplied.status).toBe(200);
      expect(reapplied.body.webhooks[0].uid).toBe(w.uid);
      expect((await post(w.url, TOKEN_A)).status).toBe(401);
      expect((await post(w.url, TOKEN_B)).status).toBe(202);
    });

    it('toggling Enabled off and on picks the new value up too', async () => {
      const w = await appliedWebhook();
      expect((await admin.put(`/secrets/${w.secret}`, { value: TOKEN_C })).status).toBe(200);
      expect((await post(w.url, TOKEN_A)).status).toBe(202);
      const path = `/factories/${w.factory}/webhooks/${w.uid}`;
      expect((await admin.patch(path, { enabled: false })).status).toBe(200);
      expect((await post(w.url, TOKEN_A)).status).toBe(404);
      expect((await admin.patch(path, { enabled: true })).status).toBe(200);
      expect((await post(w.url, TOKEN_A)).status).toBe(401);
      expect((await post(w.url, TOKEN_C)).status).toBe(202);
    });
  });

  describe('a files factory changes only through apply', () => {
    it('automations: create, edit and delete answer 409; Enabled may toggle', async () => {
      const { factory, apply } = await filesFactory();
      const applied = await apply([automationFile('a', 'triggers: []')]);
      const uid = applied.body.automations[0].uid;
      const create = await admin.post(`/factories/${factory}/automations`, { name: 'x', prompt: 'p', triggers: [] });
      expect(create.status).toBe(409);
      expect(create.body.detail).toContain('apply');
      expect((await admin.patch(`/factories/${factory}/automations/${uid}`, { prompt: 'edited' })).status).toBe(409);
      expect((await admin.delete(`/factories/${factory}/automations/${uid}`)).status).toBe(409);
      const toggled = await admin.patch(`/factories/${factory}/automations/${uid}`, { enabled: false });
      expect(toggled.status).toBe(200);
      expect(toggled.body.enabled).toBe(false);
    });

    it('apply on an api factory → 409; members may not apply (403)', async () => {
      const factory = await admin.createFactory(unique('api'));
      const res = await admin.post(`/factories/${factory}/definitions/apply`, { files: [] });
      expect(res.status).toBe(409);
      expect(problemCode(res.body)).toBe('conflict');
      const { factory: files } = await filesFactory();
      const denied = await world.member.post(`/factories/${files}/definitions/apply`, { files: [] });
      expect(denied.status).toBe(403);
    });
  });

  it('names may be swapped between files in one apply', async () => {
    const { secret, apply } = await filesFactory();
    const first = await apply([
      webhookFile('one', `secretName: ${secret}\nname: alpha`),
      webhookFile('two', `secretName: ${secret}\nname: beta`),
      automationFile('x', 'name: first\ntriggers: []'),
      automationFile('y', 'name: second\ntriggers: []'),
    ]);
    const swapped = await apply([
      webhookFile('one', `secretName: ${secret}\nname: beta`),
      webhookFile('two', `secretName: ${secret}\nname: alpha`),
      automationFile('x', 'name: second\ntriggers: []'),
      automationFile('y', 'name: first\ntriggers: []'),
    ]);
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect(swapped.body.webhooks.map((w: any) => [w.uid, w.name])).toEqual([
      [first.body.webhooks[0].uid, 'beta'],
      [first.body.webhooks[1].uid, 'alpha'],
    ]);
    expect(swapped.body.automations.map((a: any) => [a.uid, a.name])).toEqual([
      [first.body.automations[0].uid, 'second'],
      [first.body.automations[1].uid, 'first'],
    ]);
  });

  it('a file webhook accepts deliveries with its definition (url_token)', async () => {
    const { factory, secret, apply } = await filesFactory(TOKEN_A);
    const applied = await apply([webhookFile('url', `authMode: url_token\nsecretName: ${secret}`)]);
    const uid = applied.body.webhooks[0].uid;
    const shown = (await admin.get(`/factories/${factory}/webhooks/${uid}`)).body;
    expect(shown.ingress_url.endsWith(`/webhooks/w/${uid}/{token}`)).toBe(true);
    const url = shown.ingress_url.replace('{token}', TOKEN_A);
    expect((await send(url, '{"ok":true}')).status).toBe(202);
  });
});
