/** Factory definitions as files: parse `webhooks/<name>.yaml` and `automations/<name>.md`, apply atomically. */
export { applyFactoryDefinitions, type ApplyDefinitionsResponse } from './apply';
export { parseAutomationFile, type AutomationDefinition } from './automation-file';
export { parseWebhookFile, type WebhookDefinition } from './webhook-file';
export type { DefinitionFile, FileError } from './files';
