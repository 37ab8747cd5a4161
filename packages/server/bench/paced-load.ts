/**
 * An open-loop load generator for latency figures: GET requests sent at a fixed rate, whether or not
 * earlier ones have been answered, over at most `connections` keep-alive connections.
 *
 * autocannon's own rate option does not do this: it lets each connection send as fast as it can until
 * that second's quota is spent and then waits for the next second, so the server sees a burst at the
 * start of every second. Here request k is due at start + k / rate, and its latency runs from that due
 * time to the end of its answer: time spent waiting for a free connection (or on this process's timers)
 * counts, so a slow server cannot hide behind a generator that slowed down with it (coordinated omission).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PacedLoadResult {
  /** Requests per second actually completed over the run (answers / seconds from first due to last answer). */
  achieved: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

export async function pacedLoad(options: {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  connections: number;
}): Promise<PacedLoadResult> {
  const { url, headers, rate, seconds, connections } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const req = http.get(url, { agent, headers }, (res) => {
        if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx++;
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          resolve();
        });
        res.on('error', () => {
          errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });

  const total = Math.max(1, Math.round(rate * seconds));
  const start = performance.now() + 20;
  const answers: Array<Promise<void>> = [];
  for (let k = 0; k < total; k++) {
    const due = start + (k * 1000) / rate;
    const wait = due - performance.now();
    // Timers have millisecond granularity: requests due within the next millisecond go now, on time.
    if (wait >= 1) await sleep(Math.floor(wait));
    answers.push(send(due));
  }
  await Promise.all(answers);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();

  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    achieved: latencies.length / elapsed,
    p50: round(at(0.5)),
    p99: round(at(0.99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    non2xx,
    errors,
  };
}
