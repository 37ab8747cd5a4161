/**
 * ONE middleware for every POST under /api/v1 (docs/wire.md §Runs, Idempotency-Key):
 * - same key + same method, path and body within `windows.idempotencySeconds` → the stored answer again
 *   (status, body, headers) with `idempotent-replayed: true`;
 * - same key + another request → 409 `conflict` (final);
 * - same key while the first request is still being answered → 409 `conflict`, retryable.
 * Keys are per team, and a stored answer replays only to the API key that made the first request (the
 * hash covers the key's id): an answer may carry a secret shown once — a new API key, a webhook secret — and
 * another admin of the team must not read it by replaying. Stored bodies are encrypted. Answers ≥ 500 and
 * 429 are not kept, so the client's retry runs again.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { RequestHandler, Response } from 'express';
import type { Kysely } from 'kysely';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { isUniqueViolation } from '../db/dialect';
import type { Database } from '../db/tables';
import { principalOf } from './auth';
import { conflict, invalidRequest } from '../problems';
import { teamScope } from '../db/scoped';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** Response headers that are part of the answer (not per-request ones like x-request-id). */
const REPLAYED_HEADERS = ['content-type', 'location', 'x-should-retry', 'retry-after'];

/**
 * The caller's API key id, the method, the path and the body in RFC 8785 (JCS) form, so the same body hashes
 * the same whatever its key order or spacing (a missing body as `null`). canonicalize recurses: bodies are depth-limited before this (http/json-depth.ts).
 * Throws on a string holding an unpaired UTF-16 surrogate, which JCS cannot represent.
 */
export function requestHash(apiKeyId: string, method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${apiKeyId}\n${method}\n${path}\n${canonicalize(body ?? null)}`)
    .digest('hex');
}

export function idempotency(ctx: ServerContext): RequestHandler {
  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (req.method !== 'POST' || key === undefined) return next();
    if (!KEY_FORMAT.test(key)) {
      return next(
        invalidRequest('Idempotency-Key must be 1–255 printable ASCII characters.', [
          { path: 'header.Idempotency-Key', message: 'must be 1–255 printable ASCII characters' },
        ]),
      );
    }
    const { teamId, keyId } = principalOf(req);
    const path = req.originalUrl;
    let hash: string;
    try {
      hash = requestHash(keyId, req.method, path, req.body);
    } catch {
      return next(
        invalidRequest('A request with an Idempotency-Key must not hold an unpaired UTF-16 surrogate (a lone \\uD800–\\uDFFF escape).', [
          { path: 'body', message: 'holds an unpaired UTF-16 surrogate' },
        ]),
      );
    }
    const now = ctx.clock.now();
    const nowTs = toTimestamp(now);

    const claimed = await claimKey(
      ctx.db,
      {
        team_id: teamId,
        key,
        method: req.method,
        path,
        request_hash: hash,
        status_code: null,
        response_headers: null,
        response_body: null,
        created_at: nowTs,
        expires_at: toTimestamp(new Date(now.getTime() + ctx.settings.windows.idempotencySeconds * 1000)),
      },
      nowTs,
      toTimestamp(new Date(now.getTime() - ctx.settings.windows.idempotencyInFlightSeconds * 1000)),
    );

    if (claimed.kind === 'existing') {
      const row = claimed.row;
      if (row.request_hash !== hash || row.method !== req.method || row.path !== path) {
        return next(conflict('This Idempotency-Key was already used with a different request or by another API key; use a new key for a new request.'));
      }
      if (row.status_code === null) {
        return next(conflict('A request with this Idempotency-Key is still being processed; retry shortly.', { retryable: true }));
      }
      return replay(ctx, res, row);
    }

    captureAnswer(ctx, res, teamId, key);
    next();
  };
}

type IdempotencyRow = Database['idempotency_keys'];

/** Inserts the in-flight marker, or returns the live row already holding this key. */
async function claimKey(
  db: Kysely<Database>,
  row: IdempotencyRow,
  nowTs: string,
  abandonedBefore: string,
): Promise<{ kind: 'claimed' } | { kind: 'existing'; row: IdempotencyRow }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // Expired answers and abandoned in-flight markers (a crashed process) free the key.
    await teamScope(db, row.team_id)
      .deleteFrom('idempotency_keys')
      .where('key', '=', row.key)
      .where((eb) => eb.or([eb('expires_at', '<=', nowTs), eb.and([eb('status_code', 'is', null), eb('created_at', '<', abandonedBefore)])]))
      .execute();
    try {
      await teamScope(db, row.team_id).insertInto('idempotency_keys', row).execute();
      return { kind: 'claimed' };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const existing = await teamScope(db, row.team_id).selectFrom('idempotency_keys').selectAll().where('key', '=', row.key).executeTakeFirst();
    if (existing) return { kind: 'existing', row: existing };
    // Deleted between our insert and select (expired): try again.
  }
  throw new Error('could not claim idempotency key');
}

function replay(ctx: ServerContext, res: Response, row: IdempotencyRow): void {
  const headers = JSON.parse(row.response_headers ?? '{}') as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('idempotent-replayed', 'true');
  let body = row.response_body === null ? '' : ctx.secrets.decrypt(row.response_body);
  if ((headers['content-type'] ?? '').startsWith('application/problem+json')) {
    // A problem's trace_id names the request that answers it: this one, not the original.
    body = JSON.stringify({ ...(JSON.parse(body) as object), trace_id: String(res.getHeader('x-request-id') ?? '') });
  }
  res.status(row.status_code ?? 200);
  res.end(body);
}

/** Keeps the answer: defers the final `res.end` until the answer is stored, so a retry never races it. */
function captureAnswer(ctx: ServerContext, res: Response, teamId: string, key: string): void {
  const originalEnd = res.end.bind(res) as (...args: unknown[]) => Response;
  let ended = false;
  res.end = ((...args: unknown[]) => {
    if (ended) return res;
    ended = true;
    const chunk = typeof args[0] === 'function' ? undefined : args[0];
    const encoding = typeof args[1] === 'string' ? (args[1] as BufferEncoding) : 'utf8';
    const body =
      chunk === undefined || chunk === null ? '' : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : Buffer.from(chunk as string, encoding).toString('utf8');
    const status = res.statusCode;
    const scope = teamScope(ctx.db, teamId).deleteFrom('idempotency_keys').where('key', '=', key);
    const store =
      status >= 500 || status === 429
        ? scope.execute()
        : teamScope(ctx.db, teamId)
            .updateTable('idempotency_keys')
            .set({
              status_code: status,
              response_headers: JSON.stringify(pickHeaders(res)),
              response_body: ctx.secrets.encrypt(body),
            })
            .where('key', '=', key)
            .execute();
    store.catch((err: unknown) => res.req.log.error({ err }, 'could not store the idempotent answer')).finally(() => originalEnd(...args));
    return res;
  }) as Response['end'];
}

function pickHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** Retention: drops at most `limit` answers whose window has passed, oldest first (http/retention.ts runs it). */
export async function deleteExpiredIdempotencyKeysServiceWide(db: Kysely<Database>, now: Date, limit = 1000): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where((eb) =>
      eb(
        eb.refTuple('team_id', 'key'),
        'in',
        eb
          .selectFrom('idempotency_keys as expired')
          .select(['expired.team_id', 'expired.key'])
          .where('expired.expires_at', '<=', toTimestamp(now))
          .orderBy('expired.expires_at')
          .limit(limit)
          .$asTuple('team_id', 'key'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
