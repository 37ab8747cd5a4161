import type { components } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';
import type { RunAgentResponse } from '../agent/runs';

export type DispatchFactoryRunRequest = components['schemas']['DispatchFactoryRunRequest'];

export class FactoryRuns extends APIResource {
  /** Starts a run as the factory's agent identity. `POST /factories/{factoryUid}/runs` (dispatchFactoryRun). */
  create(factoryUid: string, body: DispatchFactoryRunRequest, options?: RequestOptions): APIPromise<RunAgentResponse> {
    return this._client._operation('post', '/factories/{factoryUid}/runs', { params: { path: { factoryUid } }, body }, options);
  }
}
