/**
 * Who may read `/metrics` (it counts the whole service's runs and deliveries): with `METRICS_TOKEN` set, a
 * scraper that sends `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time) from anywhere;
 * without it, clients on this host only (loopback), so a server bound to a public address publishes nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { authenticationRequired, notAuthorized } from '../problems';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.') || address === '::1';
}

export function metricsAccess(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return (req, _res, next) => {
    if (expected === undefined) {
      if (isLoopbackAddress(req.socket.remoteAddress)) return next();
      return next(notAuthorized('/metrics answers clients on this host only; set METRICS_TOKEN to scrape it from elsewhere with a bearer token.'));
    }
    const presented = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return next();
    next(authenticationRequired('/metrics needs `Authorization: Bearer <METRICS_TOKEN>`.'));
  };
}
