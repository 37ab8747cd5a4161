import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../../core/api-promise';
import type { PagePromise } from '../../core/pagination';
import { APIResource } from '../../core/resource';
import type { RequestOptions } from '../../internal/request-options';

export type ScheduledAgentItem = components['schemas']['ScheduledAgentItem'];
export type ScheduledAgentHistoryItem = components['schemas']['ScheduledAgentHistoryItem'];
export type CreateScheduledAgentRequest = components['schemas']['CreateScheduledAgentRequest'];
export type UpdateScheduledAgentRequest = components['schemas']['UpdateScheduledAgentRequest'];
export type ListScheduledAgentsResponse = components['schemas']['ListScheduledAgentsResponse'];
export type DeleteScheduledAgentResponse = components['schemas']['DeleteScheduledAgentResponse'];
export type CloudEnvironmentConfig = components['schemas']['CloudEnvironmentConfig'];
export type ScheduleInfo = components['schemas']['ScheduleInfo'];
export type ScheduleListParams = NonNullable<operations['listScheduledAgents']['parameters']['query']>;

/** Scheduled agents: a cron expression in a time zone that starts one run per slot. */
export class Schedules extends APIResource {
  /** `POST /agent/schedules` (createScheduledAgent). */
  create(body: CreateScheduledAgentRequest, options?: RequestOptions): APIPromise<ScheduledAgentItem> {
    return this._client._operation('post', '/agent/schedules', { body }, options);
  }

  /** `GET /agent/schedules` (listScheduledAgents), sorted by name. */
  list(query?: ScheduleListParams, options?: RequestOptions): PagePromise<ScheduledAgentItem> {
    return this._client._list('/agent/schedules', 'schedules', { params: { query } }, options);
  }

  /** `GET /agent/schedules/{scheduleId}` (getScheduledAgent). */
  retrieve(scheduleId: string, options?: RequestOptions): APIPromise<ScheduledAgentItem> {
    return this._client._operation('get', '/agent/schedules/{scheduleId}', { params: { path: { scheduleId } } }, options);
  }

  /** `PUT /agent/schedules/{scheduleId}` (updateScheduledAgent): the whole new definition. */
  update(scheduleId: string, body: UpdateScheduledAgentRequest, options?: RequestOptions): APIPromise<ScheduledAgentItem> {
    return this._client._operation('put', '/agent/schedules/{scheduleId}', { params: { path: { scheduleId } }, body }, options);
  }

  /** `DELETE /agent/schedules/{scheduleId}` (deleteScheduledAgent); the runs it started stay. */
  delete(scheduleId: string, options?: RequestOptions): APIPromise<DeleteScheduledAgentResponse> {
    return this._client._operation('delete', '/agent/schedules/{scheduleId}', { params: { path: { scheduleId } } }, options);
  }

  /** `POST /agent/schedules/{scheduleId}/pause` (pauseScheduledAgent). */
  pause(scheduleId: string, options?: RequestOptions): APIPromise<ScheduledAgentItem> {
    return this._client._operation('post', '/agent/schedules/{scheduleId}/pause', { params: { path: { scheduleId } } }, options);
  }

  /** `POST /agent/schedules/{scheduleId}/resume` (resumeScheduledAgent). */
  resume(scheduleId: string, options?: RequestOptions): APIPromise<ScheduledAgentItem> {
    return this._client._operation('post', '/agent/schedules/{scheduleId}/resume', { params: { path: { scheduleId } } }, options);
  }
}
