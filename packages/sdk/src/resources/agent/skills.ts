import type { components } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';

export type Skill = components['schemas']['Skill'];
export type ListSkillsResponse = components['schemas']['ListSkillsResponse'];

export class Skills extends APIResource {
  /** The bundled skill catalogue. `GET /agent/skills` (listSkills). */
  list(options?: RequestOptions): APIPromise<ListSkillsResponse> {
    return this._client._operation('get', '/agent/skills', {}, options);
  }
}
