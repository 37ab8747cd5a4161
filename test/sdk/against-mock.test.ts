// Every SDK method against the Prism mock of openapi/v1.yaml: Prism validates each request against the
// contract (an invalid one answers 4xx with `sl-violations`, which the SDK would throw on), and the
// answer — the contract's own example — comes back through the SDK's types. The methods are discovered
// by walking the client's resources, and the operations they hit are matched against the spec, so a new
// SDK method or a new REST operation without a case here fails the suite.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  AgentRuns,
  CursorPage,
  type ArtifactResponse,
  type ApiKey,
  type AuditEvent,
  type ApiKeyWithValue,
  type ApplyDefinitionsResponse,
  type Automation,
  type CloudEnvironment,
  type ConversationResponse,
  type DeleteScheduledAgentResponse,
  type Factory,
  type Fetch,
  type ListAgentsResponse,
  type ListModelsResponse,
  type ListSkillsResponse,
  type NotificationAttempt,
  type NotificationSubscription,
  type NotificationSubscriptionWithSecret,
  type ReplayNotificationEventResponse,
  type ReplayDeliveryResponse,
  type RunAgentResponse,
  type RunByExternalReferenceResponse,
  type RunEvent,
  type RunItem,
  type ScheduledAgentItem,
  type SecretMetadata,
  type TeamBudget,
  type TeamUsage,
  type TestFilterResult,
  type TranscriptLine,
  type Trigger,
  type Webhook,
  type WebhookDelivery,
  type WebhookWithSecret,
} from '@agent-runs/sdk';
// @ts-expect-error -- plain ESM helper shared with the Python test runner
import { startMock } from '../../scripts/lib/services.mjs';

const repositoryRoot = path.resolve(__dirname, '../..');

// Ids as the contract's examples spell them (Prism answers examples whatever the ids).
const RUN = '3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c';
const FAC = 'fac_01hzx3k4m5n6p7q8r9s0t1v2w3';
const WH = 'wh_01hzx3k4m5n6p7q8r9s0t1v2w3';
const DLV = 'dlv_01hzx3k4m5n6p7q8r9s0t1v2w3';
const AUT = 'aut_01hzx3k4m5n6p7q8r9s0t1v2w3';
const ENV = 'env_01hzx3k4m5n6p7q8r9s0t1v2w3';
const KEY = 'key_01hzx3k4m5n6p7q8r9s0t1v2w3';
const ART = '9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
const SCH = 'sch_01hzx3k4m5n6p7q8r9s0t1v2w3';
const SUB = 'sub_01hzx3k4m5n6p7q8r9s0t1v2w3';
const EVT = 'evt_01hzx3k4m5n6p7q8r9s0t1v2w3';
const trigger: Trigger = { provider: 'webhook', event: 'received', filter: { webhook_ids: [WH], payload: { action: ['opened'] } } };

/** Client-side helpers built from other methods (no operation of their own); exercised against the real server. */
const HELPERS = new Set(['agent.runs.createAndWait', 'agent.runs.wait']);

/** Reads at most `max` events within `ms`, then aborts the stream: Prism's SSE example must not hang a test. */
async function take<T>(stream: AsyncIterable<T> & { controller: AbortController }, max: number, ms: number): Promise<T[]> {
  const out: T[] = [];
  const timer = setTimeout(() => stream.controller.abort(), ms);
  try {
    for await (const event of stream) {
      out.push(event);
      if (out.length >= max) break;
    }
  } finally {
    clearTimeout(timer);
    stream.controller.abort();
  }
  return out;
}

const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);

/** One case per SDK method: a valid call, and an assertion on a key field of the typed answer. */
const cases: Record<string, (c: AgentRuns) => Promise<void>> = {
  // ---------------------------------------------------------------- agent.runs
  'agent.runs.create': async (c) => {
    const created: RunAgentResponse = await c.agent.runs.create({
      prompt: 'Summarise the open incidents',
      title: 'Incidents',
      config: { name: 'triage', model_id: 'gpt-4.1', max_turns: 5, mcp_servers: { gh: { url: 'https://mcp.example.org/gh' } } },
      attachments: [{ file_name: 'notes.txt', mime_type: 'text/plain', data: Buffer.from('hello').toString('base64') }],
    });
    expect(created).toMatchObject({ run_id: expect.any(String), task_id: created.run_id, state: 'QUEUED' });
  },
  'agent.runs.createLegacy': async (c) => {
    // The deprecated alias is still an SDK method.
    const created: RunAgentResponse = await c.agent.runs.createLegacy({ prompt: 'Legacy clients still call this' });
    expect(created.run_id).toEqual(expect.any(String));
  },
  'agent.runs.list': async (c) => {
    const page = await c.agent.runs.list({
      state: ['QUEUED', 'INPROGRESS'],
      limit: 10,
      sort_by: 'created_at',
      sort_order: 'asc',
      name: 'triage',
      source: 'WEBHOOK',
      factory_uid: FAC,
      created_after: '2026-01-01T00:00:00Z',
    });
    expect(page).toBeInstanceOf(CursorPage);
    const first: RunItem | undefined = page.data[0];
    expect(first).toMatchObject({ run_id: expect.any(String), state: expect.any(String), created_at: isoDate });
    expect(typeof page.hasNextPage()).toBe('boolean');
  },
  'agent.runs.retrieve': async (c) => {
    const run: RunItem = await c.agent.runs.retrieve(RUN);
    expect(run).toMatchObject({ run_id: expect.any(String), title: expect.any(String), prompt: expect.any(String) });
    expect(run.agent_config?.name).toEqual(expect.any(String));
  },
  'agent.runs.cancel': async (c) => {
    const id: string = await c.agent.runs.cancel(RUN);
    expect(id).toBe(RUN); // a bare JSON string
  },
  'agent.runs.followup': async (c) => {
    const answer: RunAgentResponse = await c.agent.runs.followup(RUN, { message: 'Also label it' });
    expect(answer.run_id).toEqual(expect.any(String));
  },
  'agent.runs.answer': async (c) => {
    const answer: RunAgentResponse = await c.agent.runs.answer(RUN, 'Use the staging database.');
    expect(answer.run_id).toEqual(expect.any(String));
  },
  'agent.runs.conversation': async (c) => {
    const conversation: ConversationResponse = await c.agent.runs.conversation(RUN);
    expect(conversation.steps.length).toBeGreaterThan(0);
    expect(conversation.steps[0]?.messages[0]?.role).toEqual(expect.any(String));
  },
  'agent.runs.setupLog': async (c) => {
    const log = await c.agent.runs.setupLog(RUN);
    expect(log.entries[0]).toMatchObject({ command: expect.any(String), position: expect.any(Number) });
  },
  'agent.runs.attachment': async (c) => {
    const response: Response = await c.agent.runs.attachment(RUN, 'event-payload.json');
    expect(response.status).toBe(200);
    expect((await response.text()).length).toBeGreaterThan(0);
  },
  'agent.runs.retrieveByExternalReference': async (c) => {
    const found: RunByExternalReferenceResponse = await c.agent.runs.retrieveByExternalReference('https://issues.example.com/ENG-42');
    expect(found.run_id).toEqual(expect.any(String));
  },
  'agent.getArtifact': async (c) => {
    const artifact: ArtifactResponse = await c.agent.getArtifact(ART);
    expect(artifact).toMatchObject({ artifact_uid: expect.any(String), artifact_type: 'FILE' });
    if (artifact.artifact_type === 'FILE') expect(artifact.data.download_url).toMatch(/\/content\?token=/);
  },
  'agent.downloadArtifact': async (c) => {
    const response: Response = await c.agent.downloadArtifact(ART);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
  },
  'agent.runs.transcript': async (c) => {
    // The mock answers the contract's 302; fetch follows it to the download operation's example.
    const response: Response = await c.agent.runs.transcript(RUN);
    expect(response.status).toBe(200);
    expect(response.url).toContain('/transcript/download?token=');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TranscriptLine);
    expect(lines[0]).toMatchObject({ role: 'user', content: [{ type: 'text' }] });
  },
  'agent.runs.downloadTranscript': async (c) => {
    const response: Response = await c.agent.runs.downloadTranscript(RUN, 'signed-token');
    expect(response.status).toBe(200);
    expect((await response.text()).split('\n').length).toBeGreaterThan(1);
  },
  'agent.runs.events': async (c) => {
    // Prism sends the example without its final blank line, so the last (terminal) event is never
    // dispatched and the stream would reconnect forever: read the first two events only.
    const events: RunEvent[] = await take(c.agent.runs.events(RUN), 2, 5_000);
    expect(events).toHaveLength(2);
    const first = events[0]!;
    expect(first.event).toBe('state');
    if (first.event === 'state') expect(first.data.state).toEqual(expect.any(String));
    expect(events.some((e) => e.event === 'content' && e.data.block.type === 'text')).toBe(true);
  },
  'agent.runs.teamEvents': async (c) => {
    const events: RunEvent[] = await take(c.agent.runs.teamEvents(), 1, 5_000);
    const first = events[0]!;
    expect(first.event).toBe('state');
    if (first.event === 'state') expect(first.data).toMatchObject({ run_id: expect.any(String), state: expect.any(String) });
  },
  // ---------------------------------------------------------------- agent, skills, models, environments
  'agent.list': async (c) => {
    const { agents }: ListAgentsResponse = await c.agent.list({ repo: 'acme/skills', sort_by: 'last_run', include_malformed_skills: true });
    expect(agents[0]?.variants[0]).toMatchObject({ id: expect.stringContaining(':'), source: { owner: expect.any(String) } });
  },
  'agent.skills.list': async (c) => {
    const { skills }: ListSkillsResponse = await c.agent.skills.list();
    expect(skills[0]).toMatchObject({ id: expect.any(String) });
  },
  'agent.harnesses.list': async (c) => {
    const { harnesses } = await c.agent.harnesses.list();
    expect(harnesses[0]).toMatchObject({ type: expect.any(String), version: expect.any(String), installed: expect.any(Boolean) });
  },
  'agent.models.list': async (c) => {
    const models: ListModelsResponse = await c.agent.models.list();
    expect(models.models.map((m) => m.id)).toContain(models.default_model_id);
  },
  'agent.environments.create': async (c) => {
    const env: CloudEnvironment = await c.agent.environments.create({
      name: 'node-20',
      description: 'Node 20 with deps',
      setup_commands: ['npm ci'],
      env_vars: { NPM_TOKEN: 'x' },
      github_repos: [],
    });
    expect(env.uid).toEqual(expect.any(String));
  },
  'agent.environments.list': async (c) => {
    const page = await c.agent.environments.list({ sort_by: 'name', limit: 5 });
    const env: CloudEnvironment | undefined = page.data[0];
    expect(env?.uid).toEqual(expect.any(String));
  },
  'agent.environments.retrieve': async (c) => {
    const env: CloudEnvironment = await c.agent.environments.retrieve(ENV);
    expect(env.config.name).toEqual(expect.any(String));
  },
  'agent.environments.update': async (c) => {
    const env: CloudEnvironment = await c.agent.environments.update(ENV, { env_vars: { NPM_TOKEN: 'y' } });
    expect(env.uid).toEqual(expect.any(String));
  },
  'agent.environments.delete': async (c) => {
    const response = await c.agent.environments.delete(ENV).asResponse();
    expect(response.status).toBe(204);
  },
  // ---------------------------------------------------------------- agent.schedules
  'agent.schedules.create': async (c) => {
    const schedule: ScheduledAgentItem = await c.agent.schedules.create({
      name: 'Daily code review',
      cron_schedule: '0 9 * * 1-5',
      time_zone: 'Europe/Paris',
      prompt: 'Review the open pull requests.',
      agent_config: { name: 'code-review' },
      metadata: { team: 'platform' },
    });
    expect(schedule).toMatchObject({ id: expect.any(String), enabled: expect.any(Boolean), history: { next_run: isoDate } });
  },
  'agent.schedules.list': async (c) => {
    const page = await c.agent.schedules.list({ limit: 100 });
    expect(page).toBeInstanceOf(CursorPage);
    const first: ScheduledAgentItem | undefined = page.data[0];
    expect(first).toMatchObject({ id: expect.any(String), cron_schedule: expect.any(String), time_zone: expect.any(String) });
  },
  'agent.schedules.retrieve': async (c) => {
    const schedule: ScheduledAgentItem = await c.agent.schedules.retrieve(SCH);
    expect(schedule.history.last_outcome).toEqual(expect.any(String));
  },
  'agent.schedules.update': async (c) => {
    const schedule: ScheduledAgentItem = await c.agent.schedules.update(SCH, {
      name: 'Daily code review',
      cron_schedule: '0 10 * * 1-5',
      enabled: true,
      prompt: 'Review.',
    });
    expect(schedule.name).toEqual(expect.any(String));
  },
  'agent.schedules.delete': async (c) => {
    const deleted: DeleteScheduledAgentResponse = await c.agent.schedules.delete(SCH);
    expect(deleted).toEqual({ success: true });
  },
  'agent.schedules.pause': async (c) => {
    const schedule: ScheduledAgentItem = await c.agent.schedules.pause(SCH);
    expect(schedule.id).toEqual(expect.any(String));
  },
  'agent.schedules.resume': async (c) => {
    const schedule: ScheduledAgentItem = await c.agent.schedules.resume(SCH);
    expect(schedule.id).toEqual(expect.any(String));
  },
  // ---------------------------------------------------------------- factories
  'factories.create': async (c) => {
    const factory: Factory = await c.factories.create({ name: 'support', definition_source: 'api' });
    expect(factory).toMatchObject({ uid: expect.any(String), definition_source: expect.stringMatching(/^(api|files)$/) });
  },
  'factories.list': async (c) => {
    const page = await c.factories.list({ limit: 2 });
    const factory: Factory | undefined = page.data[0];
    expect(factory?.uid).toEqual(expect.any(String));
  },
  'factories.retrieve': async (c) => {
    const factory: Factory = await c.factories.retrieve(FAC);
    expect(factory.created_at).toEqual(isoDate);
  },
  'factories.applyDefinitions': async (c) => {
    const applied: ApplyDefinitionsResponse = await c.factories.applyDefinitions(FAC, {
      files: [
        { path: 'webhooks/github.yaml', content: 'name: github\nauth_mode: signature\nsignature_scheme: github\n' },
        { path: 'automations/triage.md', content: '---\nname: triage\n---\nTriage it.\n' },
      ],
    });
    expect(Array.isArray(applied.webhooks)).toBe(true);
    expect(Array.isArray(applied.automations)).toBe(true);
  },
  'factories.testFilter': async (c) => {
    const verdict: TestFilterResult = await c.factories.testFilter(FAC, { delivery_id: DLV, trigger });
    expect(verdict.result).toMatch(/^Would (not )?trigger$/);
    expect(typeof verdict.webhook_check.passed).toBe('boolean');
  },
  'factories.runs.create': async (c) => {
    const created: RunAgentResponse = await c.factories.runs.create(FAC, { prompt: 'Run the nightly report', title: 'Nightly' });
    expect(created.run_id).toEqual(expect.any(String));
  },
  // ---------------------------------------------------------------- factories.webhooks
  'factories.webhooks.create': async (c) => {
    const webhook: WebhookWithSecret = await c.factories.webhooks.create(FAC, { name: 'Deploy events', auth_mode: 'token', enabled: true });
    expect(webhook).toMatchObject({ uid: expect.any(String), ingress_url: expect.any(String) });
    expect(webhook.secret).toEqual(expect.any(String));
  },
  'factories.webhooks.list': async (c) => {
    const page = await c.factories.webhooks.list(FAC, { limit: 20 });
    const webhook: Webhook | undefined = page.data[0];
    expect(webhook?.auth_mode).toEqual(expect.any(String));
  },
  'factories.webhooks.retrieve': async (c) => {
    const webhook: Webhook = await c.factories.webhooks.retrieve(FAC, WH);
    expect(webhook.uid).toEqual(expect.any(String));
  },
  'factories.webhooks.update': async (c) => {
    const webhook: Webhook = await c.factories.webhooks.update(FAC, WH, { enabled: false, delivery_id_header: null });
    expect(typeof webhook.enabled).toBe('boolean');
  },
  'factories.webhooks.rotateSecret': async (c) => {
    const rotated: WebhookWithSecret = await c.factories.webhooks.rotateSecret(FAC, WH);
    expect(rotated.secret).toEqual(expect.any(String));
    const provided: WebhookWithSecret = await c.factories.webhooks.rotateSecret(FAC, WH, { provider_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    expect(provided.uid).toEqual(expect.any(String));
  },
  'factories.webhooks.delete': async (c) => {
    const response = await c.factories.webhooks.delete(FAC, WH).asResponse();
    expect(response.status).toBe(204);
  },
  'factories.webhooks.deliveries.list': async (c) => {
    const page = await c.factories.webhooks.deliveries.list(FAC, WH, { limit: 10 });
    const delivery: WebhookDelivery | undefined = page.data[0];
    expect(delivery).toMatchObject({ delivery_id: expect.any(String), label: expect.any(String) });
  },
  'factories.webhooks.deliveries.retrieve': async (c) => {
    const delivery: WebhookDelivery = await c.factories.webhooks.deliveries.retrieve(FAC, WH, DLV);
    expect(delivery.delivery_id).toEqual(expect.any(String));
  },
  'factories.webhooks.deliveries.replay': async (c) => {
    const replayed: ReplayDeliveryResponse = await c.factories.webhooks.deliveries.replay(FAC, WH, DLV);
    expect(Array.isArray(replayed.runs)).toBe(true);
  },
  // ---------------------------------------------------------------- factories.automations
  'factories.automations.create': async (c) => {
    const automation: Automation = await c.factories.automations.create(FAC, {
      name: 'triage',
      prompt: 'Triage {{payload.issue.title}}',
      enabled: true,
      config: { name: 'triage' },
      triggers: [trigger],
    });
    expect(automation).toMatchObject({ uid: expect.any(String), triggers: expect.any(Array) });
  },
  'factories.automations.list': async (c) => {
    const page = await c.factories.automations.list(FAC, { limit: 5 });
    const automation: Automation | undefined = page.data[0];
    expect(automation?.selected_webhooks).toEqual(expect.any(Array));
  },
  'factories.automations.retrieve': async (c) => {
    const automation: Automation = await c.factories.automations.retrieve(FAC, AUT);
    expect(automation.uid).toEqual(expect.any(String));
  },
  'factories.automations.update': async (c) => {
    const automation: Automation = await c.factories.automations.update(FAC, AUT, { enabled: false, triggers: [trigger] });
    expect(typeof automation.enabled).toBe('boolean');
  },
  'factories.automations.delete': async (c) => {
    const response = await c.factories.automations.delete(FAC, AUT).asResponse();
    expect(response.status).toBe(204);
  },
  'factories.automations.testFilter': async (c) => {
    const verdict: TestFilterResult = await c.factories.automations.testFilter(FAC, AUT, { delivery_id: DLV });
    expect(verdict.result).toMatch(/^Would (not )?trigger$/);
    expect(typeof verdict.payload_check.passed).toBe('boolean');
  },
  // ---------------------------------------------------------------- secrets / api keys
  'secrets.list': async (c) => {
    const page = await c.secrets.list({ limit: 10 });
    const secret: SecretMetadata | undefined = page.data[0];
    expect(secret?.name).toEqual(expect.any(String));
  },
  'secrets.put': async (c) => {
    const secret: SecretMetadata = await c.secrets.put('GITHUB_TOKEN', { value: 'ghp_example' });
    expect(secret.name).toEqual(expect.any(String));
    expect(secret).not.toHaveProperty('value');
  },
  'secrets.delete': async (c) => {
    const response = await c.secrets.delete('GITHUB_TOKEN').asResponse();
    expect(response.status).toBe(204);
  },
  'apiKeys.create': async (c) => {
    const key: ApiKeyWithValue = await c.apiKeys.create({ name: 'ci', role: 'member' });
    expect(key.api_key).toMatch(/^ar_live_/);
  },
  'apiKeys.list': async (c) => {
    const page = await c.apiKeys.list({ limit: 10 });
    const key: ApiKey | undefined = page.data[0];
    expect(key?.role).toMatch(/^(admin|member)$/);
  },
  'auditEvents.list': async (c) => {
    const page = await c.auditEvents.list({ resource_type: 'secret', since: '2026-05-01T00:00:00Z', limit: 10 });
    const event: AuditEvent | undefined = page.data[0];
    expect(event?.resource.type).toBe('secret');
    expect(event?.changed_fields).toEqual(['value']);
  },
  'apiKeys.current': async (c) => {
    const current = await c.apiKeys.current();
    expect(current.key.role).toMatch(/^(admin|member)$/);
    expect(current.team.name).toEqual(expect.any(String));
  },
  'apiKeys.delete': async (c) => {
    const response = await c.apiKeys.delete(KEY).asResponse();
    expect(response.status).toBe(204);
  },
  // ---------------------------------------------------------------- budgets and usage
  'budget.retrieve': async (c) => {
    const budget: TeamBudget = await c.budget.retrieve();
    expect(budget.month).toMatch(/^\d{4}-\d{2}$/);
    expect(typeof budget.exceeded).toBe('boolean');
  },
  'budget.update': async (c) => {
    const budget: TeamBudget = await c.budget.update({ max_tokens_per_month: 1_000_000, max_cost_usd_per_month: null });
    expect(typeof budget.used_tokens).toBe('number');
  },
  'usage.retrieve': async (c) => {
    const usage: TeamUsage = await c.usage.retrieve({ month: '2026-11' });
    expect(usage.month).toMatch(/^\d{4}-\d{2}$/);
  },
  // ---------------------------------------------------------------- notifications
  'notifications.subscriptions.create': async (c) => {
    const subscription: NotificationSubscriptionWithSecret = await c.notifications.subscriptions.create({
      url: 'https://alerts.example.com/agent-runs',
      event_types: ['run.failed', 'run.error'],
      filter: { factory_uid: FAC },
    });
    expect(subscription.secret).toMatch(/^whsec_/);
  },
  'notifications.subscriptions.list': async (c) => {
    const page = await c.notifications.subscriptions.list({ limit: 10 });
    const subscription: NotificationSubscription | undefined = page.data[0];
    expect(subscription?.event_types.length).toBeGreaterThan(0);
    expect(subscription).not.toHaveProperty('secret');
  },
  'notifications.subscriptions.retrieve': async (c) => {
    const subscription: NotificationSubscription = await c.notifications.subscriptions.retrieve(SUB);
    expect(subscription.uid).toMatch(/^sub_/);
  },
  'notifications.subscriptions.update': async (c) => {
    const subscription: NotificationSubscription = await c.notifications.subscriptions.update(SUB, { enabled: true, description: null });
    expect(typeof subscription.enabled).toBe('boolean');
  },
  'notifications.subscriptions.rotateSecret': async (c) => {
    const subscription: NotificationSubscriptionWithSecret = await c.notifications.subscriptions.rotateSecret(SUB);
    expect(subscription.secret).toMatch(/^whsec_/);
  },
  'notifications.subscriptions.delete': async (c) => {
    const response = await c.notifications.subscriptions.delete(SUB).asResponse();
    expect(response.status).toBe(204);
  },
  'notifications.subscriptions.attempts.list': async (c) => {
    const page = await c.notifications.subscriptions.attempts.list(SUB, { event_id: EVT, limit: 10 });
    const attempt: NotificationAttempt | undefined = page.data[0];
    expect(attempt?.outcome).toMatch(/^(succeeded|retrying|failed)$/);
  },
  'notifications.subscriptions.events.replay': async (c) => {
    const replay: ReplayNotificationEventResponse = await c.notifications.subscriptions.events.replay(SUB, EVT);
    expect(replay.event_id).toMatch(/^evt_/);
  },
};

/** Every method of every resource reachable from the client, as `agent.runs.create`. */
function sdkMethods(client: AgentRuns): string[] {
  const names: string[] = [];
  const isResource = (value: unknown): value is object => typeof value === 'object' && value !== null && (value as { _client?: unknown })._client === client;
  const walk = (resource: object, prefix: string) => {
    for (let proto = Object.getPrototypeOf(resource); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name === 'constructor' || name.startsWith('_')) continue;
        if (typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') names.push(`${prefix}${name}`);
      }
    }
    for (const [key, value] of Object.entries(resource)) if (isResource(value)) walk(value, `${prefix}${key}.`);
  };
  for (const [key, value] of Object.entries(client)) if (isResource(value)) walk(value, `${key}.`);
  return [...new Set(names)].sort();
}

interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  pattern: RegExp;
}

/** The REST operations of the contract: all but the ingress and the operational endpoints (tags Ingress, Operations). */
function restOperations(): SpecOperation[] {
  const spec = YAML.parse(readFileSync(path.join(repositoryRoot, 'openapi/v1.yaml'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
  };
  const operations: SpecOperation[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'patch', 'delete'].includes(method) || !op.operationId) continue;
      if (op.tags?.includes('Ingress') || op.tags?.includes('Operations')) continue;
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      operations.push({ operationId: op.operationId, method: method.toUpperCase(), path: template, pattern });
    }
  }
  return operations;
}

interface Recorded {
  method: string;
  pathname: string;
  status: number;
  violations: string | null;
}

describe('SDK against the Prism mock', () => {
  let mock: { url: string; stop(): Promise<void> };
  let client: AgentRuns;
  const recorded: Recorded[] = [];
  /** Method name → the requests its case sent. */
  const sentBy = new Map<string, Recorded[]>();
  const operations = restOperations();

  beforeAll(async () => {
    mock = await startMock();
    const recordingFetch: Fetch = async (input, init): Promise<Response> => {
      // A redirect (downloadArtifact's and transcript's, to a signed URL) is recorded, then followed (and
      // recorded): the mock points the contract's example URL at itself, under /api/v1 as the server would.
      const response = await fetch(input, { ...init, redirect: 'manual' });
      const url = new URL(input instanceof Request ? input.url : String(input));
      recorded.push({
        method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
        pathname: url.pathname.replace(/^\/api\/v1(?=\/)/, ''),
        status: response.status,
        violations: response.headers.get('sl-violations'),
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) return recordingFetch(location);
      return response;
    };
    // Prism serves the REST paths at its root (no /api/v1). No retries: a rejected request must fail at once.
    client = new AgentRuns({ apiKey: 'ar_live_example', baseURL: mock.url, fetch: recordingFetch, maxRetries: 0, timeout: 15_000 });
  });
  afterAll(() => mock?.stop());

  it('has a case for every SDK method (methods discovered from the client’s resources)', () => {
    const discovered = sdkMethods(new AgentRuns({ apiKey: 'ar_live_example', baseURL: 'http://127.0.0.1:9' }));
    expect(discovered.length).toBeGreaterThan(40);
    expect(discovered.filter((m) => !HELPERS.has(m))).toEqual(Object.keys(cases).sort());
    for (const helper of HELPERS) expect(discovered).toContain(helper);
  });

  /** Runs one case and checks that Prism accepted every request it sent (2xx, no contract violations). */
  async function runCase(name: string): Promise<void> {
    const before = recorded.length;
    await cases[name]!(client);
    const sent = recorded.slice(before);
    sentBy.set(name, sent);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) {
      // downloadArtifact and the transcript answer a redirect (as in the Oz API); every other operation a 2xx.
      const redirect = r.status === 302 && /^\/agent\/(artifacts\/[^/]+\/download|runs\/[^/]+\/transcript)$/.test(r.pathname);
      if (!redirect) expect(r.status, `${r.method} ${r.pathname}`).toBeGreaterThanOrEqual(200);
      if (!redirect) expect(r.status, `${r.method} ${r.pathname}`).toBeLessThan(300);
      expect(r.violations, `${r.method} ${r.pathname}`).toBeNull();
    }
  }

  for (const name of Object.keys(cases)) {
    it(`${name}: Prism accepts the request and the typed answer has its key fields`, () => runCase(name));
  }

  it('the cases cover every REST operation of the contract', async () => {
    // Self-contained when run alone (-t): any case not run yet runs here.
    for (const name of Object.keys(cases)) if (!sentBy.has(name)) await runCase(name);
    const operationOf = (r: Recorded) =>
      operations.find((op) => op.method === r.method && op.pattern.test(r.pathname))?.operationId ?? `unknown ${r.method} ${r.pathname}`;
    const covered = new Set([...sentBy.values()].flat().map(operationOf));
    expect([...covered].filter((id) => id.startsWith('unknown'))).toEqual([]);
    expect([...covered].sort()).toEqual(operations.map((op) => op.operationId).sort());

    // Every operation but the deprecated alias createRunLegacy (which `agent.runs.createLegacy` covers too).
    expect(operations.length).toBeGreaterThan(40);
    const withoutLegacy = operations.filter((op) => op.operationId !== 'createRunLegacy');
    expect(withoutLegacy).toHaveLength(operations.length - 1);
    expect([...covered].filter((id) => id !== 'createRunLegacy')).toHaveLength(withoutLegacy.length);
    expect(sentBy.size).toBe(Object.keys(cases).length);
  });
});
