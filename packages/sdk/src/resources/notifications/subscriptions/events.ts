import type { components } from '@agent-runs/contract';
import type { APIPromise } from '../../../core/api-promise';
import { APIResource } from '../../../core/resource';
import type { RequestOptions } from '../../../internal/request-options';

export type ReplayNotificationEventResponse = components['schemas']['ReplayNotificationEventResponse'];

export class Events extends APIResource {
  /**
   * Queues a fresh attempt of one event of the subscription, due now.
   * `POST /notifications/subscriptions/{subscriptionUid}/events/{eventId}/replay` (replayNotificationEvent).
   */
  replay(subscriptionUid: string, eventId: string, options?: RequestOptions): APIPromise<ReplayNotificationEventResponse> {
    return this._client._operation(
      'post',
      '/notifications/subscriptions/{subscriptionUid}/events/{eventId}/replay',
      { params: { path: { subscriptionUid, eventId } } },
      options,
    );
  }
}
