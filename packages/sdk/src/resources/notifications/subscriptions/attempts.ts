import type { components, operations } from '@agent-runs/contract';
import type { PagePromise } from '../../../core/pagination';
import { APIResource } from '../../../core/resource';
import type { RequestOptions } from '../../../internal/request-options';

export type NotificationAttempt = components['schemas']['NotificationAttempt'];
export type NotificationAttemptOutcome = components['schemas']['NotificationAttemptOutcome'];
export type ListNotificationAttemptsResponse = components['schemas']['ListNotificationAttemptsResponse'];
export type NotificationAttemptListParams = NonNullable<operations['listNotificationAttempts']['parameters']['query']>;

export class Attempts extends APIResource {
  /**
   * The subscription's delivery attempts, newest first (optionally of one event or run).
   * `GET /notifications/subscriptions/{subscriptionUid}/attempts` (listNotificationAttempts).
   */
  list(subscriptionUid: string, query?: NotificationAttemptListParams, options?: RequestOptions): PagePromise<NotificationAttempt> {
    return this._client._list('/notifications/subscriptions/{subscriptionUid}/attempts', 'attempts', { params: { path: { subscriptionUid }, query } }, options);
  }
}
