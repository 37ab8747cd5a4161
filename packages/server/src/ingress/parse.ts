/**
 * Step 8 — parse: any JSON value (object, array or scalar); `Content-Type` is not looked at. A UTF-8 byte
 * order mark is tolerated, as JSON.parse of the decoded text would otherwise refuse it.
 */
export type ParsedBody = { ok: true; payload: unknown } | { ok: false };

export function parseJsonBody(rawBody: Buffer): ParsedBody {
  try {
    let text = rawBody.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { ok: true, payload: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
