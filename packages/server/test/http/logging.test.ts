import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger';

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
