/**
 * `automations/<name>.md` (contract: applyFactoryDefinitions): YAML front matter between `---` lines with
 * `name` (default <name>), `enabled` (default true), optional `config` (AmbientAgentConfig) and `triggers`
 * (webhook triggers; `webhook_ids` hold UIDs, not file names); the Markdown body is the prompt.
 */
import { exceedsChars, PROMPT_MAX_CHARS } from '../../runs/service';
import { validateTriggers, type Trigger } from '../triggers';
import { agentConfigProblems } from './agent-config';
import { AUTOMATION_FILE, isObject, parseYaml, unknownKeys, type DefinitionFile, type FileError, type Parsed } from './files';

export interface AutomationDefinition {
  file: string;
  name: string;
  enabled: boolean;
  config: Record<string, unknown> | undefined;
  triggers: Trigger[];
  prompt: string;
}

const KEYS = ['name', 'enabled', 'config', 'triggers'] as const;
/** `---` line, front matter, `---` line, body. */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

export function parseAutomationFile({ path, content }: DefinitionFile): Parsed<AutomationDefinition> {
  const stem = AUTOMATION_FILE.exec(path)?.[1];
  if (stem === undefined) return { ok: false, errors: [{ file: path, message: 'an automation file is automations/<name>.md' }] };
  const parts = FRONT_MATTER.exec(content);
  if (!parts) {
    return { ok: false, errors: [{ file: path, message: 'must start with YAML front matter between two --- lines, followed by the prompt' }] };
  }
  const yaml = parseYaml(parts[1] ?? '');
  if (!yaml.ok) return { ok: false, errors: [{ file: path, message: `front matter: ${yaml.message}` }] };
  const doc = yaml.value ?? {};
  if (!isObject(doc)) return { ok: false, errors: [{ file: path, message: 'the front matter must be a YAML mapping' }] };

  const errors: FileError[] = unknownKeys(path, doc, KEYS);
  const fail = (message: string) => errors.push({ file: path, message });

  const name = doc.name ?? stem;
  if (typeof name !== 'string' || name.length < 1 || name.length > 100) fail('name must be a string of 1–100 characters');
  const enabled = doc.enabled ?? true;
  if (typeof enabled !== 'boolean') fail('enabled must be true or false');
  if (doc.config !== undefined) for (const problem of agentConfigProblems(doc.config)) fail(problem);
  if (doc.triggers === undefined) fail('triggers is required: a list of {provider: webhook, event: received, filter: {webhook_ids, payload?}}');
  else for (const issue of validateTriggers(doc.triggers, 'triggers')) fail(`${issue.path} ${issue.message}`);
  const prompt = parts[2]!.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
  if (prompt === '') fail('the prompt (the Markdown after the front matter) must not be blank');
  if (exceedsChars(prompt, PROMPT_MAX_CHARS))
    fail(`the prompt (the Markdown after the front matter) is longer than ${PROMPT_MAX_CHARS.toLocaleString('en-US')} characters`);

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      file: path,
      name: name as string,
      enabled: enabled as boolean,
      config: doc.config as Record<string, unknown> | undefined,
      triggers: doc.triggers as Trigger[],
      prompt,
    },
  };
}
