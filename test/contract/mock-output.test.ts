// What `pnpm mock` prints: one line when it is ready and one per request (method, path, status, time, and what
// was wrong with a refused request), not Prism's route list at start and its six lines per request.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM helper shared with the Python test runner
import { freePort } from '../../scripts/lib/services.mjs';

const repositoryRoot = path.resolve(__dirname, '../..');
const headers = { authorization: 'Bearer ar_live_example', 'content-type': 'application/json' };

describe('pnpm mock output', () => {
  let child: ChildProcess;
  let apiUrl: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const port = (await freePort()) as number;
    apiUrl = `http://127.0.0.1:${port}/api/v1`;
    child = spawn(process.execPath, [path.join(repositoryRoot, 'scripts/mock.mjs')], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let partial = '';
    await new Promise<void>((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`mock exited with ${code}`)));
      child.stdout!.on('data', (chunk: Buffer) => {
        const parts = (partial + chunk.toString('utf8')).split('\n');
        partial = parts.pop() ?? '';
        lines.push(...parts);
        if (lines.some((line) => line.startsWith('mock: '))) resolve();
      });
    });
  });
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('prints one line when ready, then one line per request', async () => {
    expect(lines).toEqual([`mock: the REST API on ${apiUrl} (webhook ingress and /healthz at the root)`]);

    expect((await fetch(`${apiUrl}/agent/runs?limit=2`, { headers })).status).toBe(200);
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[1]).toMatch(/^GET \/api\/v1\/agent\/runs\?limit=2 200 \d+ ms$/);

    const refused = await fetch(`${apiUrl}/agent/runs`, { method: 'POST', headers, body: '{"prompt": 5}' });
    expect(refused.status).toBe(400);
    await expect.poll(() => lines.length).toBe(3);
    expect(lines[2]).toMatch(/^POST \/api\/v1\/agent\/runs 400 \d+ ms The request is invalid: \$\.prompt: must be string\.$/);

    expect((await fetch(`${apiUrl}/no-such-thing`, { headers })).status).toBe(404);
    await expect.poll(() => lines.length).toBe(4);
    expect(lines[3]).toMatch(/^GET \/api\/v1\/no-such-thing 404 \d+ ms No such endpoint\.$/);
  });
});
