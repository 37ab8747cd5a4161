/**
 * The factory side against a stub API, in-process (support/cli.ts): `webhooks`, `automations`,
 * `deliveries` and `factory apply`.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FACTORY, problem, runCli, stubApiForFile, WEBHOOK, webhook } from './support/cli';

describe('agent-runs against a stub API', () => {
  const stub = stubApiForFile();

  describe('webhooks', () => {
    it('create maps every flag into the body and prints the secret once, with a warning on stderr', async () => {
      stub.handler = () => ({ status: 201, json: { ...webhook(), secret: 'ghsecret_123' } });

      const result = await runCli(
        [
          'webhooks',
          'create',
          '--factory',
          FACTORY,
          '--name',
          'github-issues',
          '--auth-mode',
          'signature',
          '--scheme',
          'github',
          '--provider-secret',
          'ghsecret_123',
          '--secret-name',
          'GH_SECRET',
          '--delivery-id-header',
          'X-My-Id',
        ],
        stub.env,
      );

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: `/factories/${FACTORY}/webhooks`,
        body: {
          name: 'github-issues',
          auth_mode: 'signature',
          signature_scheme: 'github',
          provider_secret: 'ghsecret_123',
          secret_name: 'GH_SECRET',
          delivery_id_header: 'X-My-Id',
        },
      });
      expect(result.stdout).toMatch(/^secret:\s+ghsecret_123$/m);
      expect(result.stdout).toMatch(new RegExp(`^uid:\\s+${WEBHOOK}$`, 'm'));
      expect(result.stderr).toContain('warning: the secret is shown only now');
    });

    it('create with only --scheme implies auth_mode signature; with --json the secret is in the JSON', async () => {
      stub.handler = () => ({ status: 201, json: { ...webhook(), secret: 'whsec_abc' } });

      const result = await runCli(['webhooks', 'create', '--factory', FACTORY, '--name', 'sw', '--scheme', 'standard-webhooks', '--json'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]!.body).toEqual({ name: 'sw', auth_mode: 'signature', signature_scheme: 'standard-webhooks' });
      expect(JSON.parse(result.stdout).secret).toBe('whsec_abc');
      expect(result.stderr).toContain('shown only now');
    });

    it('create rejects an --auth-mode outside token|url_token|signature', async () => {
      const result = await runCli(['webhooks', 'create', '--factory', FACTORY, '--name', 'x', '--auth-mode', 'basic'], stub.env);

      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Allowed choices are token, url_token, signature');
      expect(stub.requests).toHaveLength(0);
    });

    it('list prints the factory webhooks as a table', async () => {
      stub.handler = () => ({
        json: {
          webhooks: [webhook(), webhook({ uid: 'wh_2', name: 'plain', auth_mode: 'token', signature_scheme: null, enabled: false })],
          page_info: { has_next_page: false, next_cursor: null },
        },
      });

      const result = await runCli(['webhooks', 'list', '--factory', FACTORY], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'GET', path: `/factories/${FACTORY}/webhooks` });
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^UID\s+NAME\s+AUTH\s+SCHEME\s+ENABLED\s+SECRET\s+INGRESS URL$/);
      expect(lines[1]).toMatch(new RegExp(`^${WEBHOOK}\\s+github-issues\\s+signature\\s+github\\s+yes\\s+`));
      expect(lines[2]).toMatch(/^wh_2\s+plain\s+token\s+-\s+no\s+/);
      // Columns line up: every row's second column starts where the header's does.
      const nameAt = lines[0]!.indexOf('NAME');
      expect(lines.slice(1).every((line) => line[nameAt - 1] === ' ' && line[nameAt] !== ' ')).toBe(true);
    });

    it('rotate posts {provider_secret} (or an empty body) to rotate-secret', async () => {
      stub.handler = () => ({ json: { ...webhook(), secret: 'new_secret' } });

      const withSecret = await runCli(['webhooks', 'rotate', '--factory', FACTORY, WEBHOOK, '--provider-secret', 'p2'], stub.env);
      const generated = await runCli(['webhooks', 'rotate', '--factory', FACTORY, WEBHOOK], stub.env);

      expect(withSecret.code).toBe(0);
      expect(generated.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['POST', `/factories/${FACTORY}/webhooks/${WEBHOOK}/rotate-secret`, { provider_secret: 'p2' }],
        ['POST', `/factories/${FACTORY}/webhooks/${WEBHOOK}/rotate-secret`, {}],
      ]);
      expect(generated.stdout).toMatch(/^secret:\s+new_secret$/m);
      expect(generated.stderr).toContain('shown only now');
    });

    it('enable and disable PATCH {enabled}; delete sends DELETE', async () => {
      stub.handler = (request) => {
        if (request.method === 'DELETE') return { status: 204 };
        return { json: webhook({ enabled: (request.body as { enabled: boolean }).enabled }) };
      };

      const disabled = await runCli(['webhooks', 'disable', '--factory', FACTORY, WEBHOOK], stub.env);
      const enabled = await runCli(['webhooks', 'enable', '--factory', FACTORY, WEBHOOK], stub.env);
      const deleted = await runCli(['webhooks', 'delete', '--factory', FACTORY, WEBHOOK, '--json'], stub.env);

      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['PATCH', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, { enabled: false }],
        ['PATCH', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, { enabled: true }],
        ['DELETE', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, undefined],
      ]);
      expect(disabled.stdout).toBe(`webhook ${WEBHOOK} disabled\n`);
      expect(enabled.stdout).toBe(`webhook ${WEBHOOK} enabled\n`);
      expect(deleted.code).toBe(0);
      expect(JSON.parse(deleted.stdout)).toEqual({ uid: WEBHOOK, deleted: true });
    });
  });

  describe('webhooks update', () => {
    it('update sends only the fields given; --no-delivery-id-header clears it (null); rotate-secret is rotate', async () => {
      stub.handler = (request) => ({ json: request.path.endsWith('/rotate-secret') ? { ...webhook(), secret: 's2' } : webhook() });

      const renamed = await runCli(['webhooks', 'update', '--factory', FACTORY, WEBHOOK, '--name', 'gh', '--delivery-id-header', 'X-Id'], stub.env);
      const cleared = await runCli(['webhooks', 'update', '--factory', FACTORY, WEBHOOK, '--no-delivery-id-header'], stub.env);
      const empty = await runCli(['webhooks', 'update', '--factory', FACTORY, WEBHOOK], stub.env);
      const rotated = await runCli(['webhooks', 'rotate-secret', '--factory', FACTORY, WEBHOOK], stub.env);

      expect(renamed.code).toBe(0);
      expect(cleared.code).toBe(0);
      expect(rotated.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['PATCH', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, { name: 'gh', delivery_id_header: 'X-Id' }],
        ['PATCH', `/factories/${FACTORY}/webhooks/${WEBHOOK}`, { delivery_id_header: null }],
        ['POST', `/factories/${FACTORY}/webhooks/${WEBHOOK}/rotate-secret`, {}],
      ]);
      expect(renamed.stdout).toMatch(new RegExp(`^uid:\\s+${WEBHOOK}$`, 'm'));
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain('nothing to update');
      expect(rotated.stderr).toContain('shown only now');
    });
  });

  describe('automations', () => {
    const AUTOMATION = 'aut_01hzyxwvutsrqponmlkjihgfed';
    const automation = {
      uid: AUTOMATION,
      factory_uid: FACTORY,
      name: 'triage',
      prompt: 'Triage it.',
      enabled: false,
      triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [WEBHOOK], payload: { action: ['opened'] } } }],
      selected_webhooks: [{ uid: WEBHOOK, name: 'github-issues', state: 'enabled' }],
      created_at: '2026-05-01T12:00:00Z',
      updated_at: '2026-05-01T12:00:00Z',
    };

    it('create builds one trigger from --webhook (repeatable) and --filter (YAML or JSON), with --model and --disabled', async () => {
      stub.handler = () => ({ status: 201, json: automation });

      const result = await runCli(
        [
          'automations',
          'create',
          '--factory',
          FACTORY,
          '--name',
          'triage',
          '--prompt',
          'Triage it.',
          '--webhook',
          WEBHOOK,
          '--webhook',
          'wh_2',
          '--filter',
          '{action: [opened], issue: {labels: {not_in: [wontfix]}}}',
          '--model',
          'gpt-x',
          '--disabled',
        ],
        stub.env,
      );

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'POST', path: `/factories/${FACTORY}/automations` });
      expect(stub.requests[0]!.body).toEqual({
        name: 'triage',
        prompt: 'Triage it.',
        config: { model_id: 'gpt-x' },
        enabled: false,
        triggers: [
          {
            provider: 'webhook',
            event: 'received',
            filter: { webhook_ids: [WEBHOOK, 'wh_2'], payload: { action: ['opened'], issue: { labels: { not_in: ['wontfix'] } } } },
          },
        ],
      });
      expect(result.stdout).toMatch(/^enabled:\s+no$/m);
      expect(result.stdout).toMatch(new RegExp(`^triggers:\\s+${WEBHOOK}  payload \\{"action":\\["opened"\\]\\}$`, 'm'));
    });

    it('create without --webhook, or with a --filter that is not an object, is a usage error and sends nothing', async () => {
      const noWebhook = await runCli(['automations', 'create', '--factory', FACTORY, '--name', 'x', '--prompt', 'p'], stub.env);
      const badFilter = await runCli(
        ['automations', 'create', '--factory', FACTORY, '--name', 'x', '--prompt', 'p', '--webhook', WEBHOOK, '--filter', '[1, 2]'],
        stub.env,
      );

      expect(noWebhook.code).toBe(1);
      expect(noWebhook.stderr).toContain('pass --webhook <uid>');
      expect(badFilter.code).toBe(1);
      expect(badFilter.stderr).toContain('expected an object');
      expect(stub.requests).toHaveLength(0);
    });

    it('update --model keeps the rest of the config (PATCH replaces it whole)', async () => {
      stub.handler = (request) => ({
        json: request.method === 'GET' ? { ...automation, config: { model_id: 'old', max_turns: 5 } } : automation,
      });

      const result = await runCli(['automations', 'update', '--factory', FACTORY, AUTOMATION, '--model', 'new', '--name', 'n'], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['GET', `/factories/${FACTORY}/automations/${AUTOMATION}`, undefined],
        ['PATCH', `/factories/${FACTORY}/automations/${AUTOMATION}`, { name: 'n', config: { model_id: 'new', max_turns: 5 } }],
      ]);
    });

    it('test-filter tests a saved automation by uid, or a draft trigger from --webhook/--filter', async () => {
      const answer = {
        result: 'Would not trigger',
        webhook_check: { passed: true, reason: 'Delivery came from selected webhook.' },
        payload_check: { passed: false, reason: 'Field $.action: expected one of ["opened"], got "closed".', path: '$.action' },
      };
      stub.handler = () => ({ json: answer });

      const saved = await runCli(['automations', 'test-filter', '--factory', FACTORY, AUTOMATION, '--delivery', 'dlv_1'], stub.env);
      const draft = await runCli(
        ['automations', 'test-filter', '--factory', FACTORY, '--delivery', 'dlv_1', '--webhook', WEBHOOK, '--filter', '{"action": "closed"}', '--json'],
        stub.env,
      );
      const neither = await runCli(['automations', 'test-filter', '--factory', FACTORY, '--delivery', 'dlv_1'], stub.env);

      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['POST', `/factories/${FACTORY}/automations/${AUTOMATION}/test-filter`, { delivery_id: 'dlv_1' }],
        [
          'POST',
          `/factories/${FACTORY}/test-filter`,
          {
            delivery_id: 'dlv_1',
            trigger: { provider: 'webhook', event: 'received', filter: { webhook_ids: [WEBHOOK], payload: { action: 'closed' } } },
          },
        ],
      ]);
      expect(saved.stdout).toBe(
        [
          'result:         Would not trigger',
          'webhook_check:  passed: Delivery came from selected webhook.',
          'payload_check:  failed at $.action: Field $.action: expected one of ["opened"], got "closed".',
          '',
        ].join('\n'),
      );
      expect(JSON.parse(draft.stdout)).toEqual(answer);
      expect(neither.code).toBe(1);
      expect(neither.stderr).toContain('give <automationUid>, or --webhook <uid>');
    });
  });

  describe('deliveries', () => {
    it("list reads the webhook's delivery log", async () => {
      const page = {
        deliveries: [
          {
            delivery_id: 'dlv_1',
            webhook_uid: WEBHOOK,
            label: 'Accepted',
            rejection_reason: null,
            size: 120,
            received_at: '2026-05-01T12:00:00Z',
            identity: 'evt_1',
            identity_source: 'provider_header',
          },
          {
            delivery_id: 'dlv_2',
            webhook_uid: WEBHOOK,
            label: 'Rejected (auth)',
            rejection_reason: 'no signature matched',
            size: 12,
            received_at: '2026-05-01T12:01:00Z',
            identity: null,
            identity_source: null,
          },
        ],
        page_info: { has_next_page: false, next_cursor: null },
      };
      stub.handler = () => ({ json: page });

      const human = await runCli(['deliveries', 'list', '--factory', FACTORY, WEBHOOK, '--limit', '2'], stub.env);
      const json = await runCli(['deliveries', 'list', '--factory', FACTORY, WEBHOOK, '--json'], stub.env);

      expect(stub.requests[0]!.path).toBe(`/factories/${FACTORY}/webhooks/${WEBHOOK}/deliveries`);
      expect(stub.requests[0]!.query.get('limit')).toBe('2');
      expect(human.code).toBe(0);
      expect(human.stdout.split('\n')[0]).toMatch(/^DELIVERY ID\s+LABEL\s+REASON\s+RECEIVED\s+/);
      expect(human.stdout.split('\n')[1]).toMatch(/^dlv_1\s+Accepted\s+-\s+2026-05-01 12:00:00Z\s+120\s+evt_1$/);
      expect(human.stdout.split('\n')[2]).toMatch(/^dlv_2\s+Rejected \(auth\)\s+no signature matched\s+2026-05-01 12:01:00Z\s+12\s+-$/);
      expect(JSON.parse(json.stdout)).toEqual(page);
    });

    it('get prints the rejection reason with a hint for a known one, and an unknown one as it is', async () => {
      const rejected = (reason: string) => ({
        delivery_id: 'dlv_2',
        webhook_uid: WEBHOOK,
        label: 'Rejected (auth)',
        rejection_reason: reason,
        size: 12,
        received_at: '2026-05-01T12:01:00Z',
        identity: null,
        identity_source: null,
      });
      const hints: Array<[reason: string, hint: RegExp | undefined]> = [
        ['no signature matched', /different secret, or the body changed.*`agent-runs webhooks rotate-secret --factory \S+ wh_\S+ --provider-secret <secret>`/],
        ['timestamp outside tolerance', /more than 5 minutes .*a replay, or a clock is off/],
        ['secret not configured', /not set yet: set it with `agent-runs webhooks rotate-secret /],
        ['missing signature header', /sends no credential: check the provider's signing setting, or that it calls the full ingress URL/],
        ['missing token', /sends no credential/],
        ['wrong token', /an old one after a rotation/],
        ['a reason added later', undefined],
      ];
      for (const [reason, hint] of hints) {
        stub.handler = () => ({ json: rejected(reason) });
        const result = await runCli(['deliveries', 'get', '--factory', FACTORY, WEBHOOK, 'dlv_2'], stub.env);

        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`^rejection_reason:\\s+${reason}$`, 'm'));
        if (hint) expect(result.stdout.match(/^hint:\s+(.*)$/m)?.[1]).toMatch(hint);
        else expect(result.stdout).not.toMatch(/^hint:/m);
      }
    });
  });

  describe('factory apply', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-cli-'));
      await mkdir(path.join(dir, 'webhooks'));
      await mkdir(path.join(dir, 'automations'));
      await writeFile(path.join(dir, 'webhooks', 'github.yaml'), 'name: github\nauth_mode: token\n');
      await writeFile(path.join(dir, 'webhooks', 'README.txt'), 'not a definition');
      await writeFile(path.join(dir, 'automations', 'triage.md'), '---\nname: triage\n---\nTriage it.\n');
      await writeFile(path.join(dir, 'automations', 'b.md'), '---\nname: b\n---\nB.\n');
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('sends webhooks/*.yaml and automations/*.md as {files: [{path, content}]} and prints the UID map', async () => {
      stub.handler = () => ({
        json: {
          webhooks: [{ file: 'webhooks/github.yaml', uid: WEBHOOK, name: 'github', secret_name: 'WEBHOOK_GITHUB_SECRET' }],
          automations: [
            { file: 'automations/b.md', uid: 'aut_b', name: 'b' },
            { file: 'automations/triage.md', uid: 'aut_t', name: 'triage' },
          ],
          deleted: { webhooks: [], automations: ['aut_old'] },
        },
      });

      const result = await runCli(['factory', 'apply', '--factory', FACTORY, dir], stub.env);

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({ method: 'POST', path: `/factories/${FACTORY}/definitions/apply` });
      expect(stub.requests[0]!.body).toEqual({
        files: [
          { path: 'webhooks/github.yaml', content: 'name: github\nauth_mode: token\n' },
          { path: 'automations/b.md', content: '---\nname: b\n---\nB.\n' },
          { path: 'automations/triage.md', content: '---\nname: triage\n---\nTriage it.\n' },
        ],
      });
      expect(result.stdout).toMatch(new RegExp(`^webhooks/github.yaml\\s+${WEBHOOK}\\s+github\\s+WEBHOOK_GITHUB_SECRET$`, 'm'));
      expect(result.stdout).toMatch(/^automations\/triage.md\s+aut_t\s+triage$/m);
      expect(result.stdout).toContain('deleted: aut_old');
    });

    it('prints each file error of a 422 on stderr and exits 1', async () => {
      const answer = problem(422, 'validation_failed', 'Definition files are invalid.');
      (answer.json as Record<string, unknown>).file_errors = [
        { file: 'webhooks/github.yaml', message: 'auth_mode: must be one of token, url_token, signature' },
        { file: 'automations/b.md', message: 'front matter: webhooks is required' },
      ];
      stub.handler = () => answer;

      const result = await runCli(['factory', 'apply', '--factory', FACTORY, dir], stub.env);

      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: 422 validation_failed: Definition files are invalid.');
      expect(result.stderr).toContain('  webhooks/github.yaml: auth_mode: must be one of token, url_token, signature');
      expect(result.stderr).toContain('  automations/b.md: front matter: webhooks is required');
    });

    it('refuses a directory without definition files (applying none would delete everything)', async () => {
      const empty = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-cli-empty-'));
      try {
        const result = await runCli(['factory', 'apply', '--factory', FACTORY, empty], stub.env);

        expect(result.code).toBe(1);
        expect(result.stderr).toContain('no definition files');
        expect(stub.requests).toHaveLength(0);
      } finally {
        await rm(empty, { recursive: true, force: true });
      }
    });
  });
});
