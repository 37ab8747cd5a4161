/**
 * JSON nesting depth, measured without recursion. JSON.parse copes with any depth, but the code that
 * walks a value afterwards (JSON.stringify, the idempotency hash, schema validation) recurses and
 * overflows the stack somewhere past a few thousand levels: a 200 KB body of `[` is enough.
 */
import type { RequestHandler } from 'express';
import { invalidRequest } from './problem';

/** The deepest REST request body accepted (contract §Errors); real requests nest a dozen levels at most. */
export const MAX_BODY_DEPTH = 64;

/** True when `value` nests arrays/objects more than `max` levels deep (a scalar is depth 0). */
export function valueDepthExceeds(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** True when the JSON text `text` nests arrays/objects more than `max` levels deep (brackets in strings do not count). */
export function textDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** After the JSON parser: a body nested deeper than MAX_BODY_DEPTH answers 400 before anything walks it. */
export const bodyDepthLimit: RequestHandler = (req, _res, next) => {
  if (valueDepthExceeds(req.body, MAX_BODY_DEPTH)) {
    return next(invalidRequest(`The request body nests arrays or objects more than ${MAX_BODY_DEPTH} levels deep.`, [
      { path: '$', message: `nests more than ${MAX_BODY_DEPTH} levels deep` },
    ]));
  }
  next();
};
