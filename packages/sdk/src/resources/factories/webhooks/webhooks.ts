import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../../../core/api-promise';
import type { PagePromise } from '../../../core/pagination';
import { APIResource } from '../../../core/resource';
import type { RequestOptions } from '../../../internal/request-options';
import { Deliveries } from './deliveries';

export type Webhook = components['schemas']['Webhook'];
export type WebhookWithSecret = components['schemas']['WebhookWithSecret'];
export type AuthMode = components['schemas']['AuthMode'];
export type SignatureScheme = components['schemas']['SignatureScheme'];
export type ListWebhooksResponse = components['schemas']['ListWebhooksResponse'];
export type CreateWebhookRequest = components['schemas']['CreateWebhookRequest'];
export type UpdateWebhookRequest = components['schemas']['UpdateWebhookRequest'];
export type RotateWebhookSecretRequest = components['schemas']['RotateWebhookSecretRequest'];
export type WebhookListParams = NonNullable<operations['listWebhooks']['parameters']['query']>;

export class Webhooks extends APIResource {
  deliveries: Deliveries = new Deliveries(this._client);

  /**
   * Creates a webhook. The answer holds `secret` once when the service generated it.
   * `POST /factories/{factoryUid}/webhooks` (createWebhook).
   */
  create(factoryUid: string, body: CreateWebhookRequest, options?: RequestOptions): APIPromise<WebhookWithSecret> {
    return this._client._operation('post', '/factories/{factoryUid}/webhooks', { params: { path: { factoryUid } }, body }, options);
  }

  /** `GET /factories/{factoryUid}/webhooks` (listWebhooks). */
  list(factoryUid: string, query?: WebhookListParams, options?: RequestOptions): PagePromise<Webhook> {
    return this._client._list('/factories/{factoryUid}/webhooks', 'webhooks', { params: { path: { factoryUid }, query } }, options);
  }

  /** `GET /factories/{factoryUid}/webhooks/{webhookUid}` (getWebhook). */
  retrieve(factoryUid: string, webhookUid: string, options?: RequestOptions): APIPromise<Webhook> {
    return this._client._operation('get', '/factories/{factoryUid}/webhooks/{webhookUid}', { params: { path: { factoryUid, webhookUid } } }, options);
  }

  /** Enables/disables, renames or sets the delivery-id header. `PATCH …/webhooks/{webhookUid}` (updateWebhook). */
  update(factoryUid: string, webhookUid: string, body: UpdateWebhookRequest, options?: RequestOptions): APIPromise<Webhook> {
    return this._client._operation('patch', '/factories/{factoryUid}/webhooks/{webhookUid}', { params: { path: { factoryUid, webhookUid } }, body }, options);
  }

  /**
   * Generates a new secret (empty body) or sets the provider's (`{ provider_secret }`); the answer holds
   * the secret once. `POST …/webhooks/{webhookUid}/rotate-secret` (rotateWebhookSecret).
   */
  rotateSecret(factoryUid: string, webhookUid: string, body: RotateWebhookSecretRequest = {}, options?: RequestOptions): APIPromise<WebhookWithSecret> {
    return this._client._operation(
      'post',
      '/factories/{factoryUid}/webhooks/{webhookUid}/rotate-secret',
      { params: { path: { factoryUid, webhookUid } }, body },
      options,
    );
  }

  /** `DELETE /factories/{factoryUid}/webhooks/{webhookUid}` (deleteWebhook). */
  delete(factoryUid: string, webhookUid: string, options?: RequestOptions): APIPromise<void> {
    return this._client._operation(
      'delete',
      '/factories/{factoryUid}/webhooks/{webhookUid}',
      { params: { path: { factoryUid, webhookUid } } },
      options,
    ) as APIPromise<void>;
  }
}
