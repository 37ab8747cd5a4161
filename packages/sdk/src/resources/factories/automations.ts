import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import type { PagePromise } from '../../core/pagination';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';
import type { TestFilterResult } from './factories';

export type Automation = components['schemas']['Automation'];
export type Trigger = components['schemas']['Trigger'];
export type TriggerFilter = components['schemas']['TriggerFilter'];
export type PayloadFilter = components['schemas']['PayloadFilter'];
export type SelectedWebhook = components['schemas']['SelectedWebhook'];
export type ListAutomationsResponse = components['schemas']['ListAutomationsResponse'];
export type CreateAutomationRequest = components['schemas']['CreateAutomationRequest'];
export type UpdateAutomationRequest = components['schemas']['UpdateAutomationRequest'];
export type TestAutomationFilterRequest = components['schemas']['TestAutomationFilterRequest'];
export type AutomationListParams = NonNullable<operations['listAutomations']['parameters']['query']>;

export class Automations extends APIResource {
  /** `POST /factories/{factoryUid}/automations` (createAutomation). */
  create(factoryUid: string, body: CreateAutomationRequest, options?: RequestOptions): APIPromise<Automation> {
    return this._client._operation('post', '/factories/{factoryUid}/automations', { params: { path: { factoryUid } }, body }, options);
  }

  /** `GET /factories/{factoryUid}/automations` (listAutomations). */
  list(factoryUid: string, query?: AutomationListParams, options?: RequestOptions): PagePromise<Automation> {
    return this._client._list('/factories/{factoryUid}/automations', 'automations', { params: { path: { factoryUid }, query } }, options);
  }

  /** `GET /factories/{factoryUid}/automations/{automationUid}` (getAutomation). */
  retrieve(factoryUid: string, automationUid: string, options?: RequestOptions): APIPromise<Automation> {
    return this._client._operation('get', '/factories/{factoryUid}/automations/{automationUid}', { params: { path: { factoryUid, automationUid } } }, options);
  }

  /** `PATCH /factories/{factoryUid}/automations/{automationUid}` (updateAutomation). */
  update(factoryUid: string, automationUid: string, body: UpdateAutomationRequest, options?: RequestOptions): APIPromise<Automation> {
    return this._client._operation(
      'patch',
      '/factories/{factoryUid}/automations/{automationUid}',
      { params: { path: { factoryUid, automationUid } }, body },
      options,
    );
  }

  /** `DELETE /factories/{factoryUid}/automations/{automationUid}` (deleteAutomation). */
  delete(factoryUid: string, automationUid: string, options?: RequestOptions): APIPromise<void> {
    return this._client._operation(
      'delete',
      '/factories/{factoryUid}/automations/{automationUid}',
      { params: { path: { factoryUid, automationUid } } },
      options,
    ) as APIPromise<void>;
  }

  /**
   * Would this saved automation trigger on a stored delivery? `POST
   * /factories/{factoryUid}/automations/{automationUid}/test-filter` (testAutomationFilter).
   */
  testFilter(factoryUid: string, automationUid: string, body: TestAutomationFilterRequest, options?: RequestOptions): APIPromise<TestFilterResult> {
    return this._client._operation(
      'post',
      '/factories/{factoryUid}/automations/{automationUid}/test-filter',
      { params: { path: { factoryUid, automationUid } }, body },
      options,
    );
  }
}
