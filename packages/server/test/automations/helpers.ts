/**
 * Shared set-up of the automation tests: a server per database kind (no workers unless asked, so runs stay
 * QUEUED and every assertion is deterministic), admin and member clients of team `default`, and small
 * builders for factories, webhooks, automations and deliveries — all over real HTTP.
 */
import { expect } from 'vitest';
import { createApiKey } from '../../src/api-keys/service';
import { ManualClock } from '../../src/clock';
import type { TestDatabaseKind } from '../support/databases';
import { startTestServer, type TestServer, type TestServerOverrides } from '../support/server';
import { restClient, send, type Answer, type RestClient } from '../webhooks/helpers';

export const problemCode = (body: any): string =>
  String(body?.type ?? '')
    .split('/')
    .pop() ?? '';

export interface AutomationWorld {
  server: TestServer;
  clock: ManualClock;
  admin: RestClient;
  member: RestClient;
  close(): Promise<void>;
}

export async function startWorld(kind: TestDatabaseKind, overrides: TestServerOverrides = {}): Promise<AutomationWorld> {
  const clock = new ManualClock(new Date('2026-06-01T12:00:00.000Z'));
  const server = await startTestServer({ database: kind, clock, engine: false, ...overrides });
  const admin = restClient(server, server.adminKey);
  const team = await server.ctx.db.selectFrom('teams').select('id').where('name', '=', 'default').executeTakeFirstOrThrow();
  const key = await createApiKey(server.ctx.db, server.ctx.clock, { teamId: team.id, name: 'member', role: 'member', createdBy: 'operator' });
  return { server, clock, admin, member: restClient(server, key.api_key), close: () => server.close() };
}

let counter = 0;
export const unique = (prefix: string): string => `${prefix}-${++counter}`;

export interface TokenWebhook {
  factory: string;
  uid: string;
  name: string;
  url: string;
  auth: Record<string, string>;
}

/** A fresh `api` factory with one token webhook (own rate limit). */
export async function factoryWithWebhook(admin: RestClient): Promise<TokenWebhook> {
  const factory = await admin.createFactory(unique('factory'));
  const wh = await admin.createWebhook(factory, { name: unique('hook') });
  return { factory, uid: wh.uid, name: wh.name, url: wh.ingress_url, auth: { authorization: `Bearer ${wh.secret as string}` } };
}

export function trigger(webhookIds: string[], payload?: Record<string, unknown>) {
  return { provider: 'webhook', event: 'received', filter: { webhook_ids: webhookIds, ...(payload ? { payload } : {}) } };
}

export async function createAutomation(admin: RestClient, factory: string, body: Record<string, unknown>): Promise<any> {
  const res = await admin.post(`/factories/${factory}/automations`, { name: unique('automation'), prompt: 'Handle the event.', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** POSTs `body` to the webhook and expects 202; returns the delivery id. */
export async function deliver(hook: TokenWebhook, body: string | Buffer, headers: Record<string, string> = {}): Promise<string> {
  const res: Answer = await send(hook.url, body, { headers: { ...hook.auth, ...headers } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.delivery_id as string;
}

/** Every run of the team matching the query (e.g. `automation_id=…`), newest first. */
export async function runsWhere(admin: RestClient, query: string): Promise<any[]> {
  const res = await admin.get(`/agent/runs?limit=500&${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.runs as any[];
}
