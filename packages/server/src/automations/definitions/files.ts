/** What definition files have in common: their paths, names and the error shape of a bad one. */
import YAML from 'yaml';
import type { components } from '@agent-runs/contract';

export type DefinitionFile = components['schemas']['DefinitionFile'];
export type FileError = components['schemas']['FileError'];

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FileError[] };

export const WEBHOOK_FILE = /^webhooks\/([A-Za-z0-9][A-Za-z0-9_.-]*)\.yaml$/;
export const AUTOMATION_FILE = /^automations\/([A-Za-z0-9][A-Za-z0-9_.-]*)\.md$/;

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Alias uses a file may expand to (the yaml package's default, stated): more is a "billion laughs" document. */
const MAX_ALIAS_COUNT = 100;

/** YAML text → value, or the parser's first error (with its line) as the message. */
export function parseYaml(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const doc = YAML.parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const error = doc.errors[0];
  if (error) return { ok: false, message: `invalid YAML: ${error.message.split('\n')[0]}` };
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown };
  } catch (err) {
    // toJS throws a ReferenceError ("Excessive alias count…") when aliases expand past the count.
    if (err instanceof ReferenceError) return { ok: false, message: `invalid YAML: ${err.message}` };
    throw err;
  }
}

/** Keys of `object` outside `allowed`, as "unknown key" errors. */
export function unknownKeys(file: string, object: Record<string, unknown>, allowed: readonly string[], where = ''): FileError[] {
  return Object.keys(object)
    .filter((key) => !allowed.includes(key))
    .map((key) => ({ file, message: `unknown key ${where}${JSON.stringify(key)} (allowed: ${allowed.join(', ')})` }));
}
