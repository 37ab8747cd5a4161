// `pnpm docs:build` writes an API reference that works offline: the Redoc bundle is inlined (no CDN script
// or stylesheet), a Content-Security-Policy keeps every other request in the page, telemetry is off, and the
// contract's operations are in it. Runs the root script's own command into a temporary directory.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repositoryRoot = path.resolve(__dirname, '../..');
const DEFAULT_OUTPUT = 'dist/docs/index.html';

describe('pnpm docs:build', () => {
  let dir: string;
  let html: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'docs-build-'));
    const script = (JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts['docs:build']!;
    const [command, ...args] = script.split(/\s+/);
    expect(command).toBe('redocly');
    expect(args).toContain(DEFAULT_OUTPUT);
    const output = path.join(dir, 'index.html');
    await run(path.join(repositoryRoot, 'node_modules/.bin/redocly'), args.map((arg) => (arg === DEFAULT_OUTPUT ? output : arg)), {
      cwd: repositoryRoot,
      // Whatever the developer's environment says: the opt-out under test is redocly.yaml's.
      env: { ...process.env, REDOCLY_TELEMETRY: '', CI: 'true' },
    });
    html = readFileSync(output, 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads no script or stylesheet from the network', () => {
    expect(html).not.toMatch(/<script\b[^>]*\bsrc\s*=/i);
    expect(html).not.toMatch(/<link\b[^>]*\bhref\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import\s+(url\()?\s*["']?(https?:)?\/\//i);
    expect(html).not.toContain('cdn.redocly.com/redoc/');
  });

  it('inlines the Redoc bundle and confines the page with a Content-Security-Policy', () => {
    expect(html).toMatch(/<script type="module">[\s\S]*function hydrate\b/);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(csp).toContain("default-src 'none'");
    // Nothing may name a host: the Redocly badge image and the telemetry endpoint stay blocked.
    expect(csp).not.toMatch(/https?:|\*|'self'/);
  });

  it('has telemetry off in the page', () => {
    expect(html).toContain('"disableTelemetry":true');
  });

  it('links the sidebar with hash routes, which work from file://', () => {
    expect(html).toContain('href="/section/errors"');
    expect(html).toMatch(/a\[href\^="\/"\][^<]*'#' \+ a\.getAttribute\('href'\)/);
  });

  it('documents the operations', () => {
    for (const operationId of ['createRun', 'listRuns', 'createFactory', 'receiveWebhookDelivery']) {
      expect(html).toContain(operationId);
    }
  });
});
