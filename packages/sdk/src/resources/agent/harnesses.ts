import type { components } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';

export type HarnessInfo = components['schemas']['HarnessInfo'];
export type ListHarnessesResponse = components['schemas']['ListHarnessesResponse'];

export class Harnesses extends APIResource {
  /** The third-party agent CLIs a run can name as `config.harness.type`, and whether each is installed. `GET /agent/harnesses` (listHarnesses). */
  list(options?: RequestOptions): APIPromise<ListHarnessesResponse> {
    return this._client._operation('get', '/agent/harnesses', {}, options);
  }
}
