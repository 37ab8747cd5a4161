/**
 * The automation editor's form state and the API requests built from it. The editor edits the first
 * webhook trigger (its webhooks and payload filter); any further triggers and unknown config keys
 * are kept as they were, since a PATCH with `triggers` or `config` replaces the whole value.
 */
import type { AmbientAgentConfig, Automation, CreateAutomationRequest, Trigger } from '@agent-runs/sdk';

export const TEXT_CONFIG_FIELDS = ['name', 'model_id', 'base_prompt', 'environment_id', 'skill_spec'] as const;
export const LIMIT_CONFIG_FIELDS = ['max_turns', 'model_call_timeout_seconds', 'run_timeout_seconds'] as const;
type ConfigField = (typeof TEXT_CONFIG_FIELDS)[number] | (typeof LIMIT_CONFIG_FIELDS)[number];

export interface AutomationForm {
  name: string;
  prompt: string;
  enabled: boolean;
  /** Each edited config field as typed ('' = not set). */
  config: Record<ConfigField, string>;
  /** `mcp_servers` as JSON text ('' = not set). */
  mcpServers: string;
  /** UIDs of the selected webhooks, in selection order. */
  webhookIds: string[];
  /** The payload filter as JSON text ('' = no filter). */
  payloadFilter: string;
}

/** What the form does not edit but a save must keep. */
export interface KeptParts {
  otherConfig: Record<string, unknown>;
  otherTriggers: Trigger[];
}

const EDITED_CONFIG_KEYS = new Set<string>([...TEXT_CONFIG_FIELDS, ...LIMIT_CONFIG_FIELDS, 'mcp_servers']);

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

export function emptyForm(): AutomationForm {
  const config = Object.fromEntries([...TEXT_CONFIG_FIELDS, ...LIMIT_CONFIG_FIELDS].map((f) => [f, ''])) as Record<ConfigField, string>;
  return { name: '', prompt: '', enabled: true, config, mcpServers: '', webhookIds: [], payloadFilter: '' };
}

export function formFromAutomation(automation: Automation): { form: AutomationForm; kept: KeptParts } {
  const form = emptyForm();
  const config = (automation.config ?? {}) as Record<string, unknown>;
  for (const field of [...TEXT_CONFIG_FIELDS, ...LIMIT_CONFIG_FIELDS]) {
    const value = config[field];
    if (value !== undefined && value !== null) form.config[field] = String(value);
  }
  if (config.mcp_servers !== undefined) form.mcpServers = pretty(config.mcp_servers);
  const [first, ...otherTriggers] = automation.triggers;
  if (first) {
    form.webhookIds = [...first.filter.webhook_ids];
    if (first.filter.payload !== undefined) form.payloadFilter = pretty(first.filter.payload);
  }
  form.name = automation.name;
  form.prompt = automation.prompt;
  form.enabled = automation.enabled;
  const otherConfig = Object.fromEntries(Object.entries(config).filter(([key]) => !EDITED_CONFIG_KEYS.has(key)));
  return { form, kept: { otherConfig, otherTriggers } };
}

export const sameForm = (a: AutomationForm, b: AutomationForm): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Parses a JSON field; '' (or whitespace) is "not set". Throws the parser's own message. */
function parseJsonField(text: string): unknown {
  return text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
}

/** The parse error of a JSON field, or null: shown beside the field while typing. */
export function jsonFieldProblem(text: string): string | null {
  try {
    parseJsonField(text);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * The trigger the form describes, or null when it selects no webhook and has no filter. A filter
 * without webhooks is still sent, so that the server names what is missing.
 */
export function triggerFromForm(form: AutomationForm): Trigger | null {
  const payload = parseJsonField(form.payloadFilter);
  if (form.webhookIds.length === 0 && payload === undefined) return null;
  return {
    provider: 'webhook',
    event: 'received',
    filter: { webhook_ids: form.webhookIds, ...(payload !== undefined && { payload: payload as Trigger['filter']['payload'] }) },
  };
}

function configFromForm(form: AutomationForm, kept: KeptParts): AmbientAgentConfig {
  const config: Record<string, unknown> = { ...kept.otherConfig };
  for (const field of TEXT_CONFIG_FIELDS) if (form.config[field].trim() !== '') config[field] = form.config[field].trim();
  // Numbers as typed: a value the contract refuses (0, 1.5) gets the server's 422 at its path.
  for (const field of LIMIT_CONFIG_FIELDS) if (form.config[field].trim() !== '') config[field] = Number(form.config[field]);
  const mcpServers = parseJsonField(form.mcpServers);
  if (mcpServers !== undefined) config.mcp_servers = mcpServers;
  return config as AmbientAgentConfig;
}

/** The full automation body (create, or a PATCH of every editable field); throws on JSON that does not parse. */
export function requestFromForm(form: AutomationForm, kept: KeptParts): CreateAutomationRequest {
  const trigger = triggerFromForm(form);
  return {
    name: form.name.trim(),
    prompt: form.prompt,
    enabled: form.enabled,
    config: configFromForm(form, kept),
    triggers: [...(trigger ? [trigger] : []), ...kept.otherTriggers],
  };
}
