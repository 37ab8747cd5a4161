/**
 * Write-only is write-only, through the public HTTP API (docs/decisions.md §Write-only environment
 * variables and the setup log): a member who starts a run with an environment of the team cannot read its
 * secret variables — not in the agent's environment, not from a process setup left running, not through a
 * failing setup command's output (which goes to the admin-only setup log, scrubbed). And the sandbox's
 * /proc/sys is read-only, and no process the sandbox shows carries a host path (docs/sandbox.md).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { sandboxAvailable } from '../support/sandbox';
import { defaultTeamMemberKey, startTestServer, type TestServer } from '../support/server';
import { restClient, type RestClient } from '../webhooks/helpers';

const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
/** The command runner executes the prompt's lines between these markers as a shell script. */
const AGENT_COMMAND = "sed -n '/^#!begin$/,/^#!end$/p' | /bin/sh";
const script = (lines: string[]) => `#!begin\n${lines.join('\n')}\n#!end`;
const reversed = (text: string) => [...text].reverse().join('');

const databases = testDatabases();
for (const kind of databases) {
  describe.skipIf(!sandboxAvailable)(`write-only secrets (${kind.dialect})`, () => {
    const secret = `tok-${randomBytes(12).toString('hex')}`;
    let server: TestServer;
    let admin: RestClient;
    let member: RestClient;

    beforeAll(async () => {
      server = await startTestServer({ database: kind, env: { RUNNER: 'command', AGENT_COMMAND, WORKER_CONCURRENCY: '2' } });
      admin = restClient(server, server.adminKey);
      member = restClient(server, await defaultTeamMemberKey(server));
    }, 60_000);

    afterAll(async () => {
      await server?.close();
    });

    async function runToEnd(client: RestClient, body: Record<string, unknown>) {
      const created = await client.post('/agent/runs', body);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const runId = created.body.run_id as string;
      const deadline = Date.now() + 30_000;
      let run: any;
      do {
        await delay(50);
        run = (await client.get(`/agent/runs/${runId}`)).body;
      } while (!TERMINAL.includes(run.state) && Date.now() < deadline);
      const conversation = JSON.stringify((await client.get(`/agent/runs/${runId}/conversation`)).body);
      return { run, conversation, runId };
    }

    async function environment(setupCommands: string[]): Promise<string> {
      const created = await admin.post('/agent/environments', {
        name: `secrets-${randomBytes(4).toString('hex')}`,
        setup_commands: setupCommands,
        env_vars: { SECRET_TOKEN: secret },
        plain_env_vars: { PLAIN_SETTING: 'plain-value' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.uid as string;
    }

    const leaks = (text: string) => [secret, reversed(secret), Buffer.from(secret).toString('base64').replace(/=+$/, '')].filter((form) => text.includes(form));

    it("a member's run sees the environment's secret variables in setup only, and nothing setup left running; plain ones everywhere", async () => {
      const environmentId = await environment([
        'test -n "$SECRET_TOKEN" && echo "seen with $PLAIN_SETTING" > setup-saw-the-secret.txt',
        // A process left behind that would keep handing the secret to the agent's workspace.
        '(while :; do echo "$SECRET_TOKEN" > late.txt; sleep 0.05; done) </dev/null >/dev/null 2>&1 &',
      ]);
      const { run, conversation, runId } = await runToEnd(member, {
        prompt: script([
          'echo "token:$(echo $SECRET_TOKEN | rev):end plain:$PLAIN_SETTING"',
          'cat setup-saw-the-secret.txt',
          'env; cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null | tr "\\0" "\\n"',
          // late.txt exists once (setup wrote it); removed, nothing may write it again.
          'rm -f late.txt; sleep 1; cat late.txt 2>&1; ls /tmp',
        ]),
        config: { environment_id: environmentId },
      });
      expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
      expect(conversation).toContain('token::end plain:plain-value');
      expect(conversation).toContain('seen with plain-value');
      // Plain variables are readable by whoever prompts the run, as documented; secrets only by name.
      const shown = await member.get(`/agent/environments/${environmentId}`);
      expect(shown.body).toMatchObject({ env_var_names: ['SECRET_TOKEN'], plain_env_vars: { PLAIN_SETTING: 'plain-value' } });
      expect(leaks(JSON.stringify(shown.body))).toEqual([]);

      // A follow-up sets the environment up again: its commands are logged after the first execution's.
      expect((await member.post(`/agent/runs/${runId}/followups`, { message: script(['echo "again:$SECRET_TOKEN:"']) })).status).toBe(200);
      const deadline = Date.now() + 30_000;
      let entries: Array<{ position: number }> = [];
      let state = '';
      do {
        await delay(50);
        entries = (await admin.get(`/agent/runs/${runId}/setup-log`)).body.entries;
        state = (await member.get(`/agent/runs/${runId}`)).body.state;
      } while ((entries.length < 4 || !TERMINAL.includes(state)) && Date.now() < deadline);
      expect(state).toBe('SUCCEEDED');
      expect(entries.map((e) => e.position)).toEqual([1, 2, 1, 2]);
      const resumed = JSON.stringify((await member.get(`/agent/runs/${runId}/conversation`)).body);
      expect(resumed).toContain('again::');
      expect(leaks(resumed)).toEqual([]);
      expect(conversation).toContain('late.txt: No such file or directory');
      expect(leaks(conversation)).toEqual([]);
    });

    it("a failing setup command's output reaches the admin-only setup log, scrubbed, and never the status message", async () => {
      const environmentId = await environment(['echo first-ok', 'echo "$SECRET_TOKEN" | base64; echo "plain $SECRET_TOKEN"; echo "why it failed" >&2; exit 7']);
      const { run, runId } = await runToEnd(member, { prompt: script(['echo never']), config: { environment_id: environmentId } });
      expect(run.state).toBe('FAILED');
      expect(run.status_message).toMatchObject({ error_code: 'environment_setup_failed', retryable: false });
      expect(run.status_message.message).toContain('setup command 2 of 2 exited with code 7');
      expect(run.status_message.message).not.toContain('why it failed');
      expect(leaks(JSON.stringify(run))).toEqual([]);
      const listed = await member.get(`/agent/runs?limit=50`);
      expect(leaks(JSON.stringify(listed.body))).toEqual([]);

      const refused = await member.get(`/agent/runs/${runId}/setup-log`);
      expect(refused.status).toBe(403);
      expect(refused.body.type).toContain('not_authorized');

      const log = await admin.get(`/agent/runs/${runId}/setup-log`);
      expect(log.status, JSON.stringify(log.body)).toBe(200);
      expect(log.body.run_id).toBe(runId);
      expect(log.body.entries).toHaveLength(2);
      expect(log.body.entries[0]).toMatchObject({
        environment_id: environmentId,
        position: 1,
        command_count: 2,
        command: 'echo first-ok',
        exit_code: 0,
        output: 'first-ok\n',
      });
      const failed = log.body.entries[1];
      expect(failed).toMatchObject({ position: 2, exit_code: 7, result: 'exited with code 7', output_truncated: false });
      expect(failed.output).toContain('why it failed');
      expect(failed.output).toContain('plain ***');
      expect(leaks(JSON.stringify(log.body))).toEqual([]);

      const missing = await admin.get(`/agent/runs/${randomBytes(16).toString('hex')}/setup-log`);
      expect(missing.status).toBe(404);
      const otherTeam = await server.createTeamWithKey(`other-${randomBytes(3).toString('hex')}`);
      const foreign = await restClient(server, otherTeam.apiKey).get(`/agent/runs/${runId}/setup-log`);
      expect(foreign.status).toBe(404);
    });

    it.runIf(kind === databases[0])("the sandbox's /proc/sys is read-only and its processes show no host path", async () => {
      const dataDir = server.ctx.settings.dataDir;
      const { run, conversation, runId } = await runToEnd(member, {
        prompt: script([
          'echo changed > /proc/sys/kernel/hostname; echo "hostname-write rc=$?"',
          'echo "hostname=$(hostname)"',
          'echo "pid1=$(tr "\\0" " " < /proc/1/cmdline)"',
          'for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline; echo; tr "\\0" " " < $p/environ 2>/dev/null; echo; done',
        ]),
      });
      expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
      expect(conversation).toMatch(/hostname-write rc=[1-9]/);
      expect(conversation).toContain('Read-only file system');
      expect(conversation).toContain('hostname=sandbox');
      expect(conversation).toMatch(/pid1=\S*bwrap --args 3 -- /);
      for (const hostPath of [dataDir, `${dataDir}/runs/${runId}`, `${os.tmpdir()}/agent-runs-egress-`]) expect(conversation).not.toContain(hostPath);
    });
  });
}
