/** Webhook set-up over a cluster's REST API, and a sender that posts deliveries to any ingress process. */
import { expect } from 'vitest';
import type { ApiClient } from '../../../packages/server/test/support/http';
import type { ClusterProcess } from './cluster';

export interface ClusterWebhook {
  factory: string;
  uid: string;
  secret: string;
  /** The ingress URL of this webhook on `process`. */
  urlOn(process: ClusterProcess): string;
}

let counter = 0;

/** A fresh factory with one token webhook (its own delivery rate) and, with `prompt`, an automation starting a run per delivery. */
export async function createWebhook(api: ApiClient, options: { prompt?: string } = {}): Promise<ClusterWebhook> {
  const name = `cluster-${Date.now().toString(36)}-${++counter}`;
  const factory = await api.post('/factories', { name, definition_source: 'api' });
  expect(factory.status, factory.text).toBe(201);
  const webhook = await api.post(`/factories/${factory.body.uid}/webhooks`, { name });
  expect(webhook.status, webhook.text).toBe(201);
  if (options.prompt !== undefined) {
    const automation = await api.post(`/factories/${factory.body.uid}/automations`, {
      name,
      prompt: options.prompt,
      triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [webhook.body.uid] } }],
    });
    expect(automation.status, automation.text).toBe(201);
  }
  const uid = webhook.body.uid as string;
  return { factory: factory.body.uid, uid, secret: webhook.body.secret, urlOn: (process) => `${process.baseUrl}/webhooks/w/${uid}` };
}

export interface DeliveryAnswer {
  /** 0: no answer (the connection failed or was cut: the process died). */
  status: number;
  headers: Headers;
  body: any;
}

/** POSTs one delivery to the ingress of `to`, within 10 s. */
export async function deliver(webhook: ClusterWebhook, to: ClusterProcess, body: string, headers: Record<string, string> = {}): Promise<DeliveryAnswer> {
  try {
    const res = await fetch(webhook.urlOn(to), {
      method: 'POST',
      headers: { authorization: `Bearer ${webhook.secret}`, 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text };
  } catch (err) {
    return { status: 0, headers: new Headers(), body: String(err) };
  }
}
