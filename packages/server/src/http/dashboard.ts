/**
 * The web dashboard (packages/dashboard, Vite's build in DASHBOARD_DIR) at the host root; it talks to the
 * server only through the REST API (docs/decisions.md §Dashboard).
 *
 * - Files of the build: `/assets/…` (content-hashed names) cached for a year as immutable; anything else
 *   (index.html, favicon.svg, …) `no-cache`, so a new build is picked up at once.
 * - Any other GET/HEAD outside the API, the ingress and the operational endpoints that names HTML in Accept gets
 *   index.html: the app routes `/`, `/runs/…`, `/sessions/{sessionId}` (a run's session_link), … itself.
 *   A missing `/assets/…` file, or a request that does not accept HTML, falls through to the 404 problem.
 * - Every answer carries a strict Content-Security-Policy (own origin only, no inline script or style),
 *   no Referer (a URL may carry a session id), no framing and nosniff.
 * - Not built (no index.html): 503 problem naming the build command and the API root.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import type { Settings } from '../settings';
import { serviceUnavailable } from '../problems';
import { REST_BASE_PATH } from './validator';

export const DASHBOARD_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': DASHBOARD_CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Paths the dashboard never answers: the REST API, the ingress and the operational endpoints. */
const NOT_DASHBOARD = /^\/(?:api|webhooks|healthz|readyz|metrics)(?:\/|$)/;
const ASSETS = /^\/assets(?:\/|$)/;

/** Seconds a client is asked to wait before asking again for a dashboard that is not built. */
const NOT_BUILT_RETRY_AFTER_SECONDS = 30;

const setSecurityHeaders = (res: Response): void => {
  res.set(SECURITY_HEADERS);
};

export function dashboard(settings: Pick<Settings, 'dashboardDir' | 'publicBaseUrl'>, log: Logger): RequestHandler {
  const dir = settings.dashboardDir;
  const indexFile = path.join(dir, 'index.html');
  const assetsDir = path.join(dir, 'assets') + path.sep;
  if (!fs.existsSync(indexFile)) {
    log.warn({ dashboard_dir: dir }, 'the dashboard is not built (no index.html): `pnpm build:dashboard` builds it; until then / answers 503');
  }
  const files = express.static(dir, {
    index: false,
    redirect: false,
    cacheControl: false,
    setHeaders: (res, file) => {
      setSecurityHeaders(res);
      res.setHeader('Cache-Control', file.startsWith(assetsDir) ? IMMUTABLE : 'no-cache');
    },
  });

  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_DASHBOARD.test(req.path)) return next();
    files(req, res, (err?: unknown) => {
      if (err) return next(err);
      // Browsers name text/html when they navigate; an API client's `*/*` gets the 404 problem instead.
      if (ASSETS.test(req.path) || !/\btext\/html\b/i.test(req.get('accept') ?? '')) return next();
      // Read on every request (it is small and `no-cache`): a rebuild is served without a restart.
      fs.readFile(indexFile, (readError, html) => {
        if (readError) {
          if ((readError as NodeJS.ErrnoException).code !== 'ENOENT') return next(readError);
          const api = `${settings.publicBaseUrl}${REST_BASE_PATH}`;
          return next(
            serviceUnavailable(
              `The dashboard is not built: run \`pnpm build:dashboard\` (DASHBOARD_DIR ${dir} has no index.html). The REST API is at ${api}.`,
              NOT_BUILT_RETRY_AFTER_SECONDS,
            ),
          );
        }
        setSecurityHeaders(res);
        res.status(200).set('Cache-Control', 'no-cache').type('html').send(html);
      });
    });
  };
}
