import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger';
import { apiClient } from '../support/http';
import { startTestServer } from '../support/server';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, log: createLogger({ logLevel: 'info' }, stream) };
}

describe('logger', () => {
  it('writes JSON lines at the configured level', () => {
    const { lines, log } = capture();
    log.debug('hidden');
    log.info({ request_id: 'req_1' }, 'hello');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ level: 'info', msg: 'hello', request_id: 'req_1' });
    expect(typeof line.time).toBe('string');
  });

  it('redacts credentials: authorization/cookie headers and secret-like fields at any depth', () => {
    const { lines, log } = capture();
    log.info(
      {
        req: { headers: { authorization: 'Bearer ar_live_abc', cookie: 'sid=1', 'x-request-id': 'r1' } },
        secret: 's1',
        api_key: 'ar_live_def',
        webhook: { token: 't1', provider_secret: 'p1', config: { value: 'v1', password: 'pw' } },
      },
      'with secrets',
    );
    const text = lines.join('');
    for (const leaked of ['ar_live_abc', 'sid=1', 's1"', 'ar_live_def', 't1"', 'p1"', 'v1"', 'pw"']) expect(text).not.toContain(leaked);
    expect(JSON.parse(lines[0]!).req.headers['x-request-id']).toBe('r1');
  });
});

describe('request log lines', () => {
  const requestLines = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');

  it('writes one JSON line per request with its request id, and the team and key once authenticated', async () => {
    const lines: string[] = [];
    const server = await startTestServer({ engine: false, log: createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) }) });
    try {
      const { teamId, keyId, apiKey } = await server.createTeamWithKey('logged', 'member');
      const ok = await apiClient(server.apiUrl, apiKey).get('/agent/runs');
      const anonymous = await apiClient(server.apiUrl).get('/agent/runs');
      const [okLine, anonymousLine] = requestLines(lines);
      expect(okLine).toMatchObject({ level: 'info', request_id: ok.headers.get('x-request-id'), team_id: teamId, key_id: keyId, status: 200 });
      expect(anonymousLine).toMatchObject({ request_id: anonymous.headers.get('x-request-id'), status: 401 });
      expect(anonymousLine).not.toHaveProperty('team_id');
    } finally {
      await server.close();
    }
  });

  it('writes health and readiness probes at debug, so a supervisor polling them does not drown the log', async () => {
    const lines: string[] = [];
    const server = await startTestServer({ engine: false, log: createLogger({ logLevel: 'debug' }, { write: (line: string) => void lines.push(line) }) });
    try {
      for (const probe of ['/healthz', '/readyz']) expect((await fetch(`${server.baseUrl}${probe}`)).status).toBe(200);
      expect((await apiClient(server.apiUrl, server.adminKey).get('/agent/runs')).status).toBe(200);
      expect(requestLines(lines).map((l) => [l.path, l.level])).toEqual([
        ['/healthz', 'debug'],
        ['/readyz', 'debug'],
        ['/agent/runs', 'info'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('writes no request line below its level', async () => {
    const lines: string[] = [];
    const server = await startTestServer({ engine: false, log: createLogger({ logLevel: 'warn' }, { write: (line: string) => void lines.push(line) }) });
    try {
      expect((await apiClient(server.apiUrl, server.adminKey).get('/agent/runs')).status).toBe(200);
      expect(requestLines(lines)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
