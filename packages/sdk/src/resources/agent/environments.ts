import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import type { PagePromise } from '../../core/pagination';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';

export type CloudEnvironment = components['schemas']['CloudEnvironment'];
export type CreateEnvironmentRequest = components['schemas']['CreateEnvironmentRequest'];
export type UpdateEnvironmentRequest = components['schemas']['UpdateEnvironmentRequest'];
export type ListEnvironmentsResponse = components['schemas']['ListEnvironmentsResponse'];
export type EnvironmentListParams = NonNullable<operations['listEnvironments']['parameters']['query']>;

export class Environments extends APIResource {
  /** `POST /agent/environments` (createEnvironment). */
  create(body: CreateEnvironmentRequest, options?: RequestOptions): APIPromise<CloudEnvironment> {
    return this._client._operation('post', '/agent/environments', { body }, options);
  }

  /** `GET /agent/environments` (listEnvironments). */
  list(query?: EnvironmentListParams, options?: RequestOptions): PagePromise<CloudEnvironment> {
    return this._client._list('/agent/environments', 'environments', { params: { query } }, options);
  }

  /** `GET /agent/environments/{environmentId}` (getEnvironment). */
  retrieve(environmentId: string, options?: RequestOptions): APIPromise<CloudEnvironment> {
    return this._client._operation('get', '/agent/environments/{environmentId}', { params: { path: { environmentId } } }, options);
  }

  /** `PATCH /agent/environments/{environmentId}` (updateEnvironment). */
  update(environmentId: string, body: UpdateEnvironmentRequest, options?: RequestOptions): APIPromise<CloudEnvironment> {
    return this._client._operation('patch', '/agent/environments/{environmentId}', { params: { path: { environmentId } }, body }, options);
  }

  /** `DELETE /agent/environments/{environmentId}` (deleteEnvironment). */
  delete(environmentId: string, options?: RequestOptions): APIPromise<void> {
    return this._client._operation('delete', '/agent/environments/{environmentId}', { params: { path: { environmentId } } }, options) as APIPromise<void>;
  }
}
