import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../../../core/api-promise';
import type { PagePromise } from '../../../core/pagination';
import { APIResource } from '../../../core/resource';
import type { RequestOptions } from '../../../internal/request-options';
import { Attempts } from './attempts';
import { Events } from './events';

export type NotificationSubscription = components['schemas']['NotificationSubscription'];
export type NotificationSubscriptionWithSecret = components['schemas']['NotificationSubscriptionWithSecret'];
export type NotificationEventType = components['schemas']['NotificationEventType'];
export type NotificationFilter = components['schemas']['NotificationFilter'];
export type NotificationDisabledReason = components['schemas']['NotificationDisabledReason'];
export type ListNotificationSubscriptionsResponse = components['schemas']['ListNotificationSubscriptionsResponse'];
export type CreateNotificationSubscriptionRequest = components['schemas']['CreateNotificationSubscriptionRequest'];
export type UpdateNotificationSubscriptionRequest = components['schemas']['UpdateNotificationSubscriptionRequest'];
export type RotateNotificationSubscriptionSecretRequest = components['schemas']['RotateNotificationSubscriptionSecretRequest'];
export type NotificationSubscriptionListParams = NonNullable<operations['listNotificationSubscriptions']['parameters']['query']>;

/** Endpoints of the team that receive signed run events (Standard Webhooks). */
export class Subscriptions extends APIResource {
  attempts: Attempts = new Attempts(this._client);
  events: Events = new Events(this._client);

  /**
   * Subscribes an HTTPS endpoint; the answer holds the signing `secret` (`whsec_…`) once.
   * `POST /notifications/subscriptions` (createNotificationSubscription).
   */
  create(body: CreateNotificationSubscriptionRequest, options?: RequestOptions): APIPromise<NotificationSubscriptionWithSecret> {
    return this._client._operation('post', '/notifications/subscriptions', { body }, options);
  }

  /** `GET /notifications/subscriptions` (listNotificationSubscriptions). */
  list(query?: NotificationSubscriptionListParams, options?: RequestOptions): PagePromise<NotificationSubscription> {
    return this._client._list('/notifications/subscriptions', 'subscriptions', { params: { query } }, options);
  }

  /** `GET /notifications/subscriptions/{subscriptionUid}` (getNotificationSubscription). */
  retrieve(subscriptionUid: string, options?: RequestOptions): APIPromise<NotificationSubscription> {
    return this._client._operation('get', '/notifications/subscriptions/{subscriptionUid}', { params: { path: { subscriptionUid } } }, options);
  }

  /**
   * Changes the URL, event types, description, filter, or enables/disables (also re-enables one disabled
   * for failing). `PATCH /notifications/subscriptions/{subscriptionUid}` (updateNotificationSubscription).
   */
  update(subscriptionUid: string, body: UpdateNotificationSubscriptionRequest, options?: RequestOptions): APIPromise<NotificationSubscription> {
    return this._client._operation('patch', '/notifications/subscriptions/{subscriptionUid}', { params: { path: { subscriptionUid } }, body }, options);
  }

  /**
   * Generates a new signing secret, answered once; the previous one keeps signing alongside it for the
   * overlap (`previous_secret_expires_at`). `POST …/{subscriptionUid}/rotate-secret`
   * (rotateNotificationSubscriptionSecret).
   */
  rotateSecret(
    subscriptionUid: string,
    body: RotateNotificationSubscriptionSecretRequest = {},
    options?: RequestOptions,
  ): APIPromise<NotificationSubscriptionWithSecret> {
    return this._client._operation(
      'post',
      '/notifications/subscriptions/{subscriptionUid}/rotate-secret',
      { params: { path: { subscriptionUid } }, body },
      options,
    );
  }

  /** `DELETE /notifications/subscriptions/{subscriptionUid}` (deleteNotificationSubscription). */
  delete(subscriptionUid: string, options?: RequestOptions): APIPromise<void> {
    return this._client._operation(
      'delete',
      '/notifications/subscriptions/{subscriptionUid}',
      { params: { path: { subscriptionUid } } },
      options,
    ) as APIPromise<void>;
  }
}
