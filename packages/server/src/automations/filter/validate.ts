/**
 * Payload filter validation (docs/wire.md §Factory side "Payload filter"; docs/service-spec.md §Payload filter).
 *
 * Grammar, applied literally:
 * - The filter is a JSON object (null/undefined = no filter). Its keys name payload fields.
 * - A key's value is
 *   - a JSON scalar (string, finite number, boolean, null): equality;
 *   - an array: the values the field may hold (= `in`); elements must be scalars;
 *   - an object made ONLY of operator keys (`in`, `not_in`, `exists`): an operator object;
 *   - any other object: a nested filter on the field (it nests; its keys name sub-fields).
 * - An object that mixes operator keys with field keys is invalid.
 * - There is no "unknown operator": the operator keys are exactly `in`, `not_in` and `exists`. An
 *   object such as `{"gt": 5}` or `{"$gt": 5}` is a nested filter on a field named `gt` / `$gt` (the
 *   wire decision says "any other object nests"), never an error.
 * - The root object itself is not "a key's value", so its keys are always field keys: `{"in": [1]}` at
 *   the root filters the payload field named `in`.
 *
 * Choices the wire decisions leave open (ours, documented here and in the contract):
 * - An empty object as a key's value (`{"a": {}}`) is invalid ("empty object"): it is neither an
 *   operator object nor a useful nested filter; `{"exists": true}` says "field must be present". An
 *   empty ROOT object is valid and means "no filter".
 * - An empty `in` list (or an empty array value) is invalid: it could never match. An empty `not_in`
 *   list is valid (it matches any present field).
 * - `exists: false` together with `in`/`not_in` is invalid: a missing field matches only `exists:
 *   false`, so such an operator object could never match.
 * - Numbers must be finite (NaN/Infinity are not JSON).
 *
 * Limits: nesting depth 8 (levels of field keys: `{"a": 1}` is depth 1; operator objects add no
 * level), 100 field keys in total (operator keys are not counted), 16,384 bytes of UTF-8
 * `JSON.stringify(filter)`. At most 50 issues are reported.
 *
 * Paths are JSONPath-like: `$` is the filter object (or `options.rootPath`), `.name` for identifier
 * keys, `["odd key"]` otherwise, `[i]` for list indexes, e.g. `$.payload.action.in[2]`.
 */

export type FilterIssue = { path: string; message: string };

export const OPERATOR_KEYS = ['in', 'not_in', 'exists'] as const;
export type OperatorKey = (typeof OPERATOR_KEYS)[number];

export const PAYLOAD_FILTER_LIMITS = {
  /** Maximum nesting levels of field keys. */
  maxDepth: 8,
  /** Maximum number of field keys, all levels together. */
  maxKeys: 100,
  /** Maximum UTF-8 size of JSON.stringify(filter). */
  maxBytes: 16_384,
  /** Validation stops collecting issues after this many. */
  maxIssues: 50,
} as const;

export interface ValidateOptions {
  /** Path prefix standing for the filter object, default `$` (e.g. `$.triggers[0].filter.payload`). */
  rootPath?: string;
}

export type JsonScalar = string | number | boolean | null;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `$` + `action` → `$.action`; `$` + `a.b` → `$["a.b"]`. */
export function appendKey(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function appendIndex(path: string, index: number): string {
  return `${path}[${index}]`;
}

export function isOperatorKey(key: string): key is OperatorKey {
  return key === 'in' || key === 'not_in' || key === 'exists';
}

/** Plain JSON-like object: not null, not an array, and Object.prototype (or null) as prototype. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isJsonScalar(value: unknown): value is JsonScalar {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      return value === null;
    default:
      return false;
  }
}

/** Human name of a value's JSON type: null, array, object, string, number, boolean (or the JS type). */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return `non-finite number (${String(value)})`;
  if (typeof value === 'object' && !isPlainObject(value)) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name ? `${name} instance` : 'object';
  }
  return typeof value;
}

/** The shape a filter value is read as. */
export type ValueKind = 'scalar' | 'list' | 'operators' | 'nested' | 'empty' | 'mixed' | 'unsupported';

export function classifyFilterValue(value: unknown): ValueKind {
  if (isJsonScalar(value)) return 'scalar';
  if (Array.isArray(value)) return 'list';
  if (!isPlainObject(value)) return 'unsupported';
  const keys = Object.keys(value);
  if (keys.length === 0) return 'empty';
  let operators = 0;
  for (const key of keys) if (isOperatorKey(key)) operators++;
  if (operators === keys.length) return 'operators';
  return operators === 0 ? 'nested' : 'mixed';
}

class Collector {
  readonly issues: FilterIssue[] = [];
  keyCount = 0;
  truncated = false;

  add(path: string, message: string): void {
    if (this.issues.length >= PAYLOAD_FILTER_LIMITS.maxIssues) {
      this.truncated = true;
      return;
    }
    this.issues.push({ path, message });
  }
}

const SCALAR_WORDS = 'JSON scalars (string, number, boolean or null)';

/**
 * Validates a payload filter. Returns [] when it is valid (null/undefined = no filter = valid).
 */
export function validatePayloadFilter(filter: unknown, options: ValidateOptions = {}): FilterIssue[] {
  const root = options.rootPath ?? '$';
  if (filter === null || filter === undefined) return [];
  if (!isPlainObject(filter)) {
    return [{ path: root, message: `filter must be a JSON object (or null for no filter), got ${jsonTypeName(filter)}` }];
  }

  const c = new Collector();
  walkObject(filter, root, 1, c);

  const limitIssues: FilterIssue[] = [];
  if (c.keyCount > PAYLOAD_FILTER_LIMITS.maxKeys) {
    limitIssues.push({
      path: root,
      message: `filter has ${c.keyCount} field keys; at most ${PAYLOAD_FILTER_LIMITS.maxKeys} are allowed (all levels together)`,
    });
  }
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(filter);
  } catch {
    limitIssues.push({ path: root, message: 'filter cannot be serialized as JSON' });
  }
  if (serialized !== undefined) {
    const bytes = utf8Length(serialized);
    if (bytes > PAYLOAD_FILTER_LIMITS.maxBytes) {
      limitIssues.push({
        path: root,
        message: `filter is ${bytes} bytes as JSON; at most ${PAYLOAD_FILTER_LIMITS.maxBytes} are allowed`,
      });
    }
  }
  const issues = [...limitIssues, ...c.issues];
  if (c.truncated) {
    issues.push({ path: root, message: `too many problems; only the first ${PAYLOAD_FILTER_LIMITS.maxIssues} are reported` });
  }
  return issues;
}

/** `obj` is a filter object whose keys sit at nesting level `depth` (root keys: 1). */
function walkObject(obj: Record<string, unknown>, path: string, depth: number, c: Collector): void {
  for (const key of Object.keys(obj)) {
    c.keyCount++;
    const keyPath = appendKey(path, key);
    if (depth > PAYLOAD_FILTER_LIMITS.maxDepth) {
      c.add(keyPath, `filter nests deeper than ${PAYLOAD_FILTER_LIMITS.maxDepth} levels`);
      // Do not descend further (also bounds work on cyclic input); count the siblings only.
      c.keyCount += Object.keys(obj).length - 1;
      return;
    }
    walkValue(obj[key], keyPath, depth, c);
  }
}

function walkValue(value: unknown, path: string, depth: number, c: Collector): void {
  switch (classifyFilterValue(value)) {
    case 'scalar':
      return;
    case 'list':
      checkList(value as unknown[], path, 'an array value (= "in")', true, c);
      return;
    case 'operators':
      checkOperators(value as Record<string, unknown>, path, c);
      return;
    case 'nested':
      walkObject(value as Record<string, unknown>, path, depth + 1, c);
      return;
    case 'empty':
      c.add(path, 'empty object: use {"exists": true} to require the field, or remove the key');
      return;
    case 'mixed': {
      const keys = Object.keys(value as object);
      const ops = keys.filter(isOperatorKey).map((k) => JSON.stringify(k));
      const fields = keys.filter((k) => !isOperatorKey(k)).map((k) => JSON.stringify(k));
      c.add(
        path,
        `object mixes operator keys (${ops.join(', ')}) with field keys (${fields.join(', ')}); ` +
          'an object is either an operator object (only "in", "not_in", "exists") or a nested filter',
      );
      return;
    }
    case 'unsupported':
      c.add(path, `unsupported value: expected a JSON scalar, an array of scalars or an object, got ${jsonTypeName(value)}`);
      return;
  }
}

function checkList(list: unknown[], path: string, what: string, nonEmpty: boolean, c: Collector): void {
  if (nonEmpty && list.length === 0) {
    c.add(path, `${what} must list at least one value (an empty list never matches)`);
    return;
  }
  for (let i = 0; i < list.length; i++) {
    const element = list[i];
    if (!isJsonScalar(element)) {
      c.add(appendIndex(path, i), `list elements must be ${SCALAR_WORDS}, got ${jsonTypeName(element)}`);
    }
  }
}

function checkOperators(ops: Record<string, unknown>, path: string, c: Collector): void {
  for (const op of ['in', 'not_in'] as const) {
    if (!Object.hasOwn(ops, op)) continue;
    const operand = ops[op];
    const opPath = appendKey(path, op);
    if (!Array.isArray(operand)) {
      c.add(opPath, `"${op}" must be an array of ${SCALAR_WORDS}, got ${jsonTypeName(operand)}`);
      continue;
    }
    checkList(operand, opPath, `"${op}"`, op === 'in', c);
  }
  if (Object.hasOwn(ops, 'exists')) {
    const operand = ops.exists;
    if (typeof operand !== 'boolean') {
      c.add(appendKey(path, 'exists'), `"exists" must be true or false, got ${jsonTypeName(operand)}`);
    } else if (operand === false && (Object.hasOwn(ops, 'in') || Object.hasOwn(ops, 'not_in'))) {
      c.add(path, '"exists": false cannot be combined with "in" or "not_in": a missing field matches only "exists": false, so this never matches');
    }
  }
}

/** UTF-8 byte length of a JS string (lone surrogates count as U+FFFD, 3 bytes, as TextEncoder does). */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
