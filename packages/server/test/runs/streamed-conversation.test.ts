/**
 * GET …/conversation and the transcript download are streamed (docs/decisions.md §Streamed conversations
 * and the per-run output bound): the same bytes as the whole answer built in memory, a large one goes out
 * while the server answers others, a client that goes away stops it; and a run that stores more than
 * RUN_OUTPUT_LIMIT_MB over its executions ends FAILED `output_limit` with what it stored still readable.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationIdFor, groupMessages, loadContentEvents, loadSteps } from '../../src/runs/conversation';
import { testDatabases } from '../support/databases';
import { apiClient, waitForRunState, type ApiClient } from '../support/http';
import { startTestServer, type TestServer } from '../support/server';

// Prints the number of bytes its first stdin line asks for, as 999-character lines.
const PRINT_WHAT_IS_ASKED = `read n; head -c "$n" /dev/zero | tr '\\0' x | fold -w 999`;
const MB = 1024 * 1024;
// Recording 16 MB through the command runner takes a while on a loaded machine and PostgreSQL.
const LARGE_RUN_TIMEOUT_MS = 180_000;

/** The answers as they were built whole before they were streamed: the reference the stream must equal. */
async function wholeAnswers(server: TestServer, teamId: string, runId: string): Promise<{ conversation: string; transcript: string }> {
  const db = server.ctx.db;
  const steps = await loadSteps(db, teamId, runId);
  const messages = groupMessages(await loadContentEvents(db, teamId, runId));
  const conversation = {
    conversation_id: conversationIdFor(runId),
    steps: steps.map((step) => ({
      id: step.id,
      ...(step.description !== null ? { description: step.description } : {}),
      ...(step.summary !== null ? { summary: step.summary } : {}),
      started_at: step.started_at,
      ...(step.completed_at !== null ? { completed_at: step.completed_at } : {}),
      messages: messages
        .filter((m) => m.stepId === step.id)
        .map((m) => ({ message_ids: [m.messageId], role: m.role, timestamp: m.timestamp, content: m.content })),
      steps: [],
    })),
  };
  const transcript = messages
    .map((m) => `${JSON.stringify({ step_id: m.stepId, message_id: m.messageId, role: m.role, timestamp: m.timestamp, content: m.content })}\n`)
    .join('');
  return { conversation: JSON.stringify(conversation), transcript };
}

/** A GET whose body the test reads at its own pace. */
function openRawGet(url: string, apiKey: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers: { authorization: `Bearer ${apiKey}` } }, resolve).on('error', reject);
  });
}

async function streamedResponsesOpen(server: TestServer, route: string): Promise<number> {
  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`http_streamed_responses{route="${route}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}

const assistantText = (conversation: any): string =>
  conversation.steps
    .flatMap((s: any) => s.messages)
    .filter((m: any) => m.role === 'assistant')
    .flatMap((m: any) => m.content)
    .map((b: any) => (b.type === 'text' ? b.text : ''))
    .join('');

describe.each(testDatabases())('streamed conversations (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let team: { teamId: string; apiKey: string };
  beforeAll(async () => {
    server = await startTestServer({ database, env: { RUNNER: 'command', AGENT_COMMAND: PRINT_WHAT_IS_ASKED, SANDBOX_OUTPUT_BYTES: String(64 * MB) } });
    team = await server.createTeamWithKey('readers', 'member');
    api = apiClient(server.apiUrl, team.apiKey);
  });
  afterAll(() => server?.close());

  it('answers the conversation and the transcript with exactly the bytes of the whole answer', async () => {
    const { run_id } = (await api.post('/agent/runs', { prompt: '3000' })).body;
    await waitForRunState(api, run_id, ['SUCCEEDED']);
    expect((await api.post(`/agent/runs/${run_id}/followups`, { message: '2000' })).status).toBe(200);
    await waitForRunState(api, run_id, ['SUCCEEDED'], 20_000);
    const expected = await wholeAnswers(server, team.teamId, run_id);

    const conversation = await fetch(`${server.apiUrl}/agent/runs/${run_id}/conversation`, { headers: { authorization: `Bearer ${team.apiKey}` } });
    expect(conversation.status).toBe(200);
    expect(conversation.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await conversation.text();
    expect(text).toBe(expected.conversation);
    expect(JSON.parse(text).steps).toHaveLength(2);

    const location = (
      await fetch(`${server.apiUrl}/agent/runs/${run_id}/transcript`, { headers: { authorization: `Bearer ${team.apiKey}` }, redirect: 'manual' })
    ).headers.get('location')!;
    const transcript = await fetch(location);
    expect(transcript.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await transcript.text()).toBe(expected.transcript);
  });

  it(
    'streams a large conversation: the server answers others while a reader holds it paused, and it is whole in the end',
    async () => {
      const size = 16 * MB;
      const { run_id } = (await api.post('/agent/runs', { prompt: String(size) })).body;
      await waitForRunState(api, run_id, ['SUCCEEDED'], 120_000);

      const reader = await openRawGet(`${server.apiUrl}/agent/runs/${run_id}/conversation`, team.apiKey);
      expect(reader.statusCode).toBe(200);
      const chunks: Buffer[] = [Buffer.from(await new Promise<Buffer>((resolve) => reader.once('data', resolve)))];
      reader.pause();
      // Far more than any socket buffer is still to come, and the server answers meanwhile.
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
      expect((await api.get(`/agent/runs/${run_id}`)).body.state).toBe('SUCCEEDED');
      expect(await streamedResponsesOpen(server, 'getRunConversation')).toBe(1);

      reader.on('data', (chunk: Buffer) => chunks.push(chunk));
      reader.resume();
      await new Promise((resolve) => reader.on('end', resolve));
      const conversation = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const printed = assistantText(conversation);
      expect(printed.replaceAll('\n', '')).toBe('x'.repeat(size));
      await until(async () => (await streamedResponsesOpen(server, 'getRunConversation')) === 0);
    },
    LARGE_RUN_TIMEOUT_MS,
  );

  it(
    'stops streaming when the client goes away mid-answer',
    async () => {
      const { run_id } = (await api.post('/agent/runs', { prompt: String(16 * MB) })).body;
      await waitForRunState(api, run_id, ['SUCCEEDED'], 120_000);
      const reader = await openRawGet(`${server.apiUrl}/agent/runs/${run_id}/conversation`, team.apiKey);
      await new Promise((resolve) => reader.once('data', resolve));
      reader.pause();
      expect(await streamedResponsesOpen(server, 'getRunConversation')).toBe(1);
      reader.destroy();
      await until(async () => (await streamedResponsesOpen(server, 'getRunConversation')) === 0);
      // And the conversation is served whole to the next reader.
      const again = await fetch(`${server.apiUrl}/agent/runs/${run_id}/conversation`, { headers: { authorization: `Bearer ${team.apiKey}` } });
      expect(assistantText(await again.json()).length).toBeGreaterThan(16 * MB);
    },
    LARGE_RUN_TIMEOUT_MS,
  );
});

describe.each(testDatabases())('the per-run output bound (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ database, env: { RUNNER: 'command', AGENT_COMMAND: PRINT_WHAT_IS_ASKED, RUN_OUTPUT_LIMIT_MB: '1' } });
    api = apiClient(server.apiUrl, (await server.createTeamWithKey('printers', 'member')).apiKey);
  });
  afterAll(() => server?.close());

  it('ends FAILED output_limit when the executions of a run together pass RUN_OUTPUT_LIMIT_MB, keeping what was stored', async () => {
    const { run_id } = (await api.post('/agent/runs', { prompt: '600000' })).body;
    await waitForRunState(api, run_id, ['SUCCEEDED'], 20_000);
    expect((await api.post(`/agent/runs/${run_id}/followups`, { message: '600000' })).status).toBe(200);
    const failed = await waitForRunState(api, run_id, ['FAILED'], 20_000);
    expect(failed.status_message).toMatchObject({ error_code: 'output_limit', retryable: false });
    expect(failed.status_message.message).toMatch(
      /stored [\d.]+ MB \(\d+ bytes\) of output over its executions and stopped at the limit of 1\.0 MB \(RUN_OUTPUT_LIMIT_MB\)/,
    );
    const stored = Number(/\((\d+) bytes\)/.exec(failed.status_message.message)![1]);
    expect(stored).toBeGreaterThan(600000);
    expect(stored).toBeLessThanOrEqual(MB);

    const conversation = (await api.get(`/agent/runs/${run_id}/conversation`)).body;
    expect(conversation.steps).toHaveLength(2);
    const printed = assistantText(conversation);
    expect(printed.length).toBeGreaterThan(600000);
    expect(printed.length).toBeLessThan(MB);
  });

  it('ends FAILED output_limit within one execution too', async () => {
    const { run_id } = (await api.post('/agent/runs', { prompt: String(2 * MB) })).body;
    const failed = await waitForRunState(api, run_id, ['FAILED'], 20_000);
    expect(failed.status_message).toMatchObject({ error_code: 'output_limit', retryable: false });
    expect(assistantText((await api.get(`/agent/runs/${run_id}/conversation`)).body).length).toBeLessThanOrEqual(MB);
  });
});
