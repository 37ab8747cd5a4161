import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../../../core/api-promise';
import type { PagePromise } from '../../../core/pagination';
import { APIResource } from '../../../core/resource';
import type { RequestOptions } from '../../../internal/request-options';

export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type DeliveryLabel = components['schemas']['DeliveryLabel'];
export type IdentitySource = components['schemas']['IdentitySource'];
export type ListWebhookDeliveriesResponse = components['schemas']['ListWebhookDeliveriesResponse'];
export type ReplayDeliveryResponse = components['schemas']['ReplayDeliveryResponse'];
export type DeliveryListParams = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

export class Deliveries extends APIResource {
  /** The webhook's delivery log, newest first. `GET …/webhooks/{webhookUid}/deliveries` (listWebhookDeliveries). */
  list(factoryUid: string, webhookUid: string, query?: DeliveryListParams, options?: RequestOptions): PagePromise<WebhookDelivery> {
    return this._client._list(
      '/factories/{factoryUid}/webhooks/{webhookUid}/deliveries',
      'deliveries',
      { params: { path: { factoryUid, webhookUid }, query } },
      options,
    );
  }

  /** One delivery, with its payload when it was accepted. `GET …/deliveries/{deliveryId}` (getWebhookDelivery). */
  retrieve(factoryUid: string, webhookUid: string, deliveryId: string, options?: RequestOptions): APIPromise<WebhookDelivery> {
    return this._client._operation(
      'get',
      '/factories/{factoryUid}/webhooks/{webhookUid}/deliveries/{deliveryId}',
      { params: { path: { factoryUid, webhookUid, deliveryId } } },
      options,
    );
  }

  /**
   * Re-evaluates an accepted delivery against today's automations; answers the runs it started.
   * `POST …/deliveries/{deliveryId}/replay` (replayWebhookDelivery).
   */
  replay(factoryUid: string, webhookUid: string, deliveryId: string, options?: RequestOptions): APIPromise<ReplayDeliveryResponse> {
    return this._client._operation(
      'post',
      '/factories/{factoryUid}/webhooks/{webhookUid}/deliveries/{deliveryId}/replay',
      { params: { path: { factoryUid, webhookUid, deliveryId } } },
      options,
    );
  }
}
