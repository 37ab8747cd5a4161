import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../core/api-promise';
import { APIResource } from '../core/resource';
import type { RequestOptions } from '../internal/request-options';

export type TeamBudget = components['schemas']['TeamBudget'];
export type TeamBudgetUpdate = components['schemas']['TeamBudgetUpdate'];
export type TeamUsage = components['schemas']['TeamUsage'];
export type ModelUsage = components['schemas']['ModelUsage'];
export type UsageRetrieveParams = NonNullable<operations['getTeamUsage']['parameters']['query']>;

/** The team's monthly budget: any role reads it, admins set it. */
export class Budget extends APIResource {
  /** The limits and this month's use of them. `GET /team/budget` (getTeamBudget). */
  retrieve(options?: RequestOptions): APIPromise<TeamBudget> {
    return this._client._operation('get', '/team/budget', {}, options);
  }

  /** Replaces the limits (an absent or null limit is none); admin only. `PUT /team/budget` (updateTeamBudget). */
  update(body: TeamBudgetUpdate, options?: RequestOptions): APIPromise<TeamBudget> {
    return this._client._operation('put', '/team/budget', { body }, options);
  }
}

/** What the team's runs spent per calendar month (UTC). */
export class Usage extends APIResource {
  /** Totals and per-model usage of a month (default the current one). `GET /usage` (getTeamUsage). */
  retrieve(query?: UsageRetrieveParams, options?: RequestOptions): APIPromise<TeamUsage> {
    return this._client._operation('get', '/usage', { params: { query } }, options);
  }
}
