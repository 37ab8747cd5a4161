// The drift check (`pnpm generate:check`) must fail when a committed generated file no longer matches
// openapi/v1.yaml, and pass when it does. Runs the real script against a copy of the repository.
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repositoryRoot = path.resolve(__dirname, '../..');
const generatedTypes = 'packages/contract/src/generated/api.ts';

describe('generated-code drift check', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'drift-'));
    cpSync(path.join(repositoryRoot, 'openapi'), path.join(copy, 'openapi'), { recursive: true });
    cpSync(path.join(repositoryRoot, generatedTypes), path.join(copy, generatedTypes));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  const check = () => run(process.execPath, [path.join(repositoryRoot, 'scripts/generate.mjs'), '--check', '--skip-python', '--root', copy]);

  it('passes when the committed types match the contract', async () => {
    const { stdout } = await check();
    expect(stdout).toContain('up to date');
  });

  it('fails and names the file when a generated type file is stale', async () => {
    appendFileSync(path.join(copy, generatedTypes), '\nexport type Stale = true;\n');
    const failure = await check().then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(generatedTypes);
  });
});
