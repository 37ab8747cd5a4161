/**
 * The dashboard at the host root (http/dashboard.ts), over real HTTP against a small build in a temporary
 * DASHBOARD_DIR: the app's pages (a run's session_link included) get index.html with a strict CSP, hashed
 * assets are immutable, a missing asset is a 404 problem, the API and its 404s are untouched, and without
 * a build `/` answers a 503 problem that says how to build it.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectProblem } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';
const APP_JS = 'console.log("dashboard");';
const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the dashboard, built', () => {
  let dir: string;
  let server: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dashboard-dist-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
    writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), APP_JS);
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer({ engine: false, env: { DASHBOARD_DIR: dir } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves index.html with the strict headers at /, the app's pages and a run's session_link", async () => {
    const { run_id } = (await apiClient(server.apiUrl, server.adminKey).post('/agent/runs', { prompt: 'hello' })).body;
    const run = (await apiClient(server.apiUrl, server.adminKey).get(`/agent/runs/${run_id}`)).body;
    expect(run.session_link).toBe(`${server.baseUrl}/sessions/${run.session_id}`);
    for (const page of [`${server.baseUrl}/`, `${server.baseUrl}/runs/x`, `${server.baseUrl}/factories/fac_1/webhooks`, run.session_link as string]) {
      const res = await fetch(page, { headers: html });
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(CSP);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX_HTML);
    }
    const head = await fetch(`${server.baseUrl}/runs/x`, { method: 'HEAD', headers: html });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toBe(CSP);
  });

  it('serves hashed assets as immutable and other files as no-cache, both with the CSP', async () => {
    const asset = await fetch(`${server.baseUrl}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-security-policy')).toBe(CSP);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await asset.text()).toBe(APP_JS);

    const favicon = await fetch(`${server.baseUrl}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).toBe('no-cache');
    expect(favicon.headers.get('content-security-policy')).toBe(CSP);
  });

  it('a missing asset is a 404 problem, never index.html', async () => {
    for (const asset of ['/assets/missing.js', '/assets/']) {
      const res = await apiClient(server.baseUrl).get(asset, html);
      expectProblem(res, 404, 'resource_not_found');
      expect(res.text).not.toContain('<div id="root">');
    }
  });

  it('the API, the operational endpoints and requests that do not want HTML are not the dashboard', async () => {
    const api = apiClient(server.apiUrl, server.adminKey);
    const nope = await api.get('/nope', html);
    expectProblem(nope, 404, 'resource_not_found');
    expect(nope.body.detail).not.toContain('The REST API is at');
    expect((await apiClient(server.baseUrl).get('/healthz', html)).body).toEqual({ status: 'ok' });
    for (const p of ['/api', '/webhooks', '/metrics/x']) expectProblem(await apiClient(server.baseUrl).get(p, html), 404, 'resource_not_found');

    // Outside the API, a client that does not name HTML (JSON, or fetch's default */*) gets the 404 problem
    // naming the API root.
    for (const accept of ['application/json', '*/*']) {
      for (const p of ['/', '/runs/x', '/favicon.ico']) {
        const res = await apiClient(server.baseUrl).get(p, { accept });
        expectProblem(res, 404, 'resource_not_found');
        expect(res.body.detail, p).toContain(`The REST API is at ${server.apiUrl} `);
      }
    }
    // Other methods are never the dashboard's.
    expectProblem(await apiClient(server.baseUrl).post('/runs/x', {}), 404, 'resource_not_found');
  });
});

describe('the dashboard, not built', () => {
  let dir: string;
  let server: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dashboard-empty-'));
    server = await startTestServer({ engine: false, env: { DASHBOARD_DIR: path.join(dir, 'dist') } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers its pages with a 503 problem naming the build command and the API root; the API works', async () => {
    for (const page of ['/', '/sessions/7a1b2c3d-4e5f-4a6b-9c8d-0e1f2a3b4c5d']) {
      const res = await apiClient(server.baseUrl).get(page, html);
      expectProblem(res, 503, 'service_unavailable');
      expect(res.body.detail).toContain('pnpm build:dashboard');
      expect(res.body.detail).toContain(server.apiUrl);
    }
    expectProblem(await apiClient(server.baseUrl).get('/assets/app.js', html), 404, 'resource_not_found');
    expect((await apiClient(server.apiUrl, server.adminKey).get('/agent/runs')).status).toBe(200);
  });
});
