import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import { APIResource } from '../../core/resource';
import { headersRecord } from '../../internal/headers';
import type { RequestOptions } from '../../internal/request-options';
import type { ArtifactResponse } from './artifacts';
import { Environments } from './environments';
import { Harnesses } from './harnesses';
import { Models } from './models';
import { Runs } from './runs';
import { Schedules } from './schedules';
import { Skills } from './skills';

export type ListAgentsResponse = components['schemas']['ListAgentsResponse'];
export type AgentListItem = components['schemas']['AgentListItem'];
export type AgentListVariant = components['schemas']['AgentListVariant'];
/** Query of `agent.list`: `repo`, `sort_by`, `include_malformed_skills`, `refresh`. */
export type AgentListParams = NonNullable<operations['listAgents']['parameters']['query']>;

/** `/agent/…`: the agents (skills a run can start from), runs, skills, models, harnesses, environments, the artifacts runs publish, and schedules. */
export class Agent extends APIResource {
  runs: Runs = new Runs(this._client);
  skills: Skills = new Skills(this._client);
  models: Models = new Models(this._client);
  harnesses: Harnesses = new Harnesses(this._client);
  environments: Environments = new Environments(this._client);
  schedules: Schedules = new Schedules(this._client);

  /**
   * An artifact of a run by its `artifact_uid` (Oz's name): a FILE or SCREENSHOT with a signed download
   * URL that needs no API key and expires at `data.expires_at`, or a PLAN with its Markdown inline.
   * `GET /agent/artifacts/{artifactUid}` (getArtifact).
   */
  getArtifact(artifactUid: string, options?: RequestOptions): APIPromise<ArtifactResponse> {
    return this._client._operation('get', '/agent/artifacts/{artifactUid}', { params: { path: { artifactUid } } }, options);
  }

  /**
   * The bytes of a FILE, SCREENSHOT or PLAN artifact, as the unread `Response` (read it with `.arrayBuffer()`,
   * `.text()` or `.body`; `Content-Disposition` names the file). The server redirects to a fresh signed URL,
   * which this follows. `GET /agent/artifacts/{artifactUid}/download` (downloadArtifact).
   */
  downloadArtifact(artifactUid: string, options?: RequestOptions): APIPromise<Response> {
    return this._client.request<Response>({
      ...options,
      method: 'get',
      path: '/agent/artifacts/{artifactUid}/download',
      pathParams: { artifactUid },
      headers: { Accept: '*/*', ...headersRecord(options?.headers) },
      stream: true,
    });
  }

  /** The skills a run can start from, grouped by name (Oz's agents). `GET /agent` (listAgents). */
  list(query?: AgentListParams, options?: RequestOptions): APIPromise<ListAgentsResponse> {
    return this._client._operation('get', '/agent', { params: { query } }, options);
  }
}
