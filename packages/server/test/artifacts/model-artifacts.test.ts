/**
 * The model runner's `publish_artifact` tool end to end: the real server (RUNNER=model) against the fake
 * OpenAI-compatible provider, on both databases. The calls are recorded like other tool calls (action,
 * action_result) plus the `artifact` event, create the run's artifacts, and are refused (a failed result
 * the model reads) when they break the rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { testDatabases } from '../support/databases';
import { startTestServer, type TestServer } from '../support/server';
import { FakeModel, text, toolCalls } from '../agent/support/fake-model';

type Json = any;

describe.each(testDatabases())('publish_artifact of the model runner (%s)', (database) => {
  let server: TestServer;
  let model: FakeModel;
  let key: string;

  beforeAll(async () => {
    model = await FakeModel.start();
    server = await startTestServer({ database, env: { RUNNER: 'model', MODEL_BASE_URL: model.url, DEFAULT_MODEL_ID: 'fake', ARTIFACT_MAX_BYTES: '1000' } });
    key = (await server.createTeamWithKey('model-artifacts', 'member')).apiKey;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  async function call(method: string, p: string, body?: unknown) {
    const res = await fetch(`${server.apiUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  async function finished(runId: string) {
    const until = Date.now() + 20_000;
    for (;;) {
      const run = (await call('GET', `/agent/runs/${runId}`)).body;
      if (['SUCCEEDED', 'FAILED', 'ERROR'].includes(run.state)) return run;
      if (Date.now() > until) throw new Error(`run stayed ${run.state}`);
      await delay(50);
    }
  }

  it('offers the tool with its JSON schema, publishes what the model asks for and records the call like any other', async () => {
    const report = '# Report\n\nAll green.\n';
    model.reply(
      toolCalls([
        { id: 'call_pr', name: 'publish_artifact', arguments: { artifact_type: 'PULL_REQUEST', url: 'https://git.example.com/a/b/pull/3', branch: 'fix' } },
        { id: 'call_file', name: 'publish_artifact', arguments: { artifact_type: 'FILE', filename: 'report.md', content: report, title: 'Report' } },
        { id: 'call_plan', name: 'publish_artifact', arguments: { artifact_type: 'PLAN', content: '# Next steps\n- ship\n' } },
      ]),
      text('Published.'),
    );
    const created = await call('POST', '/agent/runs', { prompt: 'Open a PR and report.' });
    const run = await finished(created.body.run_id);
    expect(run.state).toBe('SUCCEEDED');

    const tool = model.requests[0]!.body.tools.find((t: Json) => t.function.name === 'publish_artifact');
    expect(tool.function.parameters).toMatchObject({ type: 'object', required: ['artifact_type'], additionalProperties: false });
    expect(tool.function.parameters.properties.artifact_type.enum).toEqual(['PULL_REQUEST', 'EXTERNAL_REFERENCE', 'FILE', 'SCREENSHOT', 'PLAN']);

    expect(run.artifacts.map((a: Json) => a.artifact_type)).toEqual(['PULL_REQUEST', 'FILE', 'PLAN']);
    const [pr, file, plan] = run.artifacts;
    expect(pr.data).toEqual({ url: 'https://git.example.com/a/b/pull/3', branch: 'fix' });
    expect(file.data).toMatchObject({ filepath: 'report.md', filename: 'report.md', title: 'Report', mime_type: 'text/markdown', size_bytes: report.length });
    expect(plan.data.title).toBe('Next steps');

    const downloaded = await call('GET', `/agent/artifacts/${file.data.artifact_uid}`);
    expect(await (await fetch(downloaded.body.data.download_url)).text()).toBe(report);

    // The model got the item back as the tool's answer.
    const toolAnswers = model.requests[1]!.body.messages.filter((m: Json) => m.role === 'tool');
    expect(JSON.parse(toolAnswers[1].content)).toEqual(file);

    const conversation = await call('GET', `/agent/runs/${run.run_id}/conversation`);
    const messages = conversation.body.steps[0].messages;
    expect(messages.find((m: Json) => m.role === 'assistant').content).toContainEqual({
      type: 'action',
      id: 'call_file',
      category: 'documents',
      name: 'publish_artifact',
      input: { artifact_type: 'FILE', filename: 'report.md', content: `[${report.length} bytes, published as the artifact]`, title: 'Report' },
    });
    const toolBlocks = messages.filter((m: Json) => m.role === 'tool').flatMap((m: Json) => m.content);
    expect(toolBlocks).toContainEqual({
      type: 'action_result',
      action_id: 'call_file',
      category: 'documents',
      name: 'publish_artifact',
      state: 'completed',
      output: file,
    });
    expect(toolBlocks.filter((b: Json) => b.type === 'event' && b.name === 'artifact').map((b: Json) => b.data)).toEqual(run.artifacts);
  });

  it('refuses a traversal name, a non-image screenshot, an oversize file and a non-http link with a failed result the model reads', async () => {
    model.reply(
      toolCalls([
        { id: 'c1', name: 'publish_artifact', arguments: { artifact_type: 'FILE', filename: '../../etc/passwd', content: 'x' } },
        {
          id: 'c2',
          name: 'publish_artifact',
          arguments: { artifact_type: 'SCREENSHOT', filename: 'a.png', content_base64: Buffer.from('not an image').toString('base64') },
        },
        { id: 'c3', name: 'publish_artifact', arguments: { artifact_type: 'FILE', filename: 'big.txt', content: 'x'.repeat(1001) } },
        { id: 'c4', name: 'publish_artifact', arguments: { artifact_type: 'EXTERNAL_REFERENCE', url: 'ftp://x.example.com/a', reference_type: 'x' } },
        { id: 'c5', name: 'publish_artifact', arguments: '{"artifact_type": ' },
      ]),
      text('Could not publish.'),
    );
    const created = await call('POST', '/agent/runs', { prompt: 'Publish odd things.' });
    const run = await finished(created.body.run_id);
    expect(run.state).toBe('SUCCEEDED');
    expect(run.artifacts).toEqual([]);
    const answers = model.requests
      .at(-1)!
      .body.messages.filter((m: Json) => m.role === 'tool')
      .map((m: Json) => m.content);
    expect(answers).toEqual([
      'Error: filename must be a plain file name (no / or \\, not . or ..)',
      'Error: a SCREENSHOT must be a PNG, JPEG, GIF or WebP image',
      'Error: FILE is 1001 bytes, over the limit of 1000 (ARTIFACT_MAX_BYTES)',
      'Error: url must be http or https, not ftp',
      'Error: The tool arguments are not valid JSON.',
    ]);
  });
});
