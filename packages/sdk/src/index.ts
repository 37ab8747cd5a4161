export { AgentRuns, AgentRuns as Client, AgentRuns as default } from './client';
export type { ClientOptions, Fetch, OperationData, OperationInit } from './client';
export { DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './client';
export { APIPromise } from './core/api-promise';
export { CursorPage, PagePromise, type CursorPageParams, type PageInfo } from './core/pagination';
export { EventStream, parseSSE, type ServerSentEvent, type ReconnectingStreamOptions } from './core/sse';
export {
  AgentRunsError,
  APIError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  type Problem,
} from './core/error';
export type { RequestOptions, GenericRequestOptions, HeadersInput } from './internal/request-options';
export type { LogLevel, Logger } from './internal/log';
export { signWebhook, type SignWebhookParams, type WebhookHeaders } from './lib/webhooks';
export {
  verifyNotification,
  WebhookVerificationError,
  type NotificationEvent,
  type NotificationRunData,
  type NotificationHeaders,
  type VerifyNotificationOptions,
} from './lib/notifications';

export * from './resources/agent/agent';
export * from './resources/agent/runs';
export * from './resources/agent/artifacts';
export * from './resources/agent/models';
export * from './resources/agent/harnesses';
export * from './resources/agent/skills';
export * from './resources/agent/environments';
export * from './resources/agent/schedules';
export * from './resources/factories/factories';
export * from './resources/factories/runs';
export * from './resources/factories/automations';
export * from './resources/factories/webhooks/webhooks';
export * from './resources/factories/webhooks/deliveries';
export * from './resources/secrets';
export * from './resources/budgets';
export * from './resources/api-keys';
export * from './resources/audit-events';
export * from './resources/notifications/subscriptions/subscriptions';
export * from './resources/notifications/subscriptions/attempts';
export * from './resources/notifications/subscriptions/events';
export type { paths, components, operations } from '@agent-runs/contract';
// Every value of the contract's enums, generated with the types (for pickers, help texts, validation).
export {
  apiKeyRoleValues,
  auditResourceTypeValues,
  authModeValues,
  definitionSourceValues,
  deliveryLabelValues,
  identitySourceValues,
  messageRoleValues,
  notificationAttemptOutcomeValues,
  notificationDisabledReasonValues,
  notificationEventTypeValues,
  runSourceTypeValues,
  runArtifactTypeValues,
  runStateValues,
  signatureSchemeValues,
} from '@agent-runs/contract';
