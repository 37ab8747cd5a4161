/**
 * No REST input may hold a NUL character (U+0000): PostgreSQL's text cannot store one (it answered 500
 * "invalid byte sequence") and SQLite would store what no client means, so one rule for both databases —
 * 400 naming where it is. Runs after the JSON parser and the depth limit, so the walk is bounded.
 */
import type { RequestHandler } from 'express';
import { invalidRequest } from '../problems';

const NUL = '\u0000';

/** The JSON path (`$.config.mcp_servers.x.env.Y`, `$.attachments[0]`) of the first string or key holding NUL. */
export function findNul(value: unknown, path = '$'): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}.${key.replaceAll(NUL, '\\u0000')}`;
      if (key.includes(NUL)) return at;
      const found = findNul(item, at);
      if (found) return found;
    }
  }
  return undefined;
}

export const refuseNulCharacters: RequestHandler = (req, _res, next) => {
  const where = decodeURIComponent(req.path).includes(NUL) ? 'path' : (findNul(req.query, 'query') ?? findNul(req.body));
  if (where === undefined) return next();
  next(
    invalidRequest(`The request holds a NUL character (U+0000) at ${where}; no field may contain one.`, [
      { path: where, message: 'contains a NUL character (U+0000)' },
    ]),
  );
};
