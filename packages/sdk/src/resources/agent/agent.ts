import type { components, operations } from '../../generated/api';
import type { APIPromise } from '../../core/api-promise';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';
import { Environments } from './environments';
import { Models } from './models';
import { Runs } from './runs';
import { Skills } from './skills';

export type ListAgentsResponse = components['schemas']['ListAgentsResponse'];
export type AgentListItem = components['schemas']['AgentListItem'];
export type AgentListVariant = components['schemas']['AgentListVariant'];
/** Query of `agent.list`: `repo`, `sort_by`, `include_malformed_skills`, `refresh`. */
export type AgentListParams = NonNullable<operations['listAgents']['parameters']['query']>;

/** `/agent/…`: the agents (skills a run can start from), runs, skills, models and environments. */
export class Agent extends APIResource {
  runs: Runs = new Runs(this._client);
  skills: Skills = new Skills(this._client);
  models: Models = new Models(this._client);
  environments: Environments = new Environments(this._client);

  /** The skills a run can start from, grouped by name (Oz's agents). `GET /agent` (listAgents). */
  list(query?: AgentListParams, options?: RequestOptions): APIPromise<ListAgentsResponse> {
    return this._client._operation('get', '/agent', { params: { query } }, options);
  }
}
