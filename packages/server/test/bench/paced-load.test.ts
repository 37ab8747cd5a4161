/**
 * The open-loop load generator of bench:runs reads answers without node:http's client: these pin that it
 * still finds where every kind of answer ends (a wrong count would hang the bench or misreport latency).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { machineSteal, pacedLoad, pacedWindows, poolPacedLoads, type StealMeter } from '../../bench/paced-load';

describe('pacedLoad', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function serve(handler: http.RequestListener, keepAliveTimeout?: number): Promise<string> {
    server = http.createServer(handler);
    if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const run = (url: string, rate = 200, seconds = 1) => pacedLoad({ url, headers: { authorization: 'Bearer x' }, rate, seconds, connections: 4 });

  it('counts answers with Content-Length bodies, from empty to larger than one read, and tells non-2xx apart', async () => {
    const big = 'x'.repeat(150_000);
    let n = 0;
    const url = await serve((req, res) => {
      const kind = n++ % 3;
      if (kind === 0) res.writeHead(200, { 'content-length': Buffer.byteLength(big) }).end(big);
      else if (kind === 1) res.writeHead(204).end();
      else res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"status":401}');
    });
    const result = await run(url);
    expect(n).toBe(200);
    expect(result.errors).toBe(0);
    expect(result.non2xx).toBe(Math.floor(200 / 3));
    expect(result.achieved).toBeGreaterThan(0);
  });

  it('finds the end of chunked bodies, empty or written in pieces', async () => {
    let n = 0;
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (n++ % 2 === 0) return res.end();
      res.write('{"a":');
      setImmediate(() => res.end('"' + 'y'.repeat(70_000) + '"}'));
    });
    const result = await run(url);
    expect([n, result.errors, result.non2xx]).toEqual([200, 0, 0]);
  });

  it('replaces connections the server closes between requests and loses no request', async () => {
    let n = 0;
    const url = await serve((req, res) => {
      n++;
      res.setHeader('connection', n % 10 === 0 ? 'close' : 'keep-alive');
      res.writeHead(200, { 'content-length': 2 }).end('ok');
    }, 50);
    const result = await run(url, 100, 2);
    expect([n, result.errors, result.non2xx]).toEqual([200, 0, 0]);
  });

  it('pools back-to-back runs into one: percentiles over all their requests, rate over their summed time', async () => {
    // The second run's tail is slow: 3 of its 100 answers take SLOW_MS or more. Only lower bounds on real
    // latencies are asserted (a timer never fires early); how fast the rest are depends on the machine.
    const SLOW_MS = 500;
    let n = 0;
    const url = await serve((req, res) => {
      const delay = n++ >= 197 ? SLOW_MS : 0;
      setTimeout(() => res.writeHead(200, { 'content-length': 2 }).end('ok'), delay);
    });
    const first = await run(url, 200, 0.5);
    const second = await run(url, 200, 0.5);
    const pooled = poolPacedLoads([first, second]);
    expect(second.p99).toBeGreaterThanOrEqual(SLOW_MS);
    // Percentiles of the union (3 slow answers in 200 are still above the 99th percentile), not an average of
    // each run's.
    const union = [...first.samples.latencies, ...second.samples.latencies].sort((a, b) => a - b);
    expect(pooled.samples.latencies).toEqual(union);
    expect(pooled.p99).toBe(Math.round(union[198]! * 10) / 10);
    expect(pooled.p50).toBe(Math.round(union[100]! * 10) / 10);
    expect(pooled.p99).toBeGreaterThanOrEqual(SLOW_MS);
    expect(pooled.samples.latencies).toHaveLength(200);
    expect(pooled.samples.latencies[0]).toBeGreaterThanOrEqual(0); // timed from the send when it went early
    expect(pooled.max).toBe(Math.max(first.max, second.max));
    expect(pooled.achieved).toBeCloseTo(200 / (first.samples.seconds + second.samples.seconds), 6);
    expect([pooled.errors, pooled.non2xx]).toEqual([0, 0]);
  });

  /** A steal meter that reads out the given percentages, one per reading, and then 0. */
  const scriptedSteal = (percents: number[]): StealMeter => {
    let read = 0;
    return () => () => percents[read++] ?? 0;
  };
  const windowed = (url: string, windows: number, measureSteal: StealMeter) =>
    pacedWindows({ url, headers: {}, rate: 100, seconds: 0.2, connections: 2, windows, maxStealPercent: 5, measureSteal });

  it('voids a window the host stole from and runs another; the pooled figures are over the counted windows only', async () => {
    // Window 2 (the stolen one) is the one with the slow answers: voiding it must take them out of the pool.
    let n = 0;
    const url = await serve((req, res) => {
      n++;
      const delay = n > 20 && n <= 40 ? 60 : 0;
      setTimeout(() => res.writeHead(200, { 'content-length': 2 }).end('ok'), delay);
    });
    // Readings, in the order they are taken: window 1, window 2, window 3, then the whole run.
    const steal = scriptedSteal([0.4, 27.5, 4.9, 9.1]);
    const result = await windowed(url, 2, steal);
    expect(result.windows.map((w) => [w.stealPercent, w.voided])).toEqual([
      [0.4, false],
      [27.5, true],
      [4.9, false],
    ]);
    expect(result.complete).toBe(true);
    expect(result.stealPercent).toBe(9.1);
    expect(n).toBe(60);
    expect(result.windows[1]!.p99).toBeGreaterThanOrEqual(60);
    // The pool is windows 1 and 3 exactly: what it leaves out is the voided window, whatever its latencies.
    const counted = poolPacedLoads([result.windows[0]!, result.windows[2]!]);
    expect(result.samples.latencies).toHaveLength(40);
    expect(result.samples.latencies).toEqual(counted.samples.latencies);
    expect([result.p50, result.p99, result.max]).toEqual([counted.p50, counted.p99, counted.max]);
  });

  it('keeps a slow window the host did not steal from: the choice looks at steal, never at latency', async () => {
    let n = 0;
    const url = await serve((req, res) => {
      const delay = n++ < 20 ? 60 : 0;
      setTimeout(() => res.writeHead(200, { 'content-length': 2 }).end('ok'), delay);
    });
    const result = await windowed(url, 2, scriptedSteal([]));
    expect(result.windows.map((w) => w.voided)).toEqual([false, false]);
    expect(result.p99).toBeGreaterThanOrEqual(60);
  });

  it('stops after twice the windows asked for and reports no verdict when the host stole from too many', async () => {
    const url = await serve((req, res) => res.writeHead(200, { 'content-length': 2 }).end('ok'));
    const steal = scriptedSteal([8, 0, 12, 30, 7, 6]);
    const result = await windowed(url, 3, steal);
    expect(result.windows.map((w) => w.voided)).toEqual([true, false, true, true, true, true]);
    expect(result.complete).toBe(false);
    expect(result.samples.latencies).toHaveLength(20);
  });

  it('reads steal from /proc/stat as a share of all CPU time', () => {
    const since = machineSteal();
    const until = performance.now() + 100;
    while (performance.now() < until); // let CPU ticks pass (100 a second on each CPU)
    const percent = since();
    expect(percent).toBeGreaterThanOrEqual(0); // NaN (nothing parsed) fails here
    expect(percent).toBeLessThanOrEqual(100);
  });
});
