import { isUtf8 } from 'node:buffer';

/** JSON helpers shared by the ingress, the REST API and the domain: parsing bytes, measuring depth without recursion. */

/**
 * Any JSON value (object, array or scalar) from raw bytes. A UTF-8 byte order mark is tolerated, as
 * JSON.parse of the decoded text would otherwise refuse it. Bytes that are not UTF-8 are not JSON (RFC
 * 8259 §8.1): decoding would turn them into U+FFFD, so a payload would no longer be the bytes it was sent as.
 */
export type ParsedBody = { ok: true; payload: unknown } | { ok: false };

export function parseJsonBody(rawBody: Buffer): ParsedBody {
  if (!isUtf8(rawBody)) return { ok: false };
  try {
    let text = rawBody.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { ok: true, payload: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

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
