import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import type { PagePromise } from '../../core/pagination';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';
import { Automations } from './automations';
import { FactoryRuns } from './runs';
import { Webhooks } from './webhooks/webhooks';

export type Factory = components['schemas']['Factory'];
export type DefinitionSource = components['schemas']['DefinitionSource'];
export type DefinitionFile = components['schemas']['DefinitionFile'];
export type ListFactoriesResponse = components['schemas']['ListFactoriesResponse'];
export type WebhookCheck = components['schemas']['WebhookCheck'];
export type PayloadCheck = components['schemas']['PayloadCheck'];
export type CreateFactoryRequest = components['schemas']['CreateFactoryRequest'];
export type FactoryListParams = NonNullable<operations['listFactories']['parameters']['query']>;
export type ApplyDefinitionsRequest = components['schemas']['ApplyDefinitionsRequest'];
export type ApplyDefinitionsResponse = components['schemas']['ApplyDefinitionsResponse'];
export type TestDraftFilterRequest = components['schemas']['TestDraftFilterRequest'];
export type TestFilterResult = components['schemas']['TestFilterResult'];

export class Factories extends APIResource {
  runs: FactoryRuns = new FactoryRuns(this._client);
  webhooks: Webhooks = new Webhooks(this._client);
  automations: Automations = new Automations(this._client);

  /** `POST /factories` (createFactory). */
  create(body: CreateFactoryRequest, options?: RequestOptions): APIPromise<Factory> {
    return this._client._operation('post', '/factories', { body }, options);
  }

  /** `GET /factories` (listFactories). */
  list(query?: FactoryListParams, options?: RequestOptions): PagePromise<Factory> {
    return this._client._list('/factories', 'factories', { params: { query } }, options);
  }

  /** `GET /factories/{factoryUid}` (getFactory). */
  retrieve(factoryUid: string, options?: RequestOptions): APIPromise<Factory> {
    return this._client._operation('get', '/factories/{factoryUid}', { params: { path: { factoryUid } } }, options);
  }

  /**
   * Replaces the factory's webhooks and automations with the given definition files
   * (`webhooks/<name>.yaml`, `automations/<name>.md`). `POST /factories/{factoryUid}/definitions/apply`
   * (applyFactoryDefinitions).
   */
  applyDefinitions(factoryUid: string, body: ApplyDefinitionsRequest, options?: RequestOptions): APIPromise<ApplyDefinitionsResponse> {
    return this._client._operation('post', '/factories/{factoryUid}/definitions/apply', { params: { path: { factoryUid } }, body }, options);
  }

  /**
   * Tests a draft trigger against a stored delivery. `POST /factories/{factoryUid}/test-filter`
   * (testDraftFilter).
   */
  testFilter(factoryUid: string, body: TestDraftFilterRequest, options?: RequestOptions): APIPromise<TestFilterResult> {
    return this._client._operation('post', '/factories/{factoryUid}/test-filter', { params: { path: { factoryUid } }, body }, options);
  }
}
