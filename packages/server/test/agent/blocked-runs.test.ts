/**
 * A run can stop to ask, through the real server on SQLite and PostgreSQL: the built-in agent (RUNNER=model
 * against the scripted fake provider) calls `ask_user`, the run becomes BLOCKED with the question and gives
 * back its worker (WORKER_CONCURRENCY 1 runs another meanwhile), SSE clients and a notification receiver
 * see it, and a follow-up answers: the model gets the answer after the conversation so far. A question left
 * unanswered ends FAILED `blocked_timeout` at the injected clock's time; cancel works on a BLOCKED run; the
 * command runner asks with an `::ask_user::` line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sweepUnansweredRuns } from '../../src/engine/index';
import { testDatabases } from '../support/databases';
import { expectProblem, openSse, waitForRunState, type SseStream } from '../support/http';
import { createRun, startNotificationWorld, verifyDelivery, type NotificationWorld } from '../notifications/helpers';
import { FakeModel, text, toolCalls, usage } from './support/fake-model';

const QUESTION = 'Which branch should I fix: main or release-1.2?';
const DAY_MS = 24 * 3_600_000;
/** Each test starts a server and runs a few executions: generous on a loaded machine. */
const TEST_TIMEOUT_MS = 120_000;

const ask = (question: unknown, id = 'call_ask') => toolCalls([{ id, name: 'ask_user', arguments: { question } }], usage(20, 5));
const blocksOf = (conversation: { steps: Array<{ messages: Array<{ role: string; content: unknown[] }> }> }) =>
  conversation.steps.flatMap((s) => s.messages.map((m) => ({ role: m.role, content: m.content })));

describe.each(testDatabases())('a run can stop to ask (%s)', (kind) => {
  let world: NotificationWorld;
  let model: FakeModel;
  let stream: SseStream | undefined;
  afterEach(async () => {
    stream?.close();
    stream = undefined;
    await world?.close();
    await model?.close();
  });
  // A model call and a sandbox start per execution: slow on a loaded machine, so a long wait.
  const settled = (runId: string, states: string[]) => waitForRunState(world.admin, runId, states, 60_000);

  async function start(env: Record<string, string> = {}) {
    model = await FakeModel.start();
    world = await startNotificationWorld(kind, {
      engine: { sweeper: false },
      env: { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'm', WORKER_CONCURRENCY: '1', ...env },
    });
  }

  it(
    'blocks on the question without holding a worker, tells SSE clients and subscribers, and resumes with the answer',
    async () => {
      await start();
      const { secret } = await world.subscribe({ event_types: ['run.blocked'] });
      model.reply(ask(QUESTION));
      const runId = await createRun(world.admin, { prompt: 'Fix the failing test.' });
      stream = await openSse(`${world.server.apiUrl}/agent/runs/${runId}/events`, world.server.adminKey, { 'last-event-id': '0' });

      const blocked = await settled(runId, ['BLOCKED', 'SUCCEEDED', 'FAILED', 'ERROR']);
      expect(blocked.state).toBe('BLOCKED');
      expect(blocked.status_message).toEqual({ message: QUESTION });
      expect(blocked.is_sandbox_running).toBe(false);
      expect(model.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('ask_user');
      await stream.waitFor((events) => events.some((e) => e.event === 'state' && e.data.state === 'BLOCKED'));

      // The one worker is free: another run is claimed and finishes while the first waits.
      model.reply(text('Done.'));
      const other = await createRun(world.admin, { prompt: 'Say done.' });
      expect((await settled(other, ['SUCCEEDED', 'FAILED', 'ERROR'])).state).toBe('SUCCEEDED');
      expect((await world.admin.get(`/agent/runs/${runId}`)).body.state).toBe('BLOCKED');

      const [delivery] = await world.receiver.waitFor(1);
      const event = verifyDelivery(delivery!, secret, world.clock);
      expect(event).toMatchObject({
        type: 'run.blocked',
        data: { run_id: runId, state: 'BLOCKED', previous_state: 'INPROGRESS', status_message: { message: QUESTION } },
      });

      model.reply(text('Fixed on release-1.2.'));
      const answered = await world.admin.post(`/agent/runs/${runId}/followups`, { message: 'release-1.2' });
      expect(answered.status, answered.text).toBe(200);
      expect(answered.body.state).toBe('QUEUED');
      const done = await settled(runId, ['SUCCEEDED', 'FAILED', 'ERROR']);
      expect(done.state).toBe('SUCCEEDED');
      expect(done.status_message).toBeUndefined();
      expect(done.usage).toEqual(usage(20, 5)); // the fake's text replies carry no usage

      // The model continues the conversation: the prompt, its own question, the answer.
      expect(model.requests.at(-1)!.body.messages).toEqual([
        { role: 'user', content: 'Fix the failing test.' },
        { role: 'assistant', content: QUESTION },
        { role: 'user', content: 'release-1.2' },
      ]);
      const conversation = await world.admin.get(`/agent/runs/${runId}/conversation`);
      expect(blocksOf(conversation.body)).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Fix the failing test.' }] },
        { role: 'assistant', content: [{ type: 'text', text: QUESTION }] },
        { role: 'user', content: [{ type: 'text', text: 'release-1.2' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Fixed on release-1.2.' }] },
      ]);

      await stream.ended;
      const states = stream.events.filter((e) => e.event === 'state').map((e) => e.data.state);
      expect(states).toEqual(['QUEUED', 'CLAIMED', 'INPROGRESS', 'BLOCKED', 'QUEUED', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'runs the other tool calls of the answer first, and gives an invalid question back to the model as a tool error',
    async () => {
      await start();
      model.reply(
        toolCalls([{ id: 'call_bad', name: 'ask_user', arguments: { question: '  ' } }]),
        toolCalls([
          { id: 'call_plan', name: 'publish_artifact', arguments: { artifact_type: 'PLAN', content: '1. ask' } },
          { id: 'call_ask', name: 'ask_user', arguments: { question: QUESTION } },
        ]),
      );
      const runId = await createRun(world.admin, { prompt: 'Plan, then ask.' });
      const blocked = await settled(runId, ['BLOCKED', 'SUCCEEDED', 'FAILED', 'ERROR']);
      expect(blocked.state).toBe('BLOCKED');
      expect(blocked.status_message).toEqual({ message: QUESTION });
      expect(model.requests[1]!.body.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_bad',
        content: 'Error: ask_user needs {"question": "<what you need to know>"}',
      });
      expect(blocked.artifacts).toEqual([expect.objectContaining({ artifact_type: 'PLAN' })]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'ends a forgotten question FAILED blocked_timeout at RUN_BLOCKED_TIMEOUT_SECONDS, and a late answer still resumes it',
    async () => {
      await start({ RUN_BLOCKED_TIMEOUT_SECONDS: String(DAY_MS / 1000) });
      const { uid, secret } = await world.subscribe({ event_types: ['run.blocked', 'run.failed'] });
      model.reply(ask(QUESTION));
      const runId = await createRun(world.admin, { prompt: 'Ask me.' });
      await settled(runId, ['BLOCKED']);
      const [blockedEvent] = await world.receiver.waitFor(1);
      expect(verifyDelivery(blockedEvent!, secret, world.clock)).toMatchObject({ type: 'run.blocked', data: { previous_state: 'INPROGRESS' } });
      // Delivered and recorded before the clock jumps a day (else the delivery's lease would lapse with it).
      await world.waitForLog(uid, (attempts) => attempts.some((a) => a.event_type === 'run.blocked' && a.outcome === 'succeeded'));

      world.clock.advance(DAY_MS - 1000);
      expect(await sweepUnansweredRuns(world.server.ctx)).toEqual([]);
      world.clock.advance(1000);
      expect(await sweepUnansweredRuns(world.server.ctx)).toEqual([runId]);
      const failed = (await world.admin.get(`/agent/runs/${runId}`)).body;
      expect(failed.state).toBe('FAILED');
      expect(failed.status_message).toEqual({
        message: `No answer came within 86400 s (RUN_BLOCKED_TIMEOUT_SECONDS) to the question: ${QUESTION}`,
        error_code: 'blocked_timeout',
        retryable: true,
      });
      await world.waitForLog(uid, (attempts) => attempts.some((a) => a.event_type === 'run.failed' && a.outcome === 'succeeded'));
      const failedEvent = world.receiver.received.find((r) => JSON.parse(r.body).type === 'run.failed')!;
      expect(verifyDelivery(failedEvent, secret, world.clock)).toMatchObject({
        type: 'run.failed',
        data: { previous_state: 'BLOCKED', status_message: { error_code: 'blocked_timeout' } },
      });
      expect(await sweepUnansweredRuns(world.server.ctx)).toEqual([]);

      model.reply(text('Then main.'));
      expect((await world.admin.post(`/agent/runs/${runId}/followups`, { message: 'main, sorry for the wait' })).status).toBe(200);
      expect((await settled(runId, ['SUCCEEDED', 'FAILED', 'ERROR'])).state).toBe('SUCCEEDED');
      expect(model.requests.at(-1)!.body.messages.slice(-2)).toEqual([
        { role: 'assistant', content: QUESTION },
        { role: 'user', content: 'main, sorry for the wait' },
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'cancels a BLOCKED run, which then takes no answer',
    async () => {
      await start();
      model.reply(ask(QUESTION));
      const runId = await createRun(world.admin, { prompt: 'Ask me.' });
      await settled(runId, ['BLOCKED']);
      const cancelled = await world.admin.post(`/agent/runs/${runId}/cancel`);
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body).toBe(runId);
      expect((await world.admin.get(`/agent/runs/${runId}`)).body.state).toBe('CANCELLED');
      expectProblem(await world.admin.post(`/agent/runs/${runId}/followups`, { message: 'too late' }), 409, 'conflict');
      world.clock.advance(2 * DAY_MS);
      expect(await sweepUnansweredRuns(world.server.ctx)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'lets the command runner ask with an ::ask_user:: line and run again with the answer on stdin',
    async () => {
      const script = [
        'if [ "$AGENT_RUN_INPUT" = initial ]; then',
        '  echo "looking around"',
        '  echo \'::ask_user::{"question": "Which file?"}\'',
        "  echo '::ask_user::not json'",
        'else',
        '  echo "answer: $(cat)"',
        'fi',
      ].join('\n');
      model = await FakeModel.start();
      world = await startNotificationWorld(kind, { engine: { sweeper: false }, env: { RUNNER: 'command', AGENT_COMMAND: script, WORKER_CONCURRENCY: '1' } });
      const runId = await createRun(world.admin, { prompt: 'Edit a file.' });
      const blocked = await settled(runId, ['BLOCKED', 'SUCCEEDED', 'FAILED', 'ERROR']);
      expect(blocked.state).toBe('BLOCKED');
      expect(blocked.status_message).toEqual({ message: 'Which file?' });

      expect((await world.admin.post(`/agent/runs/${runId}/followups`, { message: 'README.md' })).status).toBe(200);
      expect((await settled(runId, ['SUCCEEDED', 'FAILED', 'ERROR'])).state).toBe('SUCCEEDED');
      const assistant = blocksOf((await world.admin.get(`/agent/runs/${runId}/conversation`)).body)
        .filter((m) => m.role === 'assistant')
        .flatMap((m) => m.content);
      expect(assistant).toEqual([
        { type: 'text', text: 'looking around\n' },
        { type: 'text', text: 'Which file?' },
        { type: 'event', name: 'ask_user_rejected', data: { reason: 'ask_user needs one JSON object {"question": "…"}' } },
        { type: 'text', text: 'answer: README.md\n' },
      ]);
    },
    TEST_TIMEOUT_MS,
  );
});
