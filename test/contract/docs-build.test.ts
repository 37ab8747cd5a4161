// `pnpm docs:build` (scripts/docs-build.mjs) writes an API reference that works offline: the Redoc bundle is
// inlined (no CDN script or stylesheet), a Content-Security-Policy keeps every other request in the page,
// and in Chromium the page asks for nothing outside itself (not even the Redocly logo the CSP would block);
// telemetry is off, every operation has its code samples, the Servers card shows no Markdown backticks, and
// the build's output carries no Node 20 banner. Runs the root script's own command into a temporary directory.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { hasBrowser, launchBrowser } from '../../packages/dashboard/test/support/browser';

const run = promisify(execFile);
const repositoryRoot = path.resolve(__dirname, '../..');
const spec = YAML.parse(readFileSync(path.join(repositoryRoot, 'openapi/v1.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
const operationIds = Object.values(spec.paths).flatMap((item) => Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : [])));

describe('pnpm docs:build', () => {
  let dir: string;
  let output: string;
  let html: string;
  let buildLog: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'docs-build-'));
    const script = (JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['docs:build']!;
    expect(script).toBe('node scripts/docs-build.mjs');
    output = path.join(dir, 'index.html');
    const { stdout, stderr } = await run(process.execPath, ['scripts/docs-build.mjs', '--output', output], {
      cwd: repositoryRoot,
      // Whatever the developer's environment says: the opt-out under test is redocly.yaml's.
      env: { ...process.env, REDOCLY_TELEMETRY: '', CI: 'true' },
    });
    buildLog = stdout + stderr;
    html = readFileSync(output, 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints no banner: neither the Node 20 deprecation nor the Redoc 3 notice', () => {
    expect(buildLog).toContain('bundled successfully');
    expect(buildLog).not.toMatch(/Node\.js 20|Redoc 3|[╔╚║]/);
  });

  it('loads no script or stylesheet from the network', () => {
    expect(html).not.toMatch(/<script\b[^>]*\bsrc\s*=/i);
    expect(html).not.toMatch(/<link\b[^>]*\bhref\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import\s+(url\()?\s*["']?(https?:)?\/\//i);
    expect(html).not.toContain('cdn.redocly.com/redoc/');
    // The images and icons the bundle would fetch (the footer's Redocly logo among them).
    expect(html).not.toMatch(/https:\/\/cdn\.redoc(ly\.com|\.ly)\//);
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

  it('documents every operation with its code samples', () => {
    for (const operationId of operationIds) expect(html, operationId).toContain(operationId);
    expect(html.match(/"x-codeSamples":\[\{"lang":"Shell","label":"curl"/g)).toHaveLength(operationIds.length);
    expect(html).toContain('"label":"TypeScript SDK","source":"import AgentRuns from \'@agent-runs/sdk\';');
    expect(html).toContain('"label":"Python SDK","source":"from agent_runs import AgentRuns');
  });

  describe.skipIf(!hasBrowser)('in Chromium', () => {
    it('asks for nothing outside the page, and the Servers card has no raw backticks', async () => {
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        const outside: string[] = [];
        page.on('request', (request) => {
          if (!/^(file|data|blob|about):/.test(request.url())) outside.push(request.url());
        });
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) outside.push(message.text());
        });
        await page.goto(`${pathToFileURL(output).href}#/operation/createRun`);
        await page.getByText('curl').first().waitFor();
        await page.getByText('the REST API root').first().waitFor({ state: 'attached' });
        const servers = await page.getByText('the REST API root').first().textContent();
        expect(servers).toContain('{base_url}');
        expect(servers).not.toContain('`');
        // The sidebar's Redocly logo is drawn after hydration; before this build it asked cdn.redoc.ly at once.
        await page.waitForLoadState('networkidle');
        expect(outside).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  });
});
