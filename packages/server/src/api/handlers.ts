/**
 * Every REST operation of openapi/v1.yaml and its handler, by operationId: the one place to look up an
 * operation's code (api/<resource>/<operationId>.ts). `operationsRouter` (operations.ts) mounts them at the
 * contract's paths; the type check fails if an operation is missing here.
 */
import { applyFactoryDefinitionsHandler } from './factories/applyFactoryDefinitions';
import { downloadArtifactHandler } from './artifacts/downloadArtifact';
import { getArtifactContentHandler } from './artifacts/getArtifactContent';
import { getArtifactHandler } from './artifacts/getArtifact';
import { getRunByExternalReferenceURLHandler } from './artifacts/getRunByExternalReferenceURL';
import { cancelRunHandler } from './runs/cancelRun';
import { createApiKeyHandler } from './api-keys/createApiKey';
import { createAutomationHandler } from './automations/createAutomation';
import { createEnvironmentHandler } from './environments/createEnvironment';
import { createFactoryHandler } from './factories/createFactory';
import { createRunFollowupHandler } from './runs/createRunFollowup';
import { createRunHandler, createRunLegacyHandler } from './runs/createRun';
import { createWebhookHandler } from './webhooks/createWebhook';
import { deleteApiKeyHandler } from './api-keys/deleteApiKey';
import { deleteAutomationHandler } from './automations/deleteAutomation';
import { deleteEnvironmentHandler } from './environments/deleteEnvironment';
import { deleteSecretHandler } from './secrets/deleteSecret';
import { deleteWebhookHandler } from './webhooks/deleteWebhook';
import { downloadRunTranscriptHandler } from './runs/downloadRunTranscript';
import { dispatchFactoryRunHandler } from './factories/dispatchFactoryRun';
import { getAutomationHandler } from './automations/getAutomation';
import { getCurrentApiKeyHandler } from './api-keys/getCurrentApiKey';
import { getEnvironmentHandler } from './environments/getEnvironment';
import { getFactoryHandler } from './factories/getFactory';
import { getRunAttachmentHandler } from './runs/getRunAttachment';
import { getRunConversationHandler } from './runs/getRunConversation';
import { getRunHandler } from './runs/getRun';
import { getRunTranscriptHandler } from './runs/getRunTranscript';
import { getWebhookDeliveryHandler } from './deliveries/getWebhookDelivery';
import { getWebhookHandler } from './webhooks/getWebhook';
import { listAgentsHandler } from './skills/listAgents';
import { listApiKeysHandler } from './api-keys/listApiKeys';
import { listAutomationsHandler } from './automations/listAutomations';
import { listEnvironmentsHandler } from './environments/listEnvironments';
import { listFactoriesHandler } from './factories/listFactories';
import { listModelsHandler } from './models/listModels';
import { listHarnessesHandler } from './harnesses/listHarnesses';
import { listRunsHandler } from './runs/listRuns';
import { listSecretsHandler } from './secrets/listSecrets';
import { listSkillsHandler } from './skills/listSkills';
import { listWebhookDeliveriesHandler } from './deliveries/listWebhookDeliveries';
import { listWebhooksHandler } from './webhooks/listWebhooks';
import { putSecretHandler } from './secrets/putSecret';
import { replayWebhookDeliveryHandler } from './deliveries/replayWebhookDelivery';
import { rotateWebhookSecretHandler } from './webhooks/rotateWebhookSecret';
import { streamRunEventsHandler } from './runs/streamRunEvents';
import { streamTeamRunEventsHandler } from './runs/streamTeamRunEvents';
import { testAutomationFilterHandler } from './automations/testAutomationFilter';
import { testDraftFilterHandler } from './automations/testDraftFilter';
import { updateAutomationHandler } from './automations/updateAutomation';
import { updateEnvironmentHandler } from './environments/updateEnvironment';
import { updateWebhookHandler } from './webhooks/updateWebhook';
import { createScheduledAgentHandler } from './schedules/createScheduledAgent';
import { deleteScheduledAgentHandler } from './schedules/deleteScheduledAgent';
import { getScheduledAgentHandler } from './schedules/getScheduledAgent';
import { listScheduledAgentsHandler } from './schedules/listScheduledAgents';
import { pauseScheduledAgentHandler } from './schedules/pauseScheduledAgent';
import { resumeScheduledAgentHandler } from './schedules/resumeScheduledAgent';
import { updateScheduledAgentHandler } from './schedules/updateScheduledAgent';
import { createNotificationSubscriptionHandler } from './notifications/createNotificationSubscription';
import { deleteNotificationSubscriptionHandler } from './notifications/deleteNotificationSubscription';
import { getNotificationSubscriptionHandler } from './notifications/getNotificationSubscription';
import { listNotificationAttemptsHandler } from './notifications/listNotificationAttempts';
import { listNotificationSubscriptionsHandler } from './notifications/listNotificationSubscriptions';
import { replayNotificationEventHandler } from './notifications/replayNotificationEvent';
import { rotateNotificationSubscriptionSecretHandler } from './notifications/rotateNotificationSubscriptionSecret';
import { updateNotificationSubscriptionHandler } from './notifications/updateNotificationSubscription';
import { getTeamBudgetHandler } from './budgets/getTeamBudget';
import { getTeamUsageHandler } from './budgets/getTeamUsage';
import { updateTeamBudgetHandler } from './budgets/updateTeamBudget';
import type { OperationHandlers } from './operations';

export const handlers: OperationHandlers = {
  downloadArtifact: downloadArtifactHandler,
  getArtifact: getArtifactHandler,
  getArtifactContent: getArtifactContentHandler,
  getRunByExternalReferenceURL: getRunByExternalReferenceURLHandler,
  createApiKey: createApiKeyHandler,
  deleteApiKey: deleteApiKeyHandler,
  getCurrentApiKey: getCurrentApiKeyHandler,
  listApiKeys: listApiKeysHandler,
  createAutomation: createAutomationHandler,
  deleteAutomation: deleteAutomationHandler,
  getAutomation: getAutomationHandler,
  listAutomations: listAutomationsHandler,
  testAutomationFilter: testAutomationFilterHandler,
  testDraftFilter: testDraftFilterHandler,
  updateAutomation: updateAutomationHandler,
  getWebhookDelivery: getWebhookDeliveryHandler,
  listWebhookDeliveries: listWebhookDeliveriesHandler,
  replayWebhookDelivery: replayWebhookDeliveryHandler,
  createEnvironment: createEnvironmentHandler,
  deleteEnvironment: deleteEnvironmentHandler,
  getEnvironment: getEnvironmentHandler,
  listEnvironments: listEnvironmentsHandler,
  updateEnvironment: updateEnvironmentHandler,
  applyFactoryDefinitions: applyFactoryDefinitionsHandler,
  createFactory: createFactoryHandler,
  dispatchFactoryRun: dispatchFactoryRunHandler,
  getFactory: getFactoryHandler,
  listFactories: listFactoriesHandler,
  cancelRun: cancelRunHandler,
  createRun: createRunHandler,
  createRunLegacy: createRunLegacyHandler,
  createRunFollowup: createRunFollowupHandler,
  getRun: getRunHandler,
  getRunAttachment: getRunAttachmentHandler,
  getRunConversation: getRunConversationHandler,
  getRunTranscript: getRunTranscriptHandler,
  downloadRunTranscript: downloadRunTranscriptHandler,
  listRuns: listRunsHandler,
  streamRunEvents: streamRunEventsHandler,
  streamTeamRunEvents: streamTeamRunEventsHandler,
  deleteSecret: deleteSecretHandler,
  listSecrets: listSecretsHandler,
  putSecret: putSecretHandler,
  getTeamBudget: getTeamBudgetHandler,
  updateTeamBudget: updateTeamBudgetHandler,
  getTeamUsage: getTeamUsageHandler,
  listSkills: listSkillsHandler,
  createScheduledAgent: createScheduledAgentHandler,
  deleteScheduledAgent: deleteScheduledAgentHandler,
  getScheduledAgent: getScheduledAgentHandler,
  listScheduledAgents: listScheduledAgentsHandler,
  pauseScheduledAgent: pauseScheduledAgentHandler,
  resumeScheduledAgent: resumeScheduledAgentHandler,
  updateScheduledAgent: updateScheduledAgentHandler,
  listAgents: listAgentsHandler,
  listModels: listModelsHandler,
  listHarnesses: listHarnessesHandler,
  createWebhook: createWebhookHandler,
  deleteWebhook: deleteWebhookHandler,
  getWebhook: getWebhookHandler,
  listWebhooks: listWebhooksHandler,
  rotateWebhookSecret: rotateWebhookSecretHandler,
  updateWebhook: updateWebhookHandler,
  createNotificationSubscription: createNotificationSubscriptionHandler,
  deleteNotificationSubscription: deleteNotificationSubscriptionHandler,
  getNotificationSubscription: getNotificationSubscriptionHandler,
  listNotificationAttempts: listNotificationAttemptsHandler,
  listNotificationSubscriptions: listNotificationSubscriptionsHandler,
  replayNotificationEvent: replayNotificationEventHandler,
  rotateNotificationSubscriptionSecret: rotateNotificationSubscriptionSecretHandler,
  updateNotificationSubscription: updateNotificationSubscriptionHandler,
};
