import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { createExpressServer } from '../../src/http/express-server';

describe('createExpressServer', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function listen(s: http.Server): Promise<string> {
    server = s;
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }

  it("creates each request and response as the app's own, so Express never has to change their prototype", async () => {
    const app = express();
    app.get('/echo', (req, res) => {
      res.status(201).json({ query: req.query, header: req.get('x-probe') });
    });
    const arrivals: Array<{ request: boolean; response: boolean }> = [];
    const url = await listen(
      createExpressServer(app, (req, res) => {
        arrivals.push({ request: Object.getPrototypeOf(req) === app.request, response: Object.getPrototypeOf(res) === app.response });
        app(req, res);
      }),
    );

    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${url}/echo?n=${i}`, { headers: { 'x-probe': 'yes' } });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ query: { n: String(i) }, header: 'yes' });
    }
    expect(arrivals).toEqual([
      { request: true, response: true },
      { request: true, response: true },
    ]);
  });

  it('serves the app itself by default, and a listener in front of it whose own requests get plain responses', async () => {
    const app = express();
    app.get('/app', (_req, res) => res.json({ from: 'app', expressResponse: Object.getPrototypeOf(res) === app.response }));
    const url = await listen(
      createExpressServer(
        app,
        (req, res) => {
          if (req.url !== '/plain') return app(req, res);
          res.writeHead(202, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ plainResponse: Object.getPrototypeOf(res) === http.ServerResponse.prototype }));
        },
        { plainResponse: (req) => req.url === '/plain' },
      ),
    );
    expect(await (await fetch(`${url}/app`)).json()).toEqual({ from: 'app', expressResponse: true });
    const plain = await fetch(`${url}/plain`);
    expect([plain.status, await plain.json()]).toEqual([202, { plainResponse: true }]);

    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const byDefault = await listen(createExpressServer(app));
    expect(await (await fetch(`${byDefault}/app`)).json()).toEqual({ from: 'app', expressResponse: true });
  });
});
