/**
 * Hostile tenants, through the public HTTP API only (docs/sandbox.md): a member's prompt executed by
 * AGENT_COMMAND, an admin's environment setup commands and a member's stdio MCP server each try to read
 * the server's secrets and database, its environment, another run's workspace; to write outside their
 * workspace; to reach the server's own port and another local service; to exhaust memory, processes and
 * time. Every attempt fails, while a legitimate webhook-started run in the same world writes its
 * workspace, reads its event-payload.json, reaches the one allow-listed local host, and succeeds.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/api-keys/service';
import { FakeModel } from '../agent/support/fake-model';
import { testDatabases } from '../support/databases';
import { sandboxAvailable, withRunWorkspace } from '../support/sandbox';
import { defaultTeamMemberKey, startTestServer, type TestServer } from '../support/server';
import { restClient, send, type RestClient } from '../webhooks/helpers';

const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
/** The command runner executes only the lines between these markers of a prompt, as a shell script. */
const AGENT_COMMAND = "sed -n '/^#!begin$/,/^#!end$/p' | /bin/sh";
const script = (lines: string) => `#!begin\n${lines}\n#!end`;

/** A local HTTP service that records who reached it. */
async function localService(answer: string) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { hits, port, url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

for (const kind of testDatabases()) {
  describe.skipIf(!sandboxAvailable)(`hostile tenants (${kind.dialect})`, () => {
    const canary = `canary-${randomBytes(12).toString('hex')}`;
    let internal: Awaited<ReturnType<typeof localService>>;
    let allowed: Awaited<ReturnType<typeof localService>>;
    let model: FakeModel;
    let server: TestServer;
    let admin: RestClient;
    let member: RestClient;
    let dataDir: string;
    let databaseFile: string;

    beforeAll(async () => {
      internal = await localService(`INTERNAL-${canary}`);
      allowed = await localService('hello-from-the-allowed-host');
      model = await FakeModel.start();
      // The server's own environment carries a secret no run may see.
      process.env.AGENT_RUNS_TEST_CANARY = canary;
      server = await startTestServer({
        database: kind,
        env: {
          RUNNER: 'command',
          AGENT_COMMAND,
          SANDBOX_ALLOWED_HOSTS: `127.0.0.1:${allowed.port}`,
          SANDBOX_MEMORY_MB: '96',
          SANDBOX_MAX_PROCESSES: '48',
          SANDBOX_CPU_SECONDS: '2',
          SANDBOX_OUTPUT_BYTES: '200000',
          WORKER_CONCURRENCY: '2',
        },
      });
      dataDir = server.ctx.settings.dataDir;
      databaseFile = server.ctx.settings.databaseUrl.startsWith('sqlite:')
        ? server.ctx.settings.databaseUrl.slice('sqlite:'.length)
        : path.join(dataDir, 'none.sqlite');
      // What SQLite deployments keep beside the database: the key that decrypts every team's secrets.
      fs.writeFileSync(path.join(dataDir, 'secrets.key'), `${canary}\n`, { mode: 0o600 });
      admin = restClient(server, server.adminKey);
      member = restClient(server, await defaultTeamMemberKey(server));
    }, 60_000);

    afterAll(async () => {
      delete process.env.AGENT_RUNS_TEST_CANARY;
      await server?.close();
      await Promise.all([internal?.close(), allowed?.close(), model?.close()]);
    });

    async function runToEnd(client: RestClient, body: Record<string, unknown>, timeoutMs = 20_000) {
      const created = await client.post('/agent/runs', body);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const runId = created.body.run_id as string;
      const deadline = Date.now() + timeoutMs;
      let run: any;
      do {
        await delay(50);
        run = (await client.get(`/agent/runs/${runId}`)).body;
      } while (!TERMINAL.includes(run.state) && Date.now() < deadline);
      const conversation = (await client.get(`/agent/runs/${runId}/conversation`)).body;
      const output = JSON.stringify(conversation);
      return { run, output, runId };
    }

    const nothingLeaked = (text: string) => {
      expect(text).not.toContain(canary);
      expect(text).not.toContain('INTERNAL-');
    };

    it("a member's prompt run by AGENT_COMMAND cannot read the server's secrets, database, environment or another run's workspace", async () => {
      const other = await runToEnd(member, { prompt: script(`echo "${canary}-other-run" > private.txt; echo wrote`) });
      expect(other.run.state).toBe('SUCCEEDED');
      const otherWorkspace = path.join(dataDir, 'runs', other.runId);
      expect(await withRunWorkspace(server.ctx, other.runId, (dir) => fs.readFileSync(path.join(dir, 'private.txt'), 'utf8'))).toContain('-other-run');

      const { run, output } = await runToEnd(member, {
        prompt: script(
          [
            `cat ${dataDir}/secrets.key ../../secrets.key ../secrets.key 2>&1`,
            `cat ${databaseFile} 2>&1 | head -c 100`,
            `ls ${dataDir} ${otherWorkspace} 2>&1; cat ${otherWorkspace}/private.txt 2>&1`,
            'ls -a .. / 2>&1',
            'cat /proc/1/environ /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | sort -u',
            'env',
            'ls /root /home /work 2>&1',
            'id -u',
          ].join('\n'),
        ),
      });
      expect(run.state).toBe('SUCCEEDED');
      nothingLeaked(output);
      expect(output).not.toContain('-other-run');
      expect(output).not.toContain('SQLite format');
      expect(output).toContain('No such file or directory');
      expect(output).toContain('1000'); // an unprivileged uid inside
      expect(output).not.toMatch(/SECRETS_KEY|DATABASE_URL|BOOTSTRAP_ADMIN_KEY|TEST_POSTGRES_URL/);
    });

    it('a run cannot write outside its workspace; its /tmp is its own', async () => {
      const hostTmpMarker = `/tmp/${canary}-written-by-a-run`;
      const { run, output } = await runToEnd(member, {
        prompt: script(
          [
            'touch /usr/x /etc/x /x /proc/x 2>&1 | sed "s/^/refused: /"',
            `echo hi > ${hostTmpMarker} && echo private-tmp-ok`,
            `echo mine > ${dataDir}/planted 2>&1 | sed "s/^/refused: /"`,
            'echo ok > in-workspace.txt && cat in-workspace.txt',
          ].join('\n'),
        ),
      });
      expect(run.state).toBe('SUCCEEDED');
      expect(output.match(/refused: /g)?.length).toBeGreaterThanOrEqual(5);
      expect(output).toContain('private-tmp-ok');
      expect(fs.existsSync(hostTmpMarker)).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'planted'))).toBe(false);
    });

    it('a symlink a run plants in its workspace never makes the server write to the host', async () => {
      const hostFile = `/tmp/${canary}-host-file`;
      fs.writeFileSync(hostFile, 'original');
      const attachment = { file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('attached').toString('base64') };
      const first = await runToEnd(member, { prompt: script(`rm -f notes.txt; ln -s ${hostFile} notes.txt; echo planted`), attachments: [attachment] });
      expect(first.run.state).toBe('SUCCEEDED');
      // A follow-up runs the command again, and the server writes the attachments into the workspace anew.
      const followup = await member.post(`/agent/runs/${first.runId}/followups`, { message: script('cat notes.txt') });
      expect(followup.status, JSON.stringify(followup.body)).toBe(200);
      const deadline = Date.now() + 20_000;
      let run: any;
      do {
        await delay(50);
        run = (await member.get(`/agent/runs/${first.runId}`)).body;
      } while (
        (run.state !== 'SUCCEEDED' || !JSON.stringify((await member.get(`/agent/runs/${first.runId}/conversation`)).body).includes('attached')) &&
        Date.now() < deadline
      );
      expect(run.state).toBe('SUCCEEDED');
      expect(fs.readFileSync(hostFile, 'utf8')).toBe('original');
      fs.rmSync(hostFile);
    });

    it("a run cannot reach the server's own port or another local service, with or without the proxy", async () => {
      const serverPort = new URL(server.baseUrl).port;
      const direct = await runToEnd(member, {
        prompt: script(
          [
            `curl -s -m 3 --noproxy '*' http://127.0.0.1:${serverPort}/healthz; echo "direct-server rc=$?"`,
            `curl -s -m 3 --noproxy '*' ${internal.url}/internal; echo "direct-internal rc=$?"`,
          ].join('\n'),
        ),
      });
      expect(direct.run.state).toBe('SUCCEEDED');
      expect(direct.output).toMatch(/direct-server rc=[1-9]/);
      expect(direct.output).toMatch(/direct-internal rc=[1-9]/);

      const proxied = await runToEnd(member, { prompt: script(`curl -s -m 3 ${internal.url}/internal; echo "proxied rc=$?"`) });
      expect(proxied.run.state).toBe('FAILED');
      expect(proxied.run.status_message).toMatchObject({ error_code: 'egress_denied', message: expect.stringContaining(`127.0.0.1:${internal.port}`) });
      nothingLeaked(JSON.stringify(proxied));
      expect(internal.hits).toEqual([]);
    });

    it('exhausting memory, processes, CPU, output or time ends the run FAILED with the limit, and the server stays responsive', async () => {
      const cases: Array<[string, string, Record<string, unknown>?]> = [
        ['memory_limit', `awk 'BEGIN { s = "x"; while (1) s = s s }'`],
        ['process_limit', 'for i in $(seq 1 200); do sleep 20 & done; wait'],
        ['cpu_time_limit', 'while :; do :; done'],
        ['output_limit', 'yes flood'],
        ['run_timeout', 'sleep 30', { run_timeout_seconds: 1 }],
      ];
      const results = await Promise.all(
        cases.map(async ([code, lines, config]) => {
          const ended = await runToEnd(member, { prompt: script(lines), ...(config ? { config } : {}) });
          return { code, ended };
        }),
      );
      for (const { code, ended } of results) {
        expect(ended.run.state, code).toBe('FAILED');
        expect(ended.run.status_message?.error_code, JSON.stringify(ended.run.status_message)).toBe(code);
      }
      const started = Date.now();
      const health = await fetch(`${server.baseUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
    }, 60_000);

    it("an admin's environment setup commands are sandboxed like the agent", async () => {
      const env = await admin.post('/agent/environments', {
        name: `hostile-${randomBytes(3).toString('hex')}`,
        setup_commands: [`cat ${dataDir}/secrets.key ../../secrets.key 2>&1; env; ls ${dataDir} 2>&1; exit 3`],
        env_vars: { TOOL_TOKEN: 'tool-token-value' },
      });
      expect(env.status, JSON.stringify(env.body)).toBe(201);
      const { run, runId } = await runToEnd(member, { prompt: script('echo never'), config: { environment_id: env.body.uid } });
      expect(run.state).toBe('FAILED');
      expect(run.status_message.error_code).toBe('environment_setup_failed');
      nothingLeaked(JSON.stringify(run));
      expect(JSON.stringify(run)).not.toContain('tool-token-value');
      // What it printed is the admins' to read, its own variables scrubbed.
      const setupLog = await admin.get(`/agent/runs/${runId}/setup-log`);
      expect(setupLog.body.entries[0].output).toContain('No such file or directory');
      expect(setupLog.body.entries[0].output).toContain('TOOL_TOKEN=***');
      nothingLeaked(JSON.stringify(setupLog.body));
      expect(JSON.stringify(setupLog.body)).not.toContain('tool-token-value');

      const egress = await admin.post('/agent/environments', {
        name: `hostile-net-${randomBytes(3).toString('hex')}`,
        setup_commands: [`curl -s -m 3 ${internal.url}/from-setup`],
      });
      const denied = await runToEnd(member, { prompt: script('echo never'), config: { environment_id: egress.body.uid } });
      expect(denied.run.state).toBe('FAILED');
      expect(denied.run.status_message.error_code).toBe('egress_denied');
      expect(internal.hits).toEqual([]);
    });

    it('a legitimate webhook-started run writes its workspace, reads event-payload.json, reaches the allow-listed host and succeeds', async () => {
      const factory = await admin.createFactory(`legit-${randomBytes(3).toString('hex')}`);
      const hook = await admin.createWebhook(factory, { name: `legit-${randomBytes(3).toString('hex')}` });
      const automation = await admin.post(`/factories/${factory}/automations`, {
        name: `legit-${randomBytes(3).toString('hex')}`,
        prompt: script(
          [
            'set -e',
            'echo "build log" > result.txt',
            'grep -o \'"order":[0-9]*\' event-payload.json',
            `curl -s -m 5 ${allowed.url}/ok`,
            'echo; cat result.txt',
          ].join('\n'),
        ),
        triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [hook.uid] } }],
      });
      expect(automation.status, JSON.stringify(automation.body)).toBe(201);
      const delivered = await send(hook.ingress_url, JSON.stringify({ order: 4242 }), { headers: { authorization: `Bearer ${hook.secret as string}` } });
      expect(delivered.status).toBe(202);

      let runId: string | undefined;
      const deadline = Date.now() + 20_000;
      let run: any;
      while (Date.now() < deadline) {
        const runs = (await admin.get(`/agent/runs?automation_id=${automation.body.uid as string}`)).body.runs as any[];
        runId ??= runs[0]?.run_id;
        if (runId) {
          run = (await admin.get(`/agent/runs/${runId}`)).body;
          if (TERMINAL.includes(run.state)) break;
        }
        await delay(50);
      }
      expect(run?.state, JSON.stringify(run)).toBe('SUCCEEDED');
      const output = JSON.stringify((await admin.get(`/agent/runs/${runId}/conversation`)).body);
      expect(output).toContain('\\"order\\":4242');
      expect(output).toContain('hello-from-the-allowed-host');
      expect(output).toContain('build log');
      expect(allowed.hits).toContain('GET /ok');
      expect(await withRunWorkspace(server.ctx, runId!, (dir) => fs.readFileSync(path.join(dir, 'result.txt'), 'utf8'))).toBe('build log\n');
    });

    describe("a member's stdio MCP server", () => {
      let modelServer: TestServer;
      let modelMember: RestClient;

      beforeAll(async () => {
        modelServer = await startTestServer({
          database: kind,
          env: {
            RUNNER: 'model',
            MODEL_BASE_URL: model.url,
            DEFAULT_MODEL_ID: 'fake-model',
            SANDBOX_ALLOWED_HOSTS: `127.0.0.1:${model.url.split(':')[2]!.split('/')[0]}`,
          },
        });
        const team = await modelServer.ctx.db.selectFrom('teams').select('id').where('name', '=', 'default').executeTakeFirstOrThrow();
        const key = await createApiKey(modelServer.ctx.db, modelServer.ctx.clock, { teamId: team.id, name: 'member', role: 'member', createdBy: 'operator' });
        modelMember = restClient(modelServer, key.api_key);
        fs.writeFileSync(path.join(modelServer.ctx.settings.dataDir, 'secrets.key'), `${canary}\n`, { mode: 0o600 });
      }, 60_000);
      afterAll(async () => {
        await modelServer?.close();
      });

      it('runs sandboxed: it cannot read the secrets key or the server environment, and whatever it prints is all the run learns', async () => {
        const modelDataDir = modelServer.ctx.settings.dataDir;
        const { run } = await runToEnd(modelMember, {
          prompt: 'use the tools',
          config: {
            mcp_servers: {
              x: {
                command: 'sh',
                args: ['-c', `id -u >&2; head -c 60 ${modelDataDir}/secrets.key ../../secrets.key >&2; cat /proc/1/environ | tr "\\0" " " >&2; exit 1`],
              },
            },
          },
        });
        expect(run.state).toBe('FAILED');
        expect(run.status_message.error_code).toBe('integration_not_configured');
        expect(run.status_message.message).toContain('No such file or directory');
        expect(run.status_message.message).toContain('1000');
        nothingLeaked(JSON.stringify(run));
      });

      it('cannot reach a private address through the proxy: the run FAILS egress_denied', async () => {
        const { run } = await runToEnd(modelMember, {
          prompt: 'use the tools',
          config: { mcp_servers: { y: { command: 'sh', args: ['-c', `curl -s -m 3 ${internal.url}/from-mcp >&2; sleep 5`] } } },
        });
        expect(run.state).toBe('FAILED');
        expect(run.status_message).toMatchObject({ error_code: 'egress_denied', message: expect.stringContaining(`127.0.0.1:${internal.port}`) });
        expect(internal.hits).toEqual([]);
      });

      it('an MCP `url` server on an internal address is never contacted, and no answer is reflected', async () => {
        const { run } = await runToEnd(modelMember, {
          prompt: 'use the tools',
          config: { mcp_servers: { z: { url: `${internal.url}/internal`, headers: { 'X-Forwarded-For': '10.0.0.1' } } } },
        });
        expect(run.state).toBe('FAILED');
        expect(run.status_message.error_code).toBe('egress_denied');
        nothingLeaked(JSON.stringify(run));
        expect(internal.hits).toEqual([]);
      });
    });
  });
}
