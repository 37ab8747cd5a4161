/**
 * The shape of an AmbientAgentConfig written in an automation file's front matter. The REST API gets this
 * from the OpenAPI validator; files never pass through it, so the same schema rules are checked here (and
 * unknown keys are errors: in a hand-written file they are typos, not Oz clients' extra fields).
 */
import { isObject } from './files';

const STRING_FIELDS = ['name', 'model_id', 'base_prompt', 'environment_id', 'skill_spec'] as const;
const LIMITS = { max_turns: [1, 200], model_call_timeout_seconds: [1, Infinity], run_timeout_seconds: [1, Infinity] } as const;
const KEYS = [...STRING_FIELDS, 'mcp_servers', ...Object.keys(LIMITS)];
const SKILL_SPEC = /^[^/\s]+\/[^:\s]+:\S.*$/;

const isStringMap = (v: unknown): boolean => isObject(v) && Object.values(v).every((x) => typeof x === 'string');

function mcpServerProblem(server: unknown): string | undefined {
  if (!isObject(server)) return 'must be {command, args?, env?} or {url, headers?}';
  if ('warp_id' in server) {
    return 'warp_id is not supported: this self-hosted service has no Warp shared MCP servers or integrations; give the server by command or url';
  }
  if ('command' in server) {
    const extra = Object.keys(server).filter((k) => !['command', 'args', 'env'].includes(k));
    if (extra.length > 0) return `a command server takes command, args and env only (not ${extra.join(', ')})`;
    if (typeof server.command !== 'string' || server.command === '') return 'command must be a non-empty string';
    if (server.args !== undefined && !(Array.isArray(server.args) && server.args.every((a) => typeof a === 'string'))) return 'args must be a list of strings';
    if (server.env !== undefined && !isStringMap(server.env)) return 'env must map names to strings';
    return undefined;
  }
  if ('url' in server) {
    const extra = Object.keys(server).filter((k) => !['url', 'headers'].includes(k));
    if (extra.length > 0) return `a URL server takes url and headers only (not ${extra.join(', ')})`;
    if (typeof server.url !== 'string' || !URL.canParse(server.url)) return 'url must be an absolute URL';
    if (server.headers !== undefined && !isStringMap(server.headers)) return 'headers must map names to strings';
    return undefined;
  }
  return 'must have command (a local process) or url (a remote server)';
}

/** Problems with `config`, each as a message starting with its key path (`config.max_turns …`). */
export function agentConfigProblems(config: unknown): string[] {
  if (!isObject(config)) return ['config must be a mapping (AmbientAgentConfig)'];
  const problems: string[] = [];
  for (const key of Object.keys(config)) {
    if (!KEYS.includes(key)) problems.push(`config has unknown key ${JSON.stringify(key)} (allowed: ${KEYS.join(', ')})`);
  }
  for (const field of STRING_FIELDS) {
    if (config[field] !== undefined && typeof config[field] !== 'string') problems.push(`config.${field} must be a string`);
  }
  if (typeof config.skill_spec === 'string' && !SKILL_SPEC.test(config.skill_spec)) {
    problems.push('config.skill_spec must be owner/repo:skill-name or owner/repo:path/to/SKILL.md');
  }
  for (const [field, [min, max]] of Object.entries(LIMITS)) {
    const value = config[field];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= min && (value as number) <= max)) {
      problems.push(`config.${field} must be an integer ${max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`}`);
    }
  }
  if (config.mcp_servers !== undefined) {
    if (!isObject(config.mcp_servers)) problems.push('config.mcp_servers must map server names to servers');
    else {
      for (const [name, server] of Object.entries(config.mcp_servers)) {
        const problem = mcpServerProblem(server);
        if (problem) problems.push(`config.mcp_servers.${name} ${problem}`);
      }
    }
  }
  return problems;
}
