/**
 * The CLI end to end against the real server (echo runner), in-process (support/cli.ts): runs, the
 * factory side, transcripts, models, agents and environments.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCliTestServer } from './support/cli';

describe('agent-runs against the real server', () => {
  const live = startCliTestServer();

  it('run --wait reaches a terminal state, runs list shows it, and cancelling it exits 1 with the 400 detail (Oz: a finished run cannot be cancelled)', async () => {
    const run = await runCli(['run', '--prompt', 'hi', '--name', 'cli-e2e', '--wait', '--json'], live.env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const finished = JSON.parse(run.stdout) as { run_id: string; state: string; agent_config?: { name?: string } };
    expect(finished.state).toBe('SUCCEEDED');
    expect(finished.agent_config?.name).toBe('cli-e2e');

    const list = await runCli(['runs', 'list', '--name', 'cli-e2e', '--state', 'SUCCEEDED', '--json'], live.env);
    expect(list.code).toBe(0);
    const page = JSON.parse(list.stdout) as { runs: Array<{ run_id: string }> };
    expect(page.runs.map((r) => r.run_id)).toContain(finished.run_id);

    const table = await runCli(['runs', 'list'], live.env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(finished.run_id);

    const cancel = await runCli(['runs', 'cancel', finished.run_id], live.env);
    expect(cancel.code).toBe(1);
    expect(cancel.stdout).toBe('');
    expect(cancel.stderr).toMatch(/^error: 400 invalid_request: .+/m);
    expect(cancel.stderr).toMatch(/trace id: \S+/);
  });

  it('runs watch of a finished run ends with its terminal state; runs get shows it', async () => {
    const created = await runCli(['run', '--prompt', 'watch me', '--json'], live.env);
    expect(created.code).toBe(0);
    const { run_id: runId } = JSON.parse(created.stdout) as { run_id: string };

    const watch = await runCli(['runs', 'watch', runId], live.env);
    expect(watch.code).toBe(0);
    const lines = watch.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/ state {2}SUCCEEDED/);

    const get = await runCli(['runs', 'get', runId], live.env);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/^state:\s+SUCCEEDED$/m);
  });

  it('a wrong API key exits 1 with the 401 detail', async () => {
    const result = await runCli(['runs', 'list'], { ...live.env, AGENT_RUNS_API_KEY: 'ar_live_wrong' });

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: 401 authentication_required: .+/m);
  });

  it('webhooks create prints the secret once; list, disable and deliveries list read it back', async () => {
    const factoryUid = await createFactory('cli-webhooks', 'api');

    const created = await runCli(['webhooks', 'create', '--factory', factoryUid, '--name', 'plain', '--json'], live.env);
    expect(created.code).toBe(0);
    const webhook = JSON.parse(created.stdout) as { uid: string; secret: string | null; secret_name: string };
    expect(webhook.secret).toEqual(expect.any(String));
    expect(created.stderr).toContain('shown only now');

    const listed = await runCli(['webhooks', 'list', '--factory', factoryUid, '--json'], live.env);
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout) as { webhooks: Array<{ uid: string; secret?: unknown }> };
    expect(page.webhooks.map((w) => w.uid)).toEqual([webhook.uid]);
    expect(listed.stdout).not.toContain(webhook.secret!);

    const disabled = await runCli(['webhooks', 'disable', '--factory', factoryUid, webhook.uid], live.env);
    expect(disabled.stdout).toBe(`webhook ${webhook.uid} disabled\n`);

    const deliveries = await runCli(['deliveries', 'list', '--factory', factoryUid, webhook.uid], live.env);
    expect(deliveries.code).toBe(0);
    expect(deliveries.stdout).toBe('no deliveries\n');
  });

  it('deliveries list and get show why a delivery was rejected (a wrong token), with a hint', async () => {
    const F = ['--factory', await createFactory('cli-rejections', 'api')];
    const hook = (await api('POST', `/factories/${F[1]}/webhooks`, { name: 'rejecting' })) as { uid: string; ingress_url: string };
    const response = await fetch(hook.ingress_url, {
      method: 'POST',
      headers: { authorization: 'Bearer not-the-secret', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);

    const list = await runCli(['deliveries', 'list', ...F, hook.uid], live.env);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^DELIVERY ID\s+LABEL\s+REASON\s+/);
    const row = /^(dlv_\S+)\s+Rejected \(auth\)\s+wrong token\s+/m.exec(list.stdout);
    expect(row).not.toBeNull();
    const deliveryId = row![1]!;

    const get = await runCli(['deliveries', 'get', ...F, hook.uid, deliveryId], live.env);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/^label:\s+Rejected \(auth\)\nrejection_reason:\s+wrong token\nhint:\s+.*old one after a rotation$/m);
    const json = await runCli(['deliveries', 'get', ...F, hook.uid, deliveryId, '--json'], live.env);
    expect(JSON.parse(json.stdout)).toMatchObject({ delivery_id: deliveryId, rejection_reason: 'wrong token' });
  });

  it('factory apply creates definitions from a directory and prints the UID map; an invalid file exits 1 naming it', async () => {
    const factoryUid = await createFactory('cli-files', 'files');
    await api('PUT', '/secrets/CLI_HOOK_SECRET', { value: 'a-long-enough-shared-secret-value' });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-runs-cli-apply-'));
    try {
      await mkdir(path.join(dir, 'webhooks'));
      await writeFile(path.join(dir, 'webhooks', 'hook.yaml'), 'authMode: token\nsecretName: CLI_HOOK_SECRET\n');

      const applied = await runCli(['factory', 'apply', '--factory', factoryUid, dir, '--json'], live.env);
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      const answer = JSON.parse(applied.stdout) as { webhooks: Array<{ file: string; uid: string; name: string }> };
      expect(answer.webhooks).toEqual([expect.objectContaining({ file: 'webhooks/hook.yaml', name: 'hook', uid: expect.stringMatching(/^wh_/) })]);
      const hookUid = answer.webhooks[0]!.uid;

      await mkdir(path.join(dir, 'automations'));
      await writeFile(
        path.join(dir, 'automations', 'triage.md'),
        `---\ntriggers:\n  - provider: webhook\n    event: received\n    filter:\n      webhook_ids: [${hookUid}]\n---\nTriage the event.\n`,
      );
      const withAutomation = await runCli(['factory', 'apply', '--factory', factoryUid, dir], live.env);
      expect(withAutomation.stderr).toBe('');
      expect(withAutomation.code).toBe(0);
      expect(withAutomation.stdout).toMatch(new RegExp(`^webhooks/hook.yaml\\s+${hookUid}\\s+hook\\s+CLI_HOOK_SECRET$`, 'm'));
      expect(withAutomation.stdout).toMatch(/^automations\/triage.md\s+aut_\S+\s+triage$/m);

      await writeFile(path.join(dir, 'webhooks', 'broken.yaml'), 'authMode: carrier-pigeon\nsecretName: CLI_HOOK_SECRET\n');
      const broken = await runCli(['factory', 'apply', '--factory', factoryUid, dir], live.env);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/^error: 422 validation_failed: /m);
      expect(broken.stderr).toMatch(/^ {2}webhooks\/broken.yaml: .*authMode/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs transcript, models, agents and environments against the real server', async () => {
    const run = await runCli(['run', '--prompt', 'transcribe', '--wait', '--json'], live.env);
    expect(run.code).toBe(0);
    const { run_id: runId } = JSON.parse(run.stdout) as { run_id: string };
    const transcript = await runCli(['runs', 'transcript', runId], live.env);
    expect(transcript.code).toBe(0);
    const lines = transcript.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { role: string });
    expect(lines.map((l) => l.role)).toEqual(['user', 'assistant']);

    const models = await runCli(['models'], live.env);
    expect(models.stdout).toMatch(/^\* +echo +UNKNOWN +The echo runner uses no language model/m);
    const agents = await runCli(['agents', '--repo', 'agent-runs/bundled'], live.env);
    expect(agents.stdout).toContain('agent-runs/bundled:create-skill/SKILL.md');
    const skillRun = await runCli(['run', '--skill', 'agent-runs/bundled:create-skill/SKILL.md', '--json'], live.env);
    expect(skillRun.code).toBe(0);

    const created = await fetch(`${live.server.apiUrl}/agent/environments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${live.server.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cli-env', setup_commands: ['true'] }),
    });
    const { uid } = (await created.json()) as { uid: string };
    const listed = await runCli(['environments', 'list', '--sort-by', 'name', '--json'], live.env);
    expect((JSON.parse(listed.stdout) as { environments: Array<{ uid: string }> }).environments.map((e) => e.uid)).toContain(uid);
    const inEnv = await runCli(['run', '--prompt', 'in env', '--environment', uid, '--json'], live.env);
    expect(inEnv.code).toBe(0);
    expect((await runCli(['environments', 'get', uid], live.env)).stdout).toMatch(/last_task: +\S+ \((QUEUED|CLAIMED|INPROGRESS|SUCCEEDED|FAILED)\)/);

    const waited = JSON.parse((await runCli(['run', '--prompt', 'in env', '--environment', uid, '--wait', '--json'], live.env)).stdout) as { run_id: string };
    const setupLog = await runCli(['runs', 'setup-log', waited.run_id], live.env);
    expect(setupLog.code).toBe(0);
    expect(setupLog.stdout).toMatch(/^\S+ \S+ {2}command 1 of 1 {2}exited with code 0\n {2}\$ true$/m);
  });

  it("run --wait shows the run id and progress on stderr and the agent's answer last; runs create and runs conversation", async () => {
    const run = await runCli(['run', '--prompt', 'Say this back', '--wait'], live.env);
    expect(run.code).toBe(0);
    const runId = /^run_id: (\S+)\n/.exec(run.stderr)?.[1];
    expect(runId).toBeDefined();
    expect(run.stderr).toMatch(/^state: SUCCEEDED {2}\d+s\n$/m);
    expect(run.stdout).toMatch(new RegExp(`^run_id:\\s+${runId}$`, 'm'));
    expect(run.stdout).toMatch(/\n\nanswer:\nSay this back\n$/);

    const created = await runCli(['runs', 'create', '--prompt', 'created by the alias', '--wait', '--json'], live.env);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ state: 'SUCCEEDED', prompt: 'created by the alias' });

    const conversation = await runCli(['runs', 'conversation', runId!], live.env);
    expect(conversation.code).toBe(0);
    expect(conversation.stdout).toMatch(/^step \S+ {2}.+ → .+$/m);
    expect(conversation.stdout).toMatch(/^ {2}\S+ \S+ {2}user {2}text {2}Say this back$/m);
    expect(conversation.stdout).toMatch(/^ {2}\S+ \S+ {2}assistant {2}text {2}Say this back$/m);
    const json = await runCli(['runs', 'conversation', runId!, '--json'], live.env);
    const body = JSON.parse(json.stdout) as { conversation_id: string; steps: unknown[] };
    expect(body.conversation_id).toMatch(/^conv_/);
    expect(body.steps).toHaveLength(1);
  });

  it('the factory side: factories (create, list, get) and webhooks (create, update, get, rotate-secret, delete)', async () => {
    const created = await runCli(['factories', 'create', '--name', 'cli-factory-side', '--json'], live.env);
    expect(created.code).toBe(0);
    const factory = JSON.parse(created.stdout) as { uid: string; definition_source: string };
    expect(factory.definition_source).toBe('api');
    const listed = await runCli(['factories', 'list'], live.env);
    expect(listed.stdout).toMatch(new RegExp(`^${factory.uid}\\s+cli-factory-side\\s+api\\s+`, 'm'));
    const got = await runCli(['factories', 'get', factory.uid], live.env);
    expect(got.stdout).toMatch(/^name:\s+cli-factory-side$/m);
    const F = ['--factory', factory.uid];

    // Webhooks: create (secret once), update, get, rotate-secret.
    const hook = JSON.parse((await runCli(['webhooks', 'create', ...F, '--name', 'issues', '--json'], live.env)).stdout) as {
      uid: string;
      secret: string;
      ingress_url: string;
    };
    const renamed = await runCli(['webhooks', 'update', ...F, hook.uid, '--name', 'gh-issues', '--delivery-id-header', 'X-Event-Id'], live.env);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toMatch(/^delivery_id_header:\s+X-Event-Id$/m);
    expect((await runCli(['webhooks', 'get', ...F, hook.uid], live.env)).stdout).toMatch(/^name:\s+gh-issues$/m);
    const rotated = await runCli(['webhooks', 'rotate-secret', ...F, hook.uid, '--json'], live.env);
    expect(rotated.stderr).toContain('shown only now');
    expect((JSON.parse(rotated.stdout) as { secret: string }).secret).not.toBe(hook.secret);
    expect((await runCli(['webhooks', 'delete', ...F, hook.uid], live.env)).stdout).toBe(`deleted webhook ${hook.uid}\n`);
  });

  it('the factory side: automations, deliveries and test-filter (saved and draft)', async () => {
    const F = ['--factory', await createFactory('cli-automations', 'api')];
    const { secret, ...hook } = (await api('POST', `/factories/${F[1]}/webhooks`, {
      name: 'gh-issues',
      delivery_id_header: 'X-Event-Id',
    })) as { uid: string; secret: string; ingress_url: string };

    // Automations: create, list, get.
    const automationOut = await runCli(
      ['automations', 'create', ...F, '--name', 'triage', '--prompt', 'Triage it.', '--webhook', hook.uid, '--filter', '{action: [opened]}', '--json'],
      live.env,
    );
    expect(automationOut.stderr).toBe('');
    const automation = JSON.parse(automationOut.stdout) as { uid: string; selected_webhooks: Array<{ state: string }> };
    expect(automation.selected_webhooks).toEqual([expect.objectContaining({ state: 'enabled' })]);
    const automations = await runCli(['automations', 'list', ...F], live.env);
    expect(automations.stdout).toMatch(new RegExp(`^${automation.uid}\\s+triage\\s+yes\\s+gh-issues\\s+`, 'm'));
    expect((await runCli(['automations', 'get', ...F, automation.uid], live.env)).stdout).toMatch(
      new RegExp(`^triggers:\\s+${hook.uid}  payload \\{"action":\\["opened"\\]\\}$`, 'm'),
    );

    // Two deliveries: "opened" starts a run through the automation, "closed" does not.
    for (const [id, action] of [
      ['evt-opened', 'opened'],
      ['evt-closed', 'closed'],
    ]) {
      const response = await fetch(hook.ingress_url, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-event-id': id! },
        body: JSON.stringify({ action }),
      });
      expect(response.status).toBe(202);
    }
    const deliveries = await runCli(['deliveries', 'list', ...F, hook.uid, '--json'], live.env);
    const page = JSON.parse(deliveries.stdout) as { deliveries: Array<{ delivery_id: string; identity: string }> };
    const closed = page.deliveries.find((delivery) => delivery.identity === 'evt-closed')!.delivery_id;
    const delivery = await runCli(['deliveries', 'get', ...F, hook.uid, closed], live.env);
    expect(delivery.stdout).toMatch(/^payload:\s+\{\n\s+"action": "closed"\n\s+\}$/m);

    // test-filter: the saved automation would not trigger on "closed"; a draft filter on "closed" would.
    const saved = await runCli(['automations', 'test-filter', ...F, automation.uid, '--delivery', closed], live.env);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toMatch(/^result:\s+Would not trigger$/m);
    expect(saved.stdout).toMatch(/^payload_check:\s+failed at \$\.action: /m);
    const draft = await runCli(['automations', 'test-filter', ...F, '--delivery', closed, '--webhook', hook.uid, '--filter', '{"action": "closed"}'], live.env);
    expect(draft.stdout).toMatch(/^result:\s+Would trigger$/m);

    // Replay: nothing for "closed" until the automation's filter says so.
    expect((await runCli(['deliveries', 'replay', ...F, hook.uid, closed], live.env)).stdout).toContain('matched no automation');
    const updated = await runCli(['automations', 'update', ...F, automation.uid, '--webhook', hook.uid, '--filter', '{action: closed}'], live.env);
    expect(updated.code).toBe(0);
    const replayed = await runCli(['deliveries', 'replay', ...F, hook.uid, closed, '--json'], live.env);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ runs: [expect.objectContaining({ automation_id: automation.uid })] });

    // Disable, delete.
    expect((await runCli(['automations', 'disable', ...F, automation.uid], live.env)).stdout).toBe(`automation ${automation.uid} disabled\n`);
    const deleted = await runCli(['automations', 'delete', ...F, automation.uid, '--json'], live.env);
    expect(JSON.parse(deleted.stdout)).toEqual({ uid: automation.uid, deleted: true });
    expect((await runCli(['automations', 'list', ...F], live.env)).stdout).toBe('no automations\n');
  });

  /** Calls the API directly, for the setup the CLI has no command for. */
  async function api(method: string, urlPath: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${live.server.apiUrl}${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${live.server.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${urlPath} → ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  }

  async function createFactory(name: string, definitionSource: 'api' | 'files'): Promise<string> {
    const factory = (await api('POST', '/factories', { name, definition_source: definitionSource })) as { uid: string };
    return factory.uid;
  }
});
