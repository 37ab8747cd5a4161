/**
 * The model runner against a fake OpenAI-compatible server over real HTTP: the exact requests it sends,
 * streaming, retries, failures and their status messages, cancel, follow-ups, resume and limits.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelRunner, type ModelRunnerOptions } from '../../src/engine/runners/model';
import type { ConversationTurn } from '../../src/runs/contract';
import type { RunOutcome } from '../../src/engine/runner';
import { availableBundledSkillIds, findBundledSkill } from '../../src/skills/catalog';
import { FakeModel, status, text, toolCalls, usage, type Reply } from './support/fake-model';
import { buildRunContext, type TestRun } from './support/run-context';

let model: FakeModel;
const runs: TestRun[] = [];

beforeEach(async () => {
  model = await FakeModel.start();
});
afterEach(async () => {
  await model.close();
  for (const r of runs.splice(0)) r.cleanup();
});

function runner(overrides: Partial<ModelRunnerOptions> = {}) {
  return createModelRunner({
    baseUrl: model.url,
    apiKey: 'sk-test',
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    ...overrides,
  });
}

function testRun(options: Parameters<typeof buildRunContext>[0] = {}): TestRun {
  const run = buildRunContext(options);
  runs.push(run);
  return run;
}

const READ_SKILL_PARAMETERS = {
  type: 'object',
  properties: {
    skill: {
      type: 'string',
      description: 'A skill from the list (its id), or a skill reference owner/repo:skill-name or owner/repo:path/to/SKILL.md.',
    },
  },
  required: ['skill'],
  additionalProperties: false,
};

describe('model runner: requests', () => {
  it('sends base_prompt as the system prompt, the prompt as the first user message, the read_skill and publish_artifact tools, the model and stream options', async () => {
    model.reply(text('Hello there!', usage(12, 3)));
    const run = testRun({ config: { model_id: 'gpt-test', base_prompt: 'You are terse.' }, prompt: 'Say hello.' });

    const outcome = await runner().run(run.ctx);

    expect(outcome).toEqual({ state: 'SUCCEEDED' });
    expect(run.usage.added).toEqual([{ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 }]);
    expect(model.requests).toHaveLength(1);
    const [request] = model.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(Object.keys(request!.body)).toEqual(['model', 'messages', 'tools', 'stream', 'stream_options']);
    expect(request!.body.model).toBe('gpt-test');
    expect(request!.body.stream).toBe(true);
    expect(request!.body.stream_options).toEqual({ include_usage: true });
    expect(request!.body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say hello.' },
    ]);
    expect(request!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'read_skill',
      'publish_artifact',
      ...['Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep'], // the workspace tools (workspace-tools.test.ts)
      'ask_user',
    ]);
    const [readSkill, publishArtifact] = request!.body.tools;
    const askUser = request!.body.tools.at(-1);
    expect(publishArtifact.function.name).toBe('publish_artifact');
    expect(askUser.function).toMatchObject({ name: 'ask_user', parameters: { type: 'object', required: ['question'] } });
    expect(readSkill.type).toBe('function');
    expect(readSkill.function.name).toBe('read_skill');
    expect(readSkill.function.parameters).toEqual(READ_SKILL_PARAMETERS);
    for (const id of availableBundledSkillIds()) {
      expect(readSkill.function.description).toContain(`- ${id}: ${findBundledSkill(id)!.description}`);
    }
    // Only the assistant's answer is the runner's to record (the engine recorded the prompt).
    expect(run.conversation.messages).toEqual([{ turn: 1, role: 'assistant', content: [{ type: 'text', text: 'Hello there!' }] }]);
  });

  it('sends no system message without base_prompt, and DEFAULT_MODEL_ID when the config names no model', async () => {
    model.reply(text('ok'));
    const run = testRun({ config: {}, prompt: 'Hi' });
    const outcome = await runner({ defaultModelId: 'default-model' }).run(run.ctx);
    expect(outcome.state).toBe('SUCCEEDED');
    expect(model.requests[0]!.body.model).toBe('default-model');
    expect(model.requests[0]!.body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('fails without a model to call, before calling the provider', async () => {
    const run = testRun({ config: {} });
    const outcome = await runner().run(run.ctx);
    expect(outcome).toEqual({
      state: 'FAILED',
      statusMessage: expect.objectContaining({ error_code: 'model_not_configured', retryable: false }),
    });
    expect(model.requests).toHaveLength(0);
  });

  it('reassembles SSE lines split across network reads', async () => {
    model.reply({ kind: 'text', content: 'A longer answer, streamed in small pieces.', usage: usage(5, 9), sliceBytes: 7 });
    const run = testRun();
    const outcome = await runner().run(run.ctx);
    expect(outcome).toEqual({ state: 'SUCCEEDED' });
    expect(run.usage.added).toEqual([usage(5, 9)]);
    expect(run.conversation.blocks()).toEqual([{ type: 'text', text: 'A longer answer, streamed in small pieces.' }]);
  });

  it('accepts a provider that answers one JSON completion instead of a stream', async () => {
    model.reply({ kind: 'json', content: 'not streamed', usage: usage(2, 2) });
    const run = testRun();
    expect(await runner().run(run.ctx)).toEqual({ state: 'SUCCEEDED' });
    expect(run.usage.added).toEqual([usage(2, 2)]);
    expect(run.conversation.blocks()).toEqual([{ type: 'text', text: 'not streamed' }]);
  });

  it('inlines text attachments such as event-payload.json after the prompt and names binary ones by path', async () => {
    model.reply(text('done'));
    const payload = Buffer.from(JSON.stringify({ action: 'opened', issue: { number: 7 } }));
    const run = testRun({
      prompt: 'Triage the issue.\n\n[envelope]',
      attachments: [
        { fileName: 'event-payload.json', mimeType: 'application/json', data: payload },
        { fileName: 'logo.png', mimeType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
      ],
    });
    await runner().run(run.ctx);
    const user = model.requests[0]!.body.messages[0];
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Triage the issue.\n\n[envelope]' },
        {
          type: 'text',
          text: `Attached file event-payload.json (application/json, ${payload.length} bytes; also at ${run.workDir}/event-payload.json):\n\n${payload.toString()}`,
        },
        {
          type: 'text',
          text: `Attached file logo.png (image/png, 4 bytes; also at ${run.workDir}/logo.png). Its content is not included here; read it from the working directory.`,
        },
      ],
    });
  });
});

describe('model runner: retries and failures', () => {
  it('retries a 429 after its Retry-After and then succeeds', async () => {
    model.reply(status(429, { error: { message: 'slow down' } }, { 'retry-after': '1' }), text('finally'));
    const run = testRun();
    const outcome = await runner().run(run.ctx);
    expect(outcome.state).toBe('SUCCEEDED');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.at - model.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(model.requests[1]!.body).toEqual(model.requests[0]!.body);
  });

  it('retries 5xx answers and succeeds when the provider recovers', async () => {
    model.reply(status(502), status(503), text('recovered'));
    const outcome = await runner().run(testRun().ctx);
    expect(outcome.state).toBe('SUCCEEDED');
    expect(model.requests).toHaveLength(3);
  });

  it('ends in ERROR model_unavailable (retryable) when 500s outlast the attempts', async () => {
    model.reply(status(500), status(500), status(500), status(500));
    const outcome = await runner().run(testRun().ctx);
    expect(outcome).toEqual({
      state: 'ERROR',
      statusMessage: { message: expect.stringContaining('500'), error_code: 'model_unavailable', retryable: true },
    });
    expect(model.requests).toHaveLength(3);
  });

  it('ends in ERROR model_rate_limited (retryable) when 429s outlast the attempts', async () => {
    model.reply(status(429), status(429), status(429));
    const outcome = await runner().run(testRun().ctx);
    expect(outcome).toMatchObject({ state: 'ERROR', statusMessage: { error_code: 'model_rate_limited', retryable: true } });
  });

  it('fails with model_request_rejected without retrying a 429 insufficient_quota (no credit left, or a budget refusal)', async () => {
    model.reply(status(429, { error: { message: 'The run used its budget.', type: 'insufficient_quota', code: 'insufficient_quota' } }));
    const outcome = await runner().run(testRun().ctx);
    expect(outcome).toMatchObject({
      state: 'FAILED',
      statusMessage: { message: expect.stringContaining('The run used its budget.'), error_code: 'model_request_rejected', retryable: false },
    });
    expect(model.requests).toHaveLength(1);
  });

  it.each([401, 400, 404])('fails with model_request_rejected (not retryable) on %i without retrying', async (code) => {
    model.reply(status(code, { error: { message: 'The model `nope` does not exist or you do not have access to it.' } }));
    const outcome = await runner().run(testRun().ctx);
    expect(outcome).toEqual({
      state: 'FAILED',
      statusMessage: {
        message: expect.stringContaining('does not exist or you do not have access'),
        error_code: 'model_request_rejected',
        retryable: false,
      },
    });
    expect(model.requests).toHaveLength(1);
  });

  it('ends in ERROR model_unavailable when the provider cannot be reached', async () => {
    const url = model.url;
    await model.close();
    const outcome = await createModelRunner({ baseUrl: url, retry: { maxAttempts: 2, baseDelayMs: 1 } }).run(testRun().ctx);
    expect(outcome).toMatchObject({ state: 'ERROR', statusMessage: { error_code: 'model_unavailable', retryable: true } });
    model = await FakeModel.start(); // for afterEach
  });

  it('times out a model call after model_call_timeout_seconds and retries it', async () => {
    model.reply({ kind: 'hang' }, text('second try'));
    const run = testRun({ config: { model_id: 'm', model_call_timeout_seconds: 1 } });
    const started = Date.now();
    const outcome = await runner().run(run.ctx);
    expect(outcome.state).toBe('SUCCEEDED');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(model.requests).toHaveLength(2);
    await model.abandoned[0];
  });

  it('fails with max_turns_exceeded when the agent keeps calling tools', async () => {
    const call = (id: string) => toolCalls([{ id, name: 'read_skill', arguments: { skill: 'service-platform' } }], usage(10, 1));
    model.reply(call('c1'), call('c2'), call('c3'));
    const run = testRun({ config: { model_id: 'm', max_turns: 2 } });
    const outcome = await runner().run(run.ctx);
    expect(outcome).toEqual({
      state: 'FAILED',
      statusMessage: { message: expect.stringContaining('max_turns (2'), error_code: 'max_turns_exceeded', retryable: false },
    });
    expect(run.usage.total).toEqual(usage(20, 2));
    expect(model.requests).toHaveLength(2);
  });

  it('fails with run_timeout when the turn outlasts run_timeout_seconds', async () => {
    model.reply({ kind: 'hang', partial: 'thinking' });
    const run = testRun({ config: { model_id: 'm', run_timeout_seconds: 1 } });
    const outcome = await runner().run(run.ctx);
    expect(outcome).toMatchObject({ state: 'FAILED', statusMessage: { error_code: 'run_timeout', retryable: false } });
    await model.abandoned[0];
  });
});

describe('model runner: cancel', () => {
  it('aborts the in-flight streaming request when the run is cancelled', async () => {
    model.reply({ kind: 'hang', partial: 'Let me th' });
    const run = testRun();
    const pending = runner().run(run.ctx);
    await model.waitForRequests(1);
    await delay(50); // the partial answer is being read
    run.cancel.abort();
    // The answer never ends by itself: only the abort of the request can settle the run.
    const outcome = await pending;
    expect(outcome).toMatchObject({ state: 'ERROR', statusMessage: { error_code: 'run_cancelled' } });
    await model.abandoned[0]; // the provider saw the connection go away
    expect(run.conversation.messages).toEqual([]); // nothing half-streamed is recorded
    expect(model.requests).toHaveLength(1);
  });

  it('stops waiting for a retry when cancelled during the backoff', async () => {
    model.reply(status(503, undefined, { 'retry-after': '30' }));
    const run = testRun();
    // The runner logs each retry just before its backoff wait (here the 30 s Retry-After).
    const inBackoff = new Promise<void>((resolve) => {
      run.ctx.log = pino({ level: 'warn' }, { write: (line: string) => JSON.parse(line).msg === 'model call failed; retrying' && resolve() });
    });
    const pending = runner({ retry: { maxAttempts: 3, baseDelayMs: 1, maxRetryAfterMs: 60_000 } }).run(run.ctx);
    await inBackoff;
    run.cancel.abort();
    expect(await pending).toMatchObject({ state: 'ERROR', statusMessage: { error_code: 'run_cancelled' } });
    expect(model.requests).toHaveLength(1);
  });
});

describe('model runner: tool calls, follow-ups and resume', () => {
  it('sends tool results back and records action / action_result blocks', async () => {
    model.reply(toolCalls([{ id: 'call_1', name: 'read_skill', arguments: { skill: 'service-platform' } }], usage(100, 10)), text('Loaded it.', usage(200, 5)));
    const run = testRun();
    const outcome = await runner().run(run.ctx);
    expect(outcome).toEqual({ state: 'SUCCEEDED' });
    expect(run.usage.added).toEqual([usage(100, 10), usage(200, 5)]); // each call's, as it was answered

    const second = model.requests[1]!.body.messages;
    expect(second.slice(0, 2)).toEqual([
      { role: 'user', content: 'Say hello.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_skill', arguments: '{"skill":"service-platform"}' } }],
      },
    ]);
    expect(second[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(second[2].content).toContain('# Running and inspecting cloud agent runs');
    expect(run.conversation.messages.map((m) => [m.role, m.content.map((b) => b.type)])).toEqual([
      ['assistant', ['action']],
      ['tool', ['action_result']],
      ['assistant', ['text']],
    ]);
  });

  it('answers invalid tool arguments and unknown tools with failed results the model can read', async () => {
    model.reply(
      toolCalls([
        { id: 'bad', name: 'read_skill', arguments: '{"skill": ' },
        { id: 'nope', name: 'no_such_tool', arguments: {} },
        { id: 'raw', name: 'no_such_tool', arguments: '[1, 2' },
      ]),
      text('sorry'),
    );
    const run = testRun();
    await runner().run(run.ctx);
    expect(run.conversation.results()).toEqual([
      {
        type: 'action_result',
        action_id: 'bad',
        category: 'skill',
        name: 'read_skill',
        state: 'failed',
        output: { text: 'The tool arguments are not valid JSON.' },
      },
      {
        type: 'action_result',
        action_id: 'nope',
        category: 'integration',
        name: 'no_such_tool',
        state: 'failed',
        output: { text: 'There is no tool named no_such_tool.' },
      },
      {
        type: 'action_result',
        action_id: 'raw',
        category: 'integration',
        name: 'no_such_tool',
        state: 'failed',
        output: { text: 'There is no tool named no_such_tool.' },
      },
    ]);
    // Arguments that are not a JSON object are recorded as an object (contract: ActionBlock's input).
    expect(run.conversation.actions().find((a) => a.id === 'raw')!.input).toEqual({ unparsed_arguments: '[1, 2' });
    const toolMessages = model.requests[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(toolMessages).toEqual([
      { role: 'tool', tool_call_id: 'bad', content: 'Error: The tool arguments are not valid JSON.' },
      { role: 'tool', tool_call_id: 'nope', content: 'Error: There is no tool named no_such_tool.' },
      { role: 'tool', tool_call_id: 'raw', content: 'Error: There is no tool named no_such_tool.' },
    ]);
  });

  it('puts a follow-up that arrives mid-run into the next model request and opens a new turn', async () => {
    let run!: TestRun;
    model.reply(() => {
      run.inbox.push('Also mention the weather.');
      return toolCalls([{ id: 'call_1', name: 'read_skill', arguments: { skill: 'model-api' } }]);
    }, text('Hello, and it is sunny.'));
    run = testRun({ prompt: 'Say hello.' });
    const outcome = await runner().run(run.ctx);
    expect(outcome.state).toBe('SUCCEEDED');
    expect(model.requests).toHaveLength(2);
    const first = model.requests[0]!.body.messages;
    const second = model.requests[1]!.body.messages;
    expect(first).toEqual([{ role: 'user', content: 'Say hello.' }]);
    expect(second.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(second[3]).toEqual({ role: 'user', content: 'Also mention the weather.' });
    // The answer to the follow-up belongs to turn 2.
    expect(run.conversation.messages.at(-1)).toEqual({ turn: 2, role: 'assistant', content: [{ type: 'text', text: 'Hello, and it is sunny.' }] });
  });

  it('keeps working when a follow-up arrives just as the model answers', async () => {
    let run!: TestRun;
    model.reply(() => {
      run.inbox.push('Now in French.');
      return text('Hello!');
    }, text('Bonjour !'));
    run = testRun();
    expect((await runner().run(run.ctx)).state).toBe('SUCCEEDED');
    expect(model.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'Say hello.' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Now in French.' },
    ]);
    expect(run.conversation.turn).toBe(2);
  });

  it('resumes a finished run from its recorded conversation plus the new follow-ups', async () => {
    model.reply(text('Bonjour !'));
    const ts = '2026-11-21T10:00:00.000Z';
    const history: ConversationTurn[] = [
      {
        position: 1,
        messages: [
          { role: 'user', timestamp: ts, content: [{ type: 'text', text: 'Say hello.' }] },
          {
            role: 'assistant',
            timestamp: ts,
            content: [
              { type: 'text', text: 'Checking the docs.' },
              {
                type: 'action',
                id: 'call_1',
                category: 'skill',
                name: 'read_skill',
                input: { name: 'Service platform', bundled_skill_id: 'service-platform' },
              },
            ],
          },
          {
            role: 'tool',
            timestamp: ts,
            content: [
              { type: 'action_result', action_id: 'call_1', category: 'skill', name: 'read_skill', state: 'completed', output: { text: 'SKILL TEXT' } },
            ],
          },
          { role: 'assistant', timestamp: ts, content: [{ type: 'text', text: 'Hello!' }] },
        ],
      },
    ];
    const run = testRun({
      config: { model_id: 'm', base_prompt: 'Be brief.' },
      input: { kind: 'resume', messages: ['Now in French.'] },
      history,
    });
    expect((await runner().run(run.ctx)).state).toBe('SUCCEEDED');
    expect(model.requests[0]!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello.' },
      {
        role: 'assistant',
        content: 'Checking the docs.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_skill', arguments: '{"skill":"service-platform"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'SKILL TEXT' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Now in French.' },
    ]);
    // The follow-up is already recorded by the engine; the runner records only its answer.
    expect(run.conversation.messages).toEqual([{ turn: 1, role: 'assistant', content: [{ type: 'text', text: 'Bonjour !' }] }]);
  });
});

describe('model runner: outcome shape', () => {
  it('has recorded the usage of the calls answered before a failure', async () => {
    const replies: Reply[] = [toolCalls([{ id: 'c', name: 'read_skill', arguments: { skill: 'create-skill' } }], usage(7, 1)), status(401)];
    model.reply(...replies);
    const run = testRun();
    const outcome: RunOutcome = await runner().run(run.ctx);
    expect(outcome).toMatchObject({ state: 'FAILED' });
    expect(run.usage.added).toEqual([usage(7, 1)]);
  });
});
