import type { components } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';

export type ModelInfo = components['schemas']['ModelInfo'];
export type ListModelsResponse = components['schemas']['ListModelsResponse'];

export class Models extends APIResource {
  /** The models runs of this server can use, and the default. `GET /agent/models` (listModels). */
  list(options?: RequestOptions): APIPromise<ListModelsResponse> {
    return this._client._operation('get', '/agent/models', {}, options);
  }
}
