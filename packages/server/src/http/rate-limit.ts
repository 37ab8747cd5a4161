/**
 * The per-API-key REST request budget (contract: "429 rate_limited when an API key exceeds its request
 * budget (a server setting)"): a fixed window per key, counted in this process, read from the one clock.
 */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../context';
import { principalOf } from './auth';
import { rateLimited } from '../problems';

export function restRateLimit(ctx: ServerContext): RequestHandler {
  const windowMs = ctx.settings.windows.restRateWindowSeconds * 1000;
  const budget = ctx.settings.limits.restRequestsPerWindow;
  const counters = new Map<string, { window: number; count: number }>();
  return (req, _res, next) => {
    const { keyId } = principalOf(req);
    const now = ctx.clock.now().getTime();
    const window = Math.floor(now / windowMs);
    let counter = counters.get(keyId);
    if (!counter || counter.window !== window) {
      if (counters.size > 10_000) for (const [k, c] of counters) if (c.window !== window) counters.delete(k);
      counter = { window, count: 0 };
      counters.set(keyId, counter);
    }
    counter.count += 1;
    if (counter.count <= budget) return next();
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
    next(rateLimited(`Too many requests for this API key; retry after ${retryAfter} seconds.`, retryAfter));
  };
}
