import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startMcpHttpServer } from '../agent/support/mcp-http';
import { createEgressFetch, egressDenialOf, type EgressFetch } from '../../src/engine/egress/fetch';
import { createEgressPolicy, EgressDeniedError } from '../../src/engine/egress/policy';
import { startTarget, type Target } from './helpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function target(handler?: Parameters<typeof startTarget>[0]): Promise<Target> {
  const t = await startTarget(handler);
  cleanups.push(() => t.close());
  return t;
}

function guardedFetch(network: 'none' | 'allowlist' | 'open', allowedHosts: string[]): EgressFetch {
  const f = createEgressFetch(createEgressPolicy({ network, allowedHosts }));
  cleanups.push(() => f.close());
  return f;
}

/** The denial a rejected fetch carries; fails the test when the fetch succeeded or failed otherwise. */
async function denialOf(request: Promise<Response>): Promise<EgressDeniedError> {
  const err = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the request should have been refused').toBeInstanceOf(TypeError);
  const denial = egressDenialOf(err);
  expect(denial, `no EgressDeniedError behind ${String(err)}`).toBeInstanceOf(EgressDeniedError);
  expect((err as Error).cause).toBe(denial);
  return denial!;
}

describe('createEgressFetch', () => {
  it('refuses a local server by default, without connecting to it', async () => {
    const t = await target();
    const denial = await denialOf(guardedFetch('allowlist', [])(`http://127.0.0.1:${t.port}/`));
    expect(denial).toMatchObject({ host: '127.0.0.1', port: t.port, reason: '127.0.0.1 is not in SANDBOX_ALLOWED_HOSTS' });
    expect(t.connections).toBe(0);
  });

  it('refuses loopback in open mode too (IP literal never reaches the DNS lookup)', async () => {
    const t = await target();
    const denial = await denialOf(guardedFetch('open', [])(`http://127.0.0.1:${t.port}/`));
    expect(denial.reason).toBe('127.0.0.1 is a loopback address');
    expect(t.connections).toBe(0);
  });

  it('reaches the server when 127.0.0.1:<port> is listed', async () => {
    const t = await target();
    const f = guardedFetch('allowlist', [`127.0.0.1:${t.port}`]);
    const response = await f(`http://127.0.0.1:${t.port}/hello?x=1`, { method: 'POST', body: 'ping', headers: { 'x-test': 'yes' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(`hello from ${t.port}`);
    expect(t.requests).toMatchObject([{ method: 'POST', url: '/hello?x=1', headers: { 'x-test': 'yes' } }]);
  });

  it('accepts a global Request object', async () => {
    const t = await target();
    const f = guardedFetch('allowlist', [`127.0.0.1:${t.port}`]);
    const response = await f(new Request(`http://127.0.0.1:${t.port}/r`, { method: 'PUT', body: 'x', headers: { 'x-req': '1' } }));
    expect(response.status).toBe(200);
    await response.text();
    expect(t.requests).toMatchObject([{ method: 'PUT', url: '/r', headers: { 'x-req': '1' } }]);
  });

  it('refuses at connect time when only the name localhost is listed (it resolves to loopback)', async () => {
    const t = await target();
    for (const mode of ['allowlist', 'open'] as const) {
      const denial = await denialOf(guardedFetch(mode, ['localhost'])(`http://localhost:${t.port}/`));
      expect(denial.host).toBe('localhost');
      expect(denial.port).toBe(t.port);
      expect(denial.reason).toMatch(/^(127\.0\.0\.1|::1) is a loopback address$/);
    }
    expect(t.connections).toBe(0);
  });

  it('refuses a redirect from an allowed server to a port that is not listed', async () => {
    const hidden = await target();
    const front = await target((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${hidden.port}/secret` });
      res.end();
    });
    const f = guardedFetch('allowlist', [`127.0.0.1:${front.port}`]);
    const denial = await denialOf(f(`http://127.0.0.1:${front.port}/`));
    expect(denial).toMatchObject({ host: '127.0.0.1', port: hidden.port });
    expect(front.requests).toHaveLength(1);
    expect(hidden.connections).toBe(0);
  });

  it('follows a redirect between allowed targets', async () => {
    const back = await target();
    const front = await target((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${back.port}/landed` });
      res.end();
    });
    const f = guardedFetch('allowlist', [`127.0.0.1:${front.port}`, `127.0.0.1:${back.port}`]);
    const response = await f(`http://127.0.0.1:${front.port}/`);
    expect(await response.text()).toBe(`hello from ${back.port}`);
    expect(back.requests).toMatchObject([{ url: '/landed' }]);
  });

  it.each(['file:///etc/passwd', 'data:text/plain,hello', 'ftp://127.0.0.1/x'])('refuses the non-http URL %s', async (url) => {
    const denial = await denialOf(guardedFetch('open', ['127.0.0.1'])(url));
    expect(denial.reason).toMatch(/^(file|data|ftp): is not http or https$/);
  });

  it('refuses everything when the network is none', async () => {
    const t = await target();
    const denial = await denialOf(guardedFetch('none', [`127.0.0.1:${t.port}`])(`http://127.0.0.1:${t.port}/`));
    expect(denial.reason).toBe('egress is disabled (SANDBOX_NETWORK=none)');
    expect(t.connections).toBe(0);
  });
});

describe('createEgressFetch as the fetch of the MCP SDK transport', () => {
  it('talks to a listed MCP server', async () => {
    const mcp = await startMcpHttpServer();
    cleanups.push(() => mcp.close());
    const url = new URL(mcp.url);
    const client = new Client({ name: 'egress-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(url, {
      fetch: guardedFetch('allowlist', [url.host]),
      requestInit: { headers: { 'x-configured': 'yes' } },
    });
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(mcp.headers[0]?.['x-configured']).toBe('yes');
  });

  it('surfaces the denial to the caller of connect()', async () => {
    const mcp = await startMcpHttpServer();
    cleanups.push(() => mcp.close());
    const client = new Client({ name: 'egress-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { fetch: guardedFetch('allowlist', ['mcp.example.com']) });
    const err = await client.connect(transport).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(egressDenialOf(err)?.reason).toBe('127.0.0.1 is not in SANDBOX_ALLOWED_HOSTS');
    expect(mcp.headers).toHaveLength(0);
  });
});
