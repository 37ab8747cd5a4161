/**
 * Environment images through the public API (docs/sandbox.md §Image root), with a real registry on
 * loopback, images built offline and pushed with skopeo, runs executed by AGENT_COMMAND in bubblewrap:
 * a run in image X sees X's files and not the host's, with X's PATH; the digest is recorded on the run
 * and in its events; a private image works with a registry secret that nothing inside can read; two
 * concurrent runs pull once; a missing image, a refused registry, bad credentials and a corrupt layer end
 * the run FAILED `image_unavailable` and mark the environment `setup_failed`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { buildTestImage, imageToolsAvailable, pushTestImage, startTestRegistry, type TestImage, type TestRegistry } from '../support/registry';
import { sandboxAvailable } from '../support/sandbox';
import { defaultTeamMemberKey, startTestServer, type TestServer } from '../support/server';
import { restClient, type RestClient } from '../webhooks/helpers';

const TERMINAL = ['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'];
/** The command runner executes the lines between these markers of a prompt, as a shell script (busybox sed and sh of the image). */
const AGENT_COMMAND = "sed -n '/^#!begin$/,/^#!end$/p' | sh";
const script = (lines: string) => `#!begin\n${lines}\n#!end`;
const AUTH = { user: 'puller', password: `registry-password-${randomBytes(8).toString('hex')}` };

for (const kind of testDatabases()) {
  describe.skipIf(!sandboxAvailable || !imageToolsAvailable)(`environment images (${kind.dialect})`, () => {
    const marker = `image-marker-${randomBytes(6).toString('hex')}`;
    let registry: TestRegistry;
    let privateRegistry: TestRegistry;
    let server: TestServer;
    let admin: RestClient;
    let member: RestClient;
    const images: TestImage[] = [];
    let publicRef: string;
    let privateRef: string;
    let sharedImage: TestImage;
    let sharedRef: string;

    beforeAll(async () => {
      [registry, privateRegistry] = await Promise.all([startTestRegistry(), startTestRegistry({ auth: AUTH })]);
      const x = buildTestImage({
        files: { 'etc/marker': marker, 'opt/tools/hello': '#!/bin/sh\necho hello-from-image-tool\n' },
        executables: ['opt/tools/hello'],
        env: ['PATH=/opt/tools:/bin', 'IMAGE_GREETING=from-image'],
        workingDir: '/srv',
      });
      const privateImage = buildTestImage({ files: { 'etc/private-marker': `private-${marker}` } });
      sharedImage = buildTestImage({ files: { 'etc/shared': 'shared' } });
      images.push(x, privateImage, sharedImage);
      publicRef = pushTestImage(x, registry, 'team/x:1');
      privateRef = pushTestImage(privateImage, privateRegistry, 'team/private:1', AUTH);
      sharedRef = pushTestImage(sharedImage, registry, 'team/shared:1');
      server = await startTestServer({
        database: kind,
        env: {
          RUNNER: 'command',
          AGENT_COMMAND,
          WORKER_CONCURRENCY: '2',
          // Plain HTTP to both loopback registries; `localhost` is listed by name, which never opens a loopback address.
          IMAGE_REGISTRIES: `http://${registry.host},http://${privateRegistry.host},localhost:1`,
        },
      });
      admin = restClient(server, server.adminKey);
      member = restClient(server, await defaultTeamMemberKey(server));
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await Promise.all([registry?.close(), privateRegistry?.close()]);
      for (const image of images) image.remove();
    });

    async function environment(body: Record<string, unknown>): Promise<string> {
      const created = await admin.post('/agent/environments', { name: `img-${randomBytes(4).toString('hex')}`, ...body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.uid as string;
    }

    async function runToEnd(environmentId: string, lines: string) {
      const created = await member.post('/agent/runs', { prompt: script(lines), config: { environment_id: environmentId } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      return waitForEnd(created.body.run_id as string);
    }

    async function waitForEnd(runId: string) {
      let run: any;
      for (let i = 0; i < 600; i++) {
        run = (await member.get(`/agent/runs/${runId}`)).body;
        if (TERMINAL.includes(run.state)) break;
        await delay(50);
      }
      const output = JSON.stringify((await member.get(`/agent/runs/${runId}/conversation`)).body);
      const events = await server.ctx.db.selectFrom('run_events').select(['kind', 'data']).where('run_id', '=', runId).orderBy('seq').execute();
      return { run, output, events: events.map((e) => JSON.parse(e.data) as Record<string, any>) };
    }

    it("a run in an image sees the image's files, PATH and variables, not the host's, and records the digest", async () => {
      const env = await environment({ docker_image: publicRef, setup_commands: ['cat /etc/marker > from-setup.txt'] });
      const answer = await admin.get(`/agent/environments/${env}`);
      expect(answer.body.config.docker_image).toBe(publicRef);
      const { run, output, events } = await runToEnd(
        env,
        [
          'echo "marker=$(cat /etc/marker) setup=$(cat from-setup.txt)"',
          'test -e /usr/bin/node && echo HOST-NODE-VISIBLE || echo no-host-node',
          'test -e /usr/lib/x86_64-linux-gnu/libc.so.6 && echo HOST-LIBC-VISIBLE || echo no-host-libc',
          'hello',
          'echo "path=$PATH greeting=$IMAGE_GREETING cwd=$(pwd) uid=$(id -u)"',
          'touch /bin/new 2>/dev/null && echo ROOT-WRITABLE || echo root-read-only',
          'echo tmp > /tmp/t && echo tmp-writable',
        ].join('\n'),
      );
      expect(run.state, JSON.stringify(run)).toBe('SUCCEEDED');
      const said = [`marker=${marker} setup=${marker}`, 'no-host-node', 'no-host-libc', 'hello-from-image-tool', 'root-read-only', 'tmp-writable'];
      for (const line of [...said, 'path=/opt/tools:/bin greeting=from-image cwd=/workspace uid=1000']) expect(output).toContain(line);
      expect(run.image_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(await server.ctx.images.entries()).toContain(run.image_digest);
      const statuses = events.map((e) => e.status_message?.message as string | undefined).filter(Boolean);
      expect(statuses).toContain(`running in image ${publicRef} (${run.image_digest})`);
      expect((await admin.get(`/agent/environments/${env}`)).body.setup_failed).toBe(false);
    }, 60_000);

    it('a private image works with a registry secret that nothing inside the run can read', async () => {
      expect((await admin.put('/secrets/REGISTRY_CREDS', { value: `${AUTH.user}:${AUTH.password}` })).status).toBe(200);
      const env = await environment({ docker_image: privateRef, registry_secret_name: 'REGISTRY_CREDS', setup_commands: ['env > setup-env.txt'] });
      const { run, output } = await runToEnd(
        env,
        [
          'cat /etc/private-marker',
          'env',
          'cat setup-env.txt',
          'grep -rs "registry-password" / --exclude-dir=proc --exclude-dir=sys && echo FOUND-IT || echo not-found',
        ].join('\n'),
      );
      expect(run.state, JSON.stringify(run)).toBe('SUCCEEDED');
      expect(output).toContain(`private-${marker}`);
      expect(output).toContain('not-found');
      expect(output).not.toContain(AUTH.password);
      expect(JSON.stringify(run)).not.toContain(AUTH.password);

      expect((await admin.put('/secrets/WRONG_CREDS', { value: `${AUTH.user}:not-the-password` })).status).toBe(200);
      const wrong = await environment({ docker_image: privateRef, registry_secret_name: 'WRONG_CREDS' });
      const refused = await runToEnd(wrong, 'echo never');
      expect(refused.run.state).toBe('FAILED');
      expect(refused.run.status_message.error_code).toBe('image_unavailable');
      expect(refused.run.status_message.message).toContain(`Image ${privateRef} is unavailable: the registry refused access`);
      expect(JSON.stringify(refused.run)).not.toContain('not-the-password');
      expect((await admin.get(`/agent/environments/${wrong}`)).body.setup_failed).toBe(true);

      const anonymous = await environment({ docker_image: privateRef });
      expect((await runToEnd(anonymous, 'echo never')).run.status_message.error_code).toBe('image_unavailable');
    }, 60_000);

    it('two runs that need the same image at once pull it once', async () => {
      const env = await environment({ docker_image: sharedRef });
      const [a, b] = await Promise.all([
        member.post('/agent/runs', { prompt: script('cat /etc/shared'), config: { environment_id: env } }),
        member.post('/agent/runs', { prompt: script('cat /etc/shared'), config: { environment_id: env } }),
      ]);
      const [first, second] = await Promise.all([waitForEnd(a.body.run_id), waitForEnd(b.body.run_id)]);
      expect([first.run.state, second.run.state]).toEqual(['SUCCEEDED', 'SUCCEEDED']);
      expect(first.run.image_digest).toBe(second.run.image_digest);
      for (const layer of sharedImage.layers()) expect(registry.blobFetches(layer)).toBe(1);
    }, 60_000);

    it('a missing image, a refused registry and a corrupt layer end the run FAILED image_unavailable', async () => {
      const missing = await environment({ docker_image: `${registry.host}/team/never-pushed:1` });
      const gone = await runToEnd(missing, 'echo never');
      expect(gone.run.state).toBe('FAILED');
      expect(gone.run.status_message).toMatchObject({ error_code: 'image_unavailable', retryable: false });
      expect(gone.run.status_message.message).toBe(
        `Image ${registry.host}/team/never-pushed:1 is unavailable: the image is not in the registry (manifest unknown).`,
      );

      // A registry the operator did not list is refused when the environment is written.
      const unlisted = await admin.post('/agent/environments', { name: `img-${randomBytes(4).toString('hex')}`, docker_image: '10.1.2.3:5000/team/x:1' });
      expect(unlisted.status).toBe(400);
      expect(unlisted.body.errors[0].path).toBe('$.docker_image');
      expect(unlisted.body.detail).toContain('10.1.2.3:5000 is not allowed');
      // A listed name that resolves to a loopback address is refused when the run pulls.
      const byName = await environment({ docker_image: 'localhost:1/team/x:1' });
      const refused = await runToEnd(byName, 'echo never');
      expect(refused.run.status_message.error_code).toBe('image_unavailable');
      expect(refused.run.status_message.message).toContain('a loopback address');

      const corrupt = buildTestImage({ files: { 'etc/corrupt': 'soon' } });
      images.push(corrupt);
      const corruptRef = pushTestImage(corrupt, registry, 'team/corrupt:1');
      const layer = corrupt.layers()[0]!.slice('sha256:'.length);
      const blob = path.join(registry.storage, 'docker/registry/v2/blobs/sha256', layer.slice(0, 2), layer, 'data');
      const bytes = fs.readFileSync(blob);
      bytes[bytes.length - 10] = (bytes[bytes.length - 10]! + 1) % 256;
      fs.writeFileSync(blob, bytes);
      const broken = await runToEnd(await environment({ docker_image: corruptRef }), 'echo never');
      expect(broken.run.status_message.error_code).toBe('image_unavailable');
      expect(broken.run.status_message.message).toContain(`Image ${corruptRef} is unavailable: a layer is corrupt`);
    }, 60_000);
  });
}
