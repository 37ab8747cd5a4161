import { describe, expect, it } from 'vitest';
import {
  compilePayloadFilter,
  PathTable,
  PayloadFilterError,
  PAYLOAD_FILTER_LIMITS,
  validatePayloadFilter,
  type MatchExplanation,
} from '../../src/automations/filter';

const pr = {
  action: 'opened',
  number: 42,
  draft: false,
  merged_at: null,
  labels: ['bug', 'p1'],
  ids: [1, 2, 3],
  mixed: [null, true, '7', { name: 'x' }, ['bug']],
  empty: [],
  pull_request: {
    base: { ref: 'main', repo: { owner: { login: 'acme' } } },
    head: { ref: 'feature/x' },
    labels: [{ name: 'bug' }],
  },
  sender: { login: 'octocat', type: 'User' },
  'dotted.key': 'yes',
  'constructor-ish': 1,
};

type Row = {
  name: string;
  filter: unknown;
  payload: unknown;
  passed: boolean;
  path?: string;
  reason?: string;
};

// name, filter, payload, expected verdict, and (for failures) the explain() path and reason.
const rows: Row[] = [
  // no filter / empty filter
  { name: 'absent filter (undefined), object payload', filter: undefined, payload: pr, passed: true },
  { name: 'null filter, object payload', filter: null, payload: pr, passed: true },
  { name: 'empty filter, object payload', filter: {}, payload: pr, passed: true },
  { name: 'null filter, array payload', filter: null, payload: [1, 2], passed: true },
  { name: 'empty filter, scalar payload', filter: {}, payload: 'hello', passed: true },
  { name: 'empty filter, null payload', filter: {}, payload: null, passed: true },

  // non-object payloads with a non-empty filter
  {
    name: 'array payload',
    filter: { action: 'opened' },
    payload: [{ action: 'opened' }],
    passed: false,
    path: '$',
    reason: 'payload is not an object (got an array)',
  },
  { name: 'string payload', filter: { action: 'opened' }, payload: 'opened', passed: false, path: '$', reason: 'payload is not an object (got a string)' },
  { name: 'number payload', filter: { n: 1 }, payload: 1, passed: false, path: '$', reason: 'payload is not an object (got a number)' },
  { name: 'null payload', filter: { a: { exists: false } }, payload: null, passed: false, path: '$', reason: 'payload is not an object (got null)' },
  { name: 'boolean payload', filter: { a: true }, payload: true, passed: false, path: '$', reason: 'payload is not an object (got a boolean)' },

  // scalar equality
  { name: 'string equality match', filter: { action: 'opened' }, payload: pr, passed: true },
  { name: 'string equality mismatch', filter: { action: 'closed' }, payload: pr, passed: false, path: '$.action', reason: 'expected "closed", got "opened"' },
  { name: 'number equality match', filter: { number: 42 }, payload: pr, passed: true },
  { name: 'number equality by value (42.0)', filter: { number: 42.0 }, payload: { number: 42 }, passed: true },
  { name: 'zero equals negative zero', filter: { n: 0 }, payload: { n: -0 }, passed: true },
  {
    name: 'number filter vs string field',
    filter: { number: 42 },
    payload: { number: '42' },
    passed: false,
    path: '$.number',
    reason: 'expected 42, got "42"',
  },
  { name: 'string filter vs number field', filter: { number: '42' }, payload: pr, passed: false, path: '$.number', reason: 'expected "42", got 42' },
  { name: 'boolean equality match', filter: { draft: false }, payload: pr, passed: true },
  { name: 'boolean vs string "false"', filter: { draft: 'false' }, payload: pr, passed: false, path: '$.draft', reason: 'expected "false", got false' },
  { name: 'boolean vs number 0', filter: { draft: 0 }, payload: pr, passed: false, path: '$.draft', reason: 'expected 0, got false' },
  { name: 'null equality: field is null', filter: { merged_at: null }, payload: pr, passed: true },
  { name: 'null equality: field missing', filter: { closed_at: null }, payload: pr, passed: false, path: '$.closed_at', reason: 'field is missing' },
  { name: 'null equality: field is a string', filter: { action: null }, payload: pr, passed: false, path: '$.action', reason: 'expected null, got "opened"' },
  {
    name: 'equality vs object field',
    filter: { sender: 'octocat' },
    payload: pr,
    passed: false,
    path: '$.sender',
    reason: 'expected "octocat", got an object',
  },
  { name: 'equality, missing field', filter: { nope: 'x' }, payload: pr, passed: false, path: '$.nope', reason: 'field is missing' },

  // array value (= in)
  { name: 'array value match', filter: { action: ['opened', 'reopened'] }, payload: pr, passed: true },
  {
    name: 'array value mismatch',
    filter: { action: ['closed', 'reopened'] },
    payload: pr,
    passed: false,
    path: '$.action',
    reason: 'expected one of ["closed","reopened"], got "opened"',
  },
  {
    name: 'array value, numbers vs string field',
    filter: { n: [1, 2] },
    payload: { n: '1' },
    passed: false,
    path: '$.n',
    reason: 'expected one of [1,2], got "1"',
  },
  {
    name: 'array value, strings vs number field',
    filter: { n: ['1', '2'] },
    payload: { n: 1 },
    passed: false,
    path: '$.n',
    reason: 'expected one of ["1","2"], got 1',
  },
  { name: 'array value, mixed types match number', filter: { n: ['1', 1, true, null] }, payload: { n: 1 }, passed: true },
  { name: 'array value, null member matches null field', filter: { merged_at: [null, 'x'] }, payload: pr, passed: true },
  { name: 'array value, true does not match 1', filter: { n: [true] }, payload: { n: 1 }, passed: false, path: '$.n', reason: 'expected one of [true], got 1' },
  { name: 'array value, missing field', filter: { nope: ['a'] }, payload: pr, passed: false, path: '$.nope', reason: 'field is missing' },

  // operator: in
  { name: 'in match', filter: { action: { in: ['opened', 'closed'] } }, payload: pr, passed: true },
  {
    name: 'in mismatch (reason format)',
    filter: { action: { in: ['opened', 'closed'] } },
    payload: { action: 'edited' },
    passed: false,
    path: '$.action',
    reason: 'expected one of ["opened","closed"], got "edited"',
  },
  { name: 'in on missing field', filter: { action: { in: ['opened'] } }, payload: {}, passed: false, path: '$.action', reason: 'field is missing' },
  {
    name: 'in on null field without null member',
    filter: { merged_at: { in: ['x'] } },
    payload: pr,
    passed: false,
    path: '$.merged_at',
    reason: 'expected one of ["x"], got null',
  },
  {
    name: 'in on object field',
    filter: { sender: { in: ['octocat'] } },
    payload: pr,
    passed: false,
    path: '$.sender',
    reason: 'expected one of ["octocat"], got an object',
  },
  {
    name: 'in, long list is truncated in reason',
    filter: { n: { in: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] } },
    payload: { n: 13 },
    passed: false,
    path: '$.n',
    reason: 'expected one of [1,2,3,4,5,6,7,8,9,10,… (2 more)], got 13',
  },

  // operator: not_in
  { name: 'not_in match', filter: { action: { not_in: ['closed'] } }, payload: pr, passed: true },
  {
    name: 'not_in mismatch',
    filter: { action: { not_in: ['opened', 'closed'] } },
    payload: pr,
    passed: false,
    path: '$.action',
    reason: 'expected none of ["opened","closed"], got "opened"',
  },
  {
    name: 'not_in on missing field does not match',
    filter: { nope: { not_in: ['x'] } },
    payload: pr,
    passed: false,
    path: '$.nope',
    reason: 'field is missing',
  },
  { name: 'not_in on null field', filter: { merged_at: { not_in: ['x'] } }, payload: pr, passed: true },
  {
    name: 'not_in with null member vs null field',
    filter: { merged_at: { not_in: [null] } },
    payload: pr,
    passed: false,
    path: '$.merged_at',
    reason: 'expected none of [null], got null',
  },
  { name: 'not_in number vs string field', filter: { n: { not_in: [1] } }, payload: { n: '1' }, passed: true },
  { name: 'not_in empty list matches present field', filter: { action: { not_in: [] } }, payload: pr, passed: true },
  { name: 'not_in on object field', filter: { sender: { not_in: ['x'] } }, payload: pr, passed: true },

  // operator: exists
  { name: 'exists true, present', filter: { action: { exists: true } }, payload: pr, passed: true },
  { name: 'exists true, null value is present', filter: { merged_at: { exists: true } }, payload: pr, passed: true },
  { name: 'exists true, missing', filter: { closed_at: { exists: true } }, payload: pr, passed: false, path: '$.closed_at', reason: 'field is missing' },
  { name: 'exists false, missing', filter: { closed_at: { exists: false } }, payload: pr, passed: true },
  {
    name: 'exists false, present',
    filter: { action: { exists: false } },
    payload: pr,
    passed: false,
    path: '$.action',
    reason: 'field exists but exists: false was required',
  },
  {
    name: 'exists false, null value is present',
    filter: { merged_at: { exists: false } },
    payload: pr,
    passed: false,
    path: '$.merged_at',
    reason: 'field exists but exists: false was required',
  },
  { name: 'exists true, array field', filter: { empty: { exists: true } }, payload: pr, passed: true },
  {
    name: 'exists false on nested missing parent',
    filter: { a: { b: { exists: false } } },
    payload: {},
    passed: false,
    path: '$.a',
    reason: 'field is missing',
  },
  { name: 'exists false on nested present parent', filter: { sender: { id: { exists: false } } }, payload: pr, passed: true },

  // combined operators (all must hold; checked exists, in, not_in)
  { name: 'in + not_in both hold', filter: { action: { in: ['opened', 'closed'], not_in: ['closed'] } }, payload: pr, passed: true },
  {
    name: 'in + not_in, not_in fails',
    filter: { action: { in: ['opened'], not_in: ['opened'] } },
    payload: pr,
    passed: false,
    path: '$.action',
    reason: 'expected none of ["opened"], got "opened"',
  },
  {
    name: 'exists true + in, missing explained by exists',
    filter: { a: { in: ['x'], exists: true } },
    payload: {},
    passed: false,
    path: '$.a',
    reason: 'field is missing',
  },
  { name: 'exists true + in, present and in', filter: { action: { exists: true, in: ['opened'] } }, payload: pr, passed: true },

  // arrays in the payload
  { name: 'equality, any element matches', filter: { labels: 'bug' }, payload: pr, passed: true },
  {
    name: 'equality, no element matches',
    filter: { labels: 'docs' },
    payload: pr,
    passed: false,
    path: '$.labels',
    reason: 'expected an element equal to "docs", got ["bug","p1"]',
  },
  { name: 'in, any element matches', filter: { labels: { in: ['docs', 'p1'] } }, payload: pr, passed: true },
  { name: 'array value, any element matches', filter: { labels: ['docs', 'bug'] }, payload: pr, passed: true },
  {
    name: 'in, no element matches',
    filter: { labels: { in: ['docs', 'ui'] } },
    payload: pr,
    passed: false,
    path: '$.labels',
    reason: 'expected an element among ["docs","ui"], got ["bug","p1"]',
  },
  { name: 'not_in, no element matches', filter: { labels: { not_in: ['docs', 'ui'] } }, payload: pr, passed: true },
  {
    name: 'not_in, an element matches (path to element)',
    filter: { labels: { not_in: ['docs', 'p1'] } },
    payload: pr,
    passed: false,
    path: '$.labels[1]',
    reason: 'expected none of ["docs","p1"], got "p1"',
  },
  { name: 'numeric array, in with numbers', filter: { ids: { in: [3, 9] } }, payload: pr, passed: true },
  {
    name: 'numeric array, in with strings never matches',
    filter: { ids: { in: ['3'] } },
    payload: pr,
    passed: false,
    path: '$.ids',
    reason: 'expected an element among ["3"], got [1,2,3]',
  },
  { name: 'numeric array, equality', filter: { ids: 2 }, payload: pr, passed: true },
  { name: 'mixed array, null element equals null', filter: { mixed: null }, payload: pr, passed: true },
  { name: 'mixed array, "7" string element', filter: { mixed: { in: ['7'] } }, payload: pr, passed: true },
  {
    name: 'mixed array, 7 number does not equal "7"',
    filter: { mixed: 7 },
    payload: pr,
    passed: false,
    path: '$.mixed',
    reason: 'expected an element equal to 7, got [null,true,"7",{"name":"x"},["bug"]]',
  },
  {
    name: 'mixed array, nested arrays are not flattened',
    filter: { mixed: 'bug' },
    payload: pr,
    passed: false,
    path: '$.mixed',
    reason: 'expected an element equal to "bug", got [null,true,"7",{"name":"x"},["bug"]]',
  },
  { name: 'empty array, in fails', filter: { empty: ['x'] }, payload: pr, passed: false, path: '$.empty', reason: 'expected an element among ["x"], got []' },
  { name: 'empty array, not_in holds', filter: { empty: { not_in: ['x'] } }, payload: pr, passed: true },
  {
    name: 'empty array, equality fails',
    filter: { empty: 'x' },
    payload: pr,
    passed: false,
    path: '$.empty',
    reason: 'expected an element equal to "x", got []',
  },

  // nesting
  { name: 'nested match', filter: { pull_request: { base: { ref: 'main' } } }, payload: pr, passed: true },
  { name: 'deep nested match', filter: { pull_request: { base: { repo: { owner: { login: ['acme', 'other'] } } } } }, payload: pr, passed: true },
  {
    name: 'nested mismatch, path',
    filter: { pull_request: { base: { ref: 'develop' } } },
    payload: pr,
    passed: false,
    path: '$.pull_request.base.ref',
    reason: 'expected "develop", got "main"',
  },
  {
    name: 'nested, intermediate missing',
    filter: { pull_request: { merged_by: { login: 'x' } } },
    payload: pr,
    passed: false,
    path: '$.pull_request.merged_by',
    reason: 'field is missing',
  },
  {
    name: 'nested on string field',
    filter: { action: { type: 'x' } },
    payload: pr,
    passed: false,
    path: '$.action',
    reason: 'expected an object for the nested filter, got a string "opened"',
  },
  {
    name: 'nested on null field',
    filter: { merged_at: { by: 'x' } },
    payload: pr,
    passed: false,
    path: '$.merged_at',
    reason: 'expected an object for the nested filter, got null',
  },
  {
    name: 'nested on array field (no descent)',
    filter: { pull_request: { labels: { name: 'bug' } } },
    payload: pr,
    passed: false,
    path: '$.pull_request.labels',
    reason: 'expected an object for the nested filter, got an array (nested filters do not look inside arrays)',
  },
  {
    name: 'nested with several keys, all hold',
    filter: { sender: { login: 'octocat', type: { not_in: ['Bot'] } }, action: 'opened' },
    payload: pr,
    passed: true,
  },
  {
    name: 'every key must match; first failure in key order',
    filter: { action: 'opened', number: 41, draft: true },
    payload: pr,
    passed: false,
    path: '$.number',
    reason: 'expected 41, got 42',
  },
  {
    name: '"gt" is a nested field, not an operator',
    filter: { number: { gt: 5 } },
    payload: pr,
    passed: false,
    path: '$.number',
    reason: 'expected an object for the nested filter, got a number 42',
  },
  { name: '"gt" nested field present', filter: { limits: { gt: 5 } }, payload: { limits: { gt: 5 } }, passed: true },
  { name: 'root keys named like operators are fields', filter: { in: ['a'], exists: true }, payload: { in: 'a', exists: true }, passed: true },
  {
    name: 'root "exists" key is equality on field "exists"',
    filter: { exists: true },
    payload: { foo: 1 },
    passed: false,
    path: '$.exists',
    reason: 'field is missing',
  },

  // key names and inherited properties
  {
    name: 'odd key names use bracket paths',
    filter: { 'dotted.key': 'no' },
    payload: pr,
    passed: false,
    path: '$["dotted.key"]',
    reason: 'expected "no", got "yes"',
  },
  {
    name: 'inherited "constructor" is missing',
    filter: { constructor: { exists: true } },
    payload: {},
    passed: false,
    path: '$.constructor',
    reason: 'field is missing',
  },
  { name: 'inherited "toString" with exists false', filter: { toString: { exists: false } }, payload: {}, passed: true },
  { name: 'own "__proto__" from JSON.parse is a field', filter: JSON.parse('{"__proto__": "x"}'), payload: JSON.parse('{"__proto__": "x"}'), passed: true },
  {
    name: 'long strings are truncated in reasons',
    filter: { s: 'a' },
    payload: { s: 'b'.repeat(200) },
    passed: false,
    path: '$.s',
    reason: `expected "a", got ${JSON.stringify('b'.repeat(200)).slice(0, 120)}…`,
  },
];

describe('payload filter: matches() and explain()', () => {
  it.each(rows)('$name', ({ filter, payload, passed, path, reason }) => {
    expect(validatePayloadFilter(filter)).toEqual([]);
    const compiled = compilePayloadFilter(filter);
    expect(compiled.matches(payload)).toBe(passed);
    const explanation: MatchExplanation = compiled.explain(payload);
    if (passed) {
      expect(explanation).toEqual({ passed: true });
    } else {
      expect(explanation).toEqual({ passed: false, path, reason });
    }
  });

  it.each([
    [undefined, true],
    [null, true],
    [{}, true],
    [{ a: 1 }, false],
  ])('matchesEverything for %j is %s', (filter, expected) => {
    expect(compilePayloadFilter(filter).matchesEverything).toBe(expected);
  });
});

// ------------------------------------------------------------------------------------------------

function nest(depth: number, leaf: unknown = 1): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = depth; i >= 1; i--) value = { [`k${i}`]: value };
  return value as Record<string, unknown>;
}

function flatKeys(n: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
}

const depth9Path = '$.k1.k2.k3.k4.k5.k6.k7.k8.k9';

type InvalidRow = { name: string; filter: unknown; issues: { path: string; message: string | RegExp }[] };

const invalid: InvalidRow[] = [
  // filter itself
  { name: 'array filter', filter: [{ a: 1 }], issues: [{ path: '$', message: 'filter must be a JSON object (or null for no filter), got array' }] },
  { name: 'string filter', filter: 'action=opened', issues: [{ path: '$', message: 'filter must be a JSON object (or null for no filter), got string' }] },
  { name: 'number filter', filter: 5, issues: [{ path: '$', message: 'filter must be a JSON object (or null for no filter), got number' }] },
  { name: 'boolean filter', filter: true, issues: [{ path: '$', message: 'filter must be a JSON object (or null for no filter), got boolean' }] },

  // mixing operator and field keys
  {
    name: 'mixing in + field',
    filter: { action: { in: ['a'], foo: 1 } },
    issues: [
      {
        path: '$.action',
        message:
          'object mixes operator keys ("in") with field keys ("foo"); an object is either an operator object (only "in", "not_in", "exists") or a nested filter',
      },
    ],
  },
  {
    name: 'mixing deep',
    filter: { a: { b: { exists: true, c: 1, not_in: [] } } },
    issues: [{ path: '$.a.b', message: /^object mixes operator keys \("exists", "not_in"\) with field keys \("c"\)/ }],
  },

  // empty object
  {
    name: 'empty object value',
    filter: { a: {} },
    issues: [{ path: '$.a', message: 'empty object: use {"exists": true} to require the field, or remove the key' }],
  },
  { name: 'empty nested object value', filter: { a: { b: {} } }, issues: [{ path: '$.a.b', message: /^empty object/ }] },

  // in / not_in operands
  {
    name: 'in is a string',
    filter: { action: { in: 'opened' } },
    issues: [{ path: '$.action.in', message: '"in" must be an array of JSON scalars (string, number, boolean or null), got string' }],
  },
  {
    name: 'in is an object',
    filter: { action: { in: { a: 1 } } },
    issues: [{ path: '$.action.in', message: '"in" must be an array of JSON scalars (string, number, boolean or null), got object' }],
  },
  {
    name: 'in is null',
    filter: { action: { in: null } },
    issues: [{ path: '$.action.in', message: '"in" must be an array of JSON scalars (string, number, boolean or null), got null' }],
  },
  {
    name: 'not_in is a number',
    filter: { action: { not_in: 3 } },
    issues: [{ path: '$.action.not_in', message: '"not_in" must be an array of JSON scalars (string, number, boolean or null), got number' }],
  },
  {
    name: 'in element is an object',
    filter: { payload: { action: { in: ['a', 'b', { x: 1 }] } } },
    issues: [{ path: '$.payload.action.in[2]', message: 'list elements must be JSON scalars (string, number, boolean or null), got object' }],
  },
  {
    name: 'not_in element is an array',
    filter: { a: { not_in: [['x']] } },
    issues: [{ path: '$.a.not_in[0]', message: 'list elements must be JSON scalars (string, number, boolean or null), got array' }],
  },
  {
    name: 'array value element is an object',
    filter: { a: ['x', { y: 1 }] },
    issues: [{ path: '$.a[1]', message: 'list elements must be JSON scalars (string, number, boolean or null), got object' }],
  },
  {
    name: 'array value with two bad elements',
    filter: { a: [[1], 'ok', {}] },
    issues: [
      { path: '$.a[0]', message: /got array$/ },
      { path: '$.a[2]', message: /got object$/ },
    ],
  },
  { name: 'empty in', filter: { a: { in: [] } }, issues: [{ path: '$.a.in', message: '"in" must list at least one value (an empty list never matches)' }] },
  {
    name: 'empty array value',
    filter: { a: [] },
    issues: [{ path: '$.a', message: 'an array value (= "in") must list at least one value (an empty list never matches)' }],
  },
  { name: 'non-finite number in list', filter: { a: [1, Number.NaN] }, issues: [{ path: '$.a[1]', message: /got non-finite number \(NaN\)$/ }] },

  // exists operand
  { name: 'exists is a string', filter: { a: { exists: 'yes' } }, issues: [{ path: '$.a.exists', message: '"exists" must be true or false, got string' }] },
  { name: 'exists is null', filter: { a: { exists: null } }, issues: [{ path: '$.a.exists', message: '"exists" must be true or false, got null' }] },
  { name: 'exists is 1', filter: { a: { exists: 1 } }, issues: [{ path: '$.a.exists', message: '"exists" must be true or false, got number' }] },
  {
    name: 'exists false + in',
    filter: { a: { exists: false, in: ['x'] } },
    issues: [{ path: '$.a', message: /^"exists": false cannot be combined with "in" or "not_in"/ }],
  },
  { name: 'exists false + not_in', filter: { a: { exists: false, not_in: ['x'] } }, issues: [{ path: '$.a', message: /never matches$/ }] },

  // unsupported JS values
  {
    name: 'undefined value',
    filter: { a: undefined },
    issues: [{ path: '$.a', message: 'unsupported value: expected a JSON scalar, an array of scalars or an object, got undefined' }],
  },
  { name: 'Infinity value', filter: { a: Number.POSITIVE_INFINITY }, issues: [{ path: '$.a', message: /got non-finite number \(Infinity\)$/ }] },
  { name: 'Date value', filter: { a: new Date(0) }, issues: [{ path: '$.a', message: /got Date instance$/ }] },

  // paths
  { name: 'bracket path for odd keys', filter: { 'a.b': { 'c d': { in: 'x' } } }, issues: [{ path: '$["a.b"]["c d"].in', message: /^"in" must be an array/ }] },

  // limits
  { name: 'depth 9', filter: nest(9), issues: [{ path: depth9Path, message: 'filter nests deeper than 8 levels' }] },
  { name: 'depth 9 with operator leaf', filter: nest(9, { in: ['x'] }), issues: [{ path: depth9Path, message: 'filter nests deeper than 8 levels' }] },
  {
    name: '101 keys flat',
    filter: flatKeys(101),
    issues: [{ path: '$', message: 'filter has 101 field keys; at most 100 are allowed (all levels together)' }],
  },
  {
    name: '101 keys over several levels',
    filter: { ...flatKeys(50), nested: flatKeys(50) },
    issues: [{ path: '$', message: /^filter has 101 field keys/ }],
  },
  { name: 'over 16 KB', filter: { a: ['x'.repeat(16_400)] }, issues: [{ path: '$', message: /^filter is 16\d{3} bytes as JSON; at most 16384 are allowed$/ }] },
  {
    name: 'over 16 KB counted as UTF-8 bytes',
    // 2,000 × "é" (2 bytes) + 4,200 × "€" (3 bytes) + 8 = 16,608 bytes in 6,208 chars
    filter: { a: 'é'.repeat(2_000) + '€'.repeat(4_200) },
    issues: [{ path: '$', message: /^filter is 166\d\d bytes as JSON/ }],
  },
];

describe('payload filter: validatePayloadFilter()', () => {
  it.each(invalid)('$name', ({ filter, issues }) => {
    const got = validatePayloadFilter(filter);
    expect(got).toHaveLength(issues.length);
    issues.forEach((want, i) => {
      expect(got[i]!.path).toBe(want.path);
      if (typeof want.message === 'string') expect(got[i]!.message).toBe(want.message);
      else expect(got[i]!.message).toMatch(want.message);
    });
    expect(() => compilePayloadFilter(filter)).toThrow(PayloadFilterError);
  });

  const valid: [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['empty object', {}],
    ['depth exactly 8', nest(8)],
    ['depth 8 with operator leaf (operators add no level)', nest(8, { in: ['x'], not_in: ['y'], exists: true })],
    ['exactly 100 keys', flatKeys(100)],
    ['100 keys over levels', { ...flatKeys(49), nested: flatKeys(50) }],
    ['just under 16 KB', { a: 'x'.repeat(PAYLOAD_FILTER_LIMITS.maxBytes - 10) }], // {"a":"…"} adds 8 bytes
    ['"gt" nested field', { number: { gt: 5 } }],
    ['"$gt" nested field', { number: { $gt: 5 } }],
    ['root keys named in/not_in/exists', { in: 'x', not_in: [1], exists: { exists: true } }],
    ['all scalar kinds in lists', { a: ['s', 1, 1.5, -0, true, false, null] }],
    ['not_in empty', { a: { not_in: [] } }],
    ['all three operators', { a: { exists: true, in: [1], not_in: [2] } }],
    ['exists false alone', { a: { exists: false } }],
    ['null scalar', { a: null }],
  ];

  it.each(valid)('valid: %s', (_name, filter) => {
    expect(validatePayloadFilter(filter)).toEqual([]);
    expect(() => compilePayloadFilter(filter)).not.toThrow();
  });

  it('exactly 16,384 bytes is allowed, 16,385 is not', () => {
    const at = { a: 'x'.repeat(PAYLOAD_FILTER_LIMITS.maxBytes - 8) };
    expect(JSON.stringify(at).length).toBe(16_384);
    expect(validatePayloadFilter(at)).toEqual([]);
    const over = { a: 'x'.repeat(PAYLOAD_FILTER_LIMITS.maxBytes - 7) };
    expect(validatePayloadFilter(over)).toEqual([{ path: '$', message: 'filter is 16385 bytes as JSON; at most 16384 are allowed' }]);
  });

  it('rootPath prefixes every path', () => {
    expect(validatePayloadFilter({ action: { in: ['a', {}] } }, { rootPath: '$.triggers[0].filter.payload' })).toEqual([
      { path: '$.triggers[0].filter.payload.action.in[1]', message: 'list elements must be JSON scalars (string, number, boolean or null), got object' },
    ]);
  });

  it('reports several problems, limit issues first', () => {
    const filter = { ...flatKeys(101), bad: { exists: 'no' } };
    expect(validatePayloadFilter(filter)).toEqual([
      { path: '$', message: 'filter has 102 field keys; at most 100 are allowed (all levels together)' },
      { path: '$.bad.exists', message: '"exists" must be true or false, got string' },
    ]);
  });

  it('caps the number of issues at 50 (+ a note)', () => {
    const filter = { a: Array.from({ length: 80 }, () => ({})) };
    const issues = validatePayloadFilter(filter);
    expect(issues).toHaveLength(51);
    expect(issues[50]).toEqual({ path: '$', message: 'too many problems; only the first 50 are reported' });
  });

  it('terminates on a cyclic object (depth limit)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const issues = validatePayloadFilter(cyclic);
    expect(issues.map((i) => i.message)).toContain('filter cannot be serialized as JSON');
    expect(issues.some((i) => i.message === 'filter nests deeper than 8 levels')).toBe(true);
  });

  it('PayloadFilterError carries the issues and names the first one', () => {
    try {
      compilePayloadFilter({ a: { in: 'x' } });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PayloadFilterError);
      const e = err as PayloadFilterError;
      expect(e.issues).toEqual(validatePayloadFilter({ a: { in: 'x' } }));
      expect(e.message).toBe('invalid payload filter at $.a.in: "in" must be an array of JSON scalars (string, number, boolean or null), got string');
    }
  });
});

describe('payload filter: compiled filters are independent of the source object', () => {
  it('mutating the filter after compile does not change the verdict', () => {
    const filter = { action: { in: ['opened'] }, sender: { login: 'octocat' } };
    const compiled = compilePayloadFilter(filter);
    (filter.action.in as string[]).push('closed');
    filter.sender.login = 'someone';
    expect(compiled.matches({ action: 'closed', sender: { login: 'octocat' } })).toBe(false);
    expect(compiled.matches({ action: 'opened', sender: { login: 'octocat' } })).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------
// Differential check against a naive, direct reading of the wire rules (random filters × payloads),
// with private and shared path tables.

function refMatches(filter: unknown, payload: unknown): boolean {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const objMatch = (f: Record<string, unknown>, o: Record<string, unknown>): boolean => Object.keys(f).every((k) => valMatch(f[k], Object.hasOwn(o, k), o[k]));
  const anyEq = (v: unknown, want: (x: unknown) => boolean): boolean => (Array.isArray(v) ? v.some(want) : want(v));
  const valMatch = (fv: unknown, present: boolean, v: unknown): boolean => {
    if (Array.isArray(fv)) return present && anyEq(v, (x) => fv.includes(x));
    if (!isObj(fv)) return present && anyEq(v, (x) => x === fv);
    const keys = Object.keys(fv);
    if (keys.every((k) => ['in', 'not_in', 'exists'].includes(k))) {
      if ('exists' in fv && present !== fv.exists) return false;
      if ('in' in fv && !(present && anyEq(v, (x) => (fv.in as unknown[]).includes(x)))) return false;
      if ('not_in' in fv && !(present && !anyEq(v, (x) => (fv.not_in as unknown[]).includes(x)))) return false;
      return true;
    }
    return present && isObj(v) && objMatch(fv, v);
  };
  if (filter === null || filter === undefined || Object.keys(filter as object).length === 0) return true;
  return isObj(payload) && objMatch(filter as Record<string, unknown>, payload);
}

describe('payload filter: differential check against the rules read naively', () => {
  let seed = 12345;
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const KEYS = ['a', 'b', 'c', 'constructor'];
  const SCALARS = [1, '1', 0, 'x', true, false, null, 2.5, ''];

  const randPayloadValue = (depth: number): unknown => {
    const r = rnd();
    if (r < 0.45 || depth > 2) return pick(SCALARS);
    if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 4) }, () => (rnd() < 0.8 ? pick(SCALARS) : { a: 1 }));
    return randPayloadObject(depth + 1);
  };
  const randPayloadObject = (depth: number): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    for (const k of KEYS) if (rnd() < 0.6) o[k] = randPayloadValue(depth);
    return o;
  };
  const randList = (min: number): unknown[] => Array.from({ length: min + Math.floor(rnd() * 3) }, () => pick(SCALARS));
  const randFilterValue = (depth: number): unknown => {
    const r = rnd();
    if (r < 0.3) return pick(SCALARS);
    if (r < 0.45) return randList(1);
    if (r < 0.8 || depth > 2) {
      const ops: Record<string, unknown> = {};
      const exists = rnd() < 0.4 ? rnd() < 0.6 : undefined;
      if (exists !== undefined) ops.exists = exists;
      if (exists !== false && rnd() < 0.5) ops.in = randList(1);
      if (exists !== false && rnd() < 0.5) ops.not_in = randList(0);
      if (Object.keys(ops).length === 0) ops.exists = true;
      return ops;
    }
    return randFilterObject(depth + 1);
  };
  const randFilterObject = (depth: number): Record<string, unknown> => {
    const f: Record<string, unknown> = {};
    for (const k of KEYS) if (rnd() < 0.4) f[k] = randFilterValue(depth);
    if (Object.keys(f).length === 0 && depth > 0) f.a = randFilterValue(depth);
    return f;
  };

  it('3,000 random filter × payload pairs agree (matches, explain, shared table)', () => {
    const filters = Array.from({ length: 60 }, () => randFilterObject(0));
    const payloads: unknown[] = [...Array.from({ length: 50 }, () => randPayloadObject(0)), [], [{}], 'a', 1, null];
    const shared = new PathTable();
    const compiledShared = filters.map((f) => compilePayloadFilter(f, { paths: shared }));
    let matchedCount = 0;
    filters.forEach((filter, fi) => {
      expect(validatePayloadFilter(filter)).toEqual([]);
      const compiled = compilePayloadFilter(filter);
      for (const payload of payloads) {
        const want = refMatches(filter, payload);
        if (want) matchedCount++;
        const ctx = JSON.stringify({ filter, payload });
        expect(compiled.matches(payload), ctx).toBe(want);
        expect(compiled.explain(payload).passed, ctx).toBe(want);
        expect(compiledShared[fi]!.matchesResolved(shared.resolve(payload)), ctx).toBe(want);
        expect(compiledShared[fi]!.matches(payload), ctx).toBe(want);
      }
    });
    // The generator must exercise both verdicts.
    expect(matchedCount).toBeGreaterThan(100);
    expect(matchedCount).toBeLessThan(filters.length * payloads.length - 100);
  });
});
