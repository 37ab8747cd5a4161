/**
 * Function names the model sees for MCP tools: `<server>__<tool>`, limited to what OpenAI-compatible
 * providers accept (`^[a-zA-Z0-9_-]{1,64}$`). Characters outside that set become `_`; a name that would be
 * too long is cut and suffixed with a short hash of the full name; collisions get a numeric suffix.
 */
import { createHash } from 'node:crypto';

export const MAX_FUNCTION_NAME = 64;

const sanitize = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '_') || '_';

export function toolFunctionName(server: string, tool: string): string {
  const name = `${sanitize(server)}__${sanitize(tool)}`;
  if (name.length <= MAX_FUNCTION_NAME) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_FUNCTION_NAME - hash.length - 1)}_${hash}`;
}

/** Makes `name` unique among `taken` (which it then joins). */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = `${name.slice(0, MAX_FUNCTION_NAME - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}
