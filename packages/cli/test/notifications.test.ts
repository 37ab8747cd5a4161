/**
 * `notifications` in-process (support/cli.ts): against a stub API, and end to end against the real
 * server with a receiver of the signed events.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACTORY, RUN_ID, runCli, startCliTestServer, stubApiForFile } from './support/cli';

describe('agent-runs against a stub API', () => {
  const stub = stubApiForFile();

  describe('notifications', () => {
    const SUB = 'sub_01hzx3k4m5n6p7q8r9s0t1v2w3';
    const subscription = (overrides: Record<string, unknown> = {}) => ({
      uid: SUB,
      url: 'https://ops.example.com/agent-runs',
      description: null,
      event_types: ['run.failed', 'run.error'],
      filter: { factory_uid: FACTORY, automation_id: null },
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      previous_secret_expires_at: null,
      created_at: '2026-05-01T12:00:00.000Z',
      updated_at: '2026-05-01T12:00:00.000Z',
      ...overrides,
    });

    it('create maps --url, repeated or comma-separated --event, the filter, --description and --disabled; prints the secret once', async () => {
      stub.handler = () => ({ status: 201, json: { ...subscription({ enabled: false, disabled_reason: 'manual' }), secret: 'whsec_c2VjcmV0' } });

      const result = await runCli(
        [
          'notifications',
          'create',
          '--url',
          'https://ops.example.com/agent-runs',
          '--event',
          'run.failed',
          '--event',
          'run.error,run.cancelled',
          '--factory',
          FACTORY,
          '--automation',
          'aut_1',
          '--description',
          'Ops',
          '--disabled',
        ],
        stub.env,
      );

      expect(result.code).toBe(0);
      expect(stub.requests[0]).toMatchObject({
        method: 'POST',
        path: '/notifications/subscriptions',
        body: {
          url: 'https://ops.example.com/agent-runs',
          event_types: ['run.failed', 'run.error', 'run.cancelled'],
          filter: { factory_uid: FACTORY, automation_id: 'aut_1' },
          description: 'Ops',
          enabled: false,
        },
      });
      expect(result.stdout).toMatch(/^secret:\s+whsec_c2VjcmV0$/m);
      expect(result.stdout).toMatch(/^enabled:\s+no \(manual\)$/m);
      expect(result.stderr).toContain('warning: the signing secret is shown only now');
    });

    it('create refuses an unknown --event, and a missing --url, before sending anything', async () => {
      const unknown = await runCli(['notifications', 'create', '--url', 'https://x.example.com/', '--event', 'run.exploded'], stub.env);
      const noUrl = await runCli(['notifications', 'create', '--event', 'run.failed'], stub.env);

      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('run.state_changed, run.succeeded, run.failed, run.error, run.cancelled');
      expect(noUrl.code).toBe(1);
      expect(noUrl.stderr).toContain('--url');
      expect(stub.requests).toEqual([]);
    });

    it('list prints a table with the filter, the reason of a disable and the failing period', async () => {
      stub.handler = () => ({
        json: {
          subscriptions: [
            subscription(),
            subscription({
              uid: 'sub_2',
              filter: { factory_uid: null, automation_id: null },
              event_types: ['run.state_changed'],
              enabled: false,
              disabled_reason: 'failing',
              failing_since: '2026-04-26T08:00:00Z',
            }),
          ],
          page_info: { has_next_page: false, next_cursor: null },
        },
      });

      const result = await runCli(['notifications', 'list', '--limit', '2'], stub.env);

      expect(stub.requests[0]!.query.get('limit')).toBe('2');
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^UID\s+URL\s+EVENTS\s+FILTER\s+ENABLED\s+FAILING SINCE$/);
      expect(lines[1]).toMatch(new RegExp(`^${SUB}\\s+https://ops.example.com/agent-runs\\s+run.failed,run.error\\s+${FACTORY}\\s+yes\\s+-$`));
      expect(lines[2]).toMatch(/^sub_2\s+\S+\s+run.state_changed\s+every run\s+no \(failing\)\s+2026-04-26 08:00:00Z$/);
    });

    it('update sends only what is given: --no-description is null, --no-filter is {}; nothing is a usage error', async () => {
      stub.handler = () => ({ json: subscription() });

      const changed = await runCli(
        ['notifications', 'update', SUB, '--url', 'https://new.example.com/', '--event', 'run.succeeded', '--automation', 'aut_9'],
        stub.env,
      );
      const cleared = await runCli(['notifications', 'update', SUB, '--no-description', '--no-filter'], stub.env);
      const empty = await runCli(['notifications', 'update', SUB], stub.env);

      expect(changed.code).toBe(0);
      expect(cleared.code).toBe(0);
      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        [
          'PATCH',
          `/notifications/subscriptions/${SUB}`,
          { url: 'https://new.example.com/', event_types: ['run.succeeded'], filter: { automation_id: 'aut_9' } },
        ],
        ['PATCH', `/notifications/subscriptions/${SUB}`, { description: null, filter: {} }],
      ]);
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain('nothing to update');
    });

    it('enable, disable, rotate, delete, attempts (with --event, --run, --limit) and replay send their requests', async () => {
      stub.handler = (request) => {
        if (request.method === 'DELETE') return { status: 204 };
        if (request.path.endsWith('/rotate-secret'))
          return { json: { ...subscription({ previous_secret_expires_at: '2026-05-02T12:00:00Z' }), secret: 'whsec_bmV3' } };
        if (request.path.endsWith('/replay'))
          return { status: 202, json: { event_id: 'evt_1', subscription_uid: SUB, next_attempt_at: '2026-05-01T12:00:00Z' } };
        if (request.path.endsWith('/attempts')) {
          return {
            json: {
              attempts: [
                {
                  uid: 'att_1',
                  event_id: 'evt_1',
                  event_type: 'run.failed',
                  run_id: RUN_ID,
                  attempt: 2,
                  attempted_at: '2026-05-01T12:00:07Z',
                  outcome: 'retrying',
                  status_code: 503,
                  latency_ms: 41,
                  error: null,
                  response_excerpt: 'upstream down',
                  next_attempt_at: '2026-05-01T12:00:20Z',
                },
              ],
              page_info: { has_next_page: true, next_cursor: 'c2' },
            },
          };
        }
        return { json: subscription({ enabled: (request.body as { enabled: boolean }).enabled }) };
      };

      const disabled = await runCli(['notifications', 'disable', SUB], stub.env);
      const enabled = await runCli(['notifications', 'enable', SUB], stub.env);
      const rotated = await runCli(['notifications', 'rotate', SUB], stub.env);
      const deleted = await runCli(['notifications', 'delete', SUB, '--json'], stub.env);
      const attempts = await runCli(['notifications', 'attempts', SUB, '--event', 'evt_1', '--run', RUN_ID, '--limit', '1'], stub.env);
      const replayed = await runCli(['notifications', 'replay', SUB, 'evt_1'], stub.env);

      expect(stub.requests.map((r) => [r.method, r.path, r.body])).toEqual([
        ['PATCH', `/notifications/subscriptions/${SUB}`, { enabled: false }],
        ['PATCH', `/notifications/subscriptions/${SUB}`, { enabled: true }],
        ['POST', `/notifications/subscriptions/${SUB}/rotate-secret`, {}],
        ['DELETE', `/notifications/subscriptions/${SUB}`, undefined],
        ['GET', `/notifications/subscriptions/${SUB}/attempts`, undefined],
        ['POST', `/notifications/subscriptions/${SUB}/events/evt_1/replay`, undefined],
      ]);
      expect(Object.fromEntries(stub.requests[4]!.query)).toEqual({ event_id: 'evt_1', run_id: RUN_ID, limit: '1' });
      expect(disabled.stdout).toBe(`subscription ${SUB} disabled\n`);
      expect(enabled.stdout).toBe(`subscription ${SUB} enabled\n`);
      expect(rotated.stdout).toMatch(/^secret:\s+whsec_bmV3$/m);
      expect(rotated.stdout).toMatch(/^previous_secret_expires_at:\s+2026-05-02 12:00:00Z$/m);
      expect(JSON.parse(deleted.stdout)).toEqual({ uid: SUB, deleted: true });
      const lines = attempts.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ATTEMPTED\s+EVENT\s+TYPE\s+#\s+OUTCOME\s+STATUS\s+MS\s+NEXT\s+DETAIL$/);
      expect(lines[1]).toMatch(/^2026-05-01 12:00:07Z\s+evt_1\s+run.failed\s+2\s+retrying\s+503\s+41\s+2026-05-01 12:00:20Z\s+upstream down$/);
      expect(attempts.stdout).toContain('--cursor c2');
      expect(replayed.stdout).toBe(`event evt_1 queued for subscription ${SUB} (due 2026-05-01 12:00:00Z)\n`);
    });
  });
});

describe('agent-runs notifications against the real server', () => {
  const live = startCliTestServer({ env: { NOTIFICATIONS_ALLOWED_HOSTS: '127.0.0.1' } });
  let receiver: http.Server;
  let receiverUrl = '';
  const deliveries: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  async function received(count: number): Promise<void> {
    for (const deadline = Date.now() + 15_000; deliveries.length < count; await new Promise((r) => setTimeout(r, 20))) {
      if (Date.now() > deadline) throw new Error(`got ${deliveries.length} of ${count} deliveries`);
    }
  }

  it("create prints the secret once; a run's events arrive signed with it; attempts, replay, rotate, get and delete", async () => {
    const { verifyNotification } = await import('@agent-runs/sdk');
    const created = await runCli(['notifications', 'create', '--url', receiverUrl, '--event', 'run.succeeded', '--json'], live.env);
    expect(created.code).toBe(0);
    const subscription = JSON.parse(created.stdout) as { uid: string; secret: string };
    expect(subscription.secret).toMatch(/^whsec_/);

    const run = await runCli(['run', '--prompt', 'notify the CLI', '--wait', '--json'], live.env);
    const { run_id: runId } = JSON.parse(run.stdout) as { run_id: string };
    await received(1);
    const event = await verifyNotification(deliveries[0]!.body, deliveries[0]!.headers, subscription.secret);
    expect(event).toMatchObject({ type: 'run.succeeded', data: { run_id: runId, state: 'SUCCEEDED' } });

    const attempts = await runCli(['notifications', 'attempts', subscription.uid], live.env);
    expect(attempts.code).toBe(0);
    expect(attempts.stdout.split('\n')[1]).toMatch(new RegExp(`\\s${event.id}\\s+run.succeeded\\s+1\\s+succeeded\\s+204\\s`));

    const replayed = await runCli(['notifications', 'replay', subscription.uid, event.id], live.env);
    expect(replayed.stdout).toContain(`event ${event.id} queued`);
    await received(2);
    expect(deliveries[1]!.headers['webhook-id']).toBe(event.id);

    const rotated = await runCli(['notifications', 'rotate-secret', subscription.uid, '--json'], live.env);
    const { secret: next } = JSON.parse(rotated.stdout) as { secret: string };
    expect(next).not.toBe(subscription.secret);
    expect(rotated.stderr).toContain('shown only now');

    const shown = await runCli(['notifications', 'get', subscription.uid], live.env);
    expect(shown.stdout).toMatch(/^event_types:\s+run.succeeded$/m);
    expect(shown.stdout).not.toContain(next);
    expect((await runCli(['notifications', 'delete', subscription.uid], live.env)).stdout).toBe(`deleted subscription ${subscription.uid}\n`);
    const gone = await runCli(['notifications', 'get', subscription.uid], live.env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error: 404 resource_not_found: /m);
    // An http URL the operator did not list: the 400 names the field.
    const refused = await runCli(['notifications', 'create', '--url', 'http://hooks.example.com/', '--event', 'run.failed'], live.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/400 invalid_request: url must be an https URL/);
  });
});
