/**
 * The Express application: request span (when tracing, telemetry/http-spans.ts) → request id → metrics and request log → operational endpoints → REST under
 * /api/v1 (authenticate → JSON body and its depth → OpenAPI validation → role check → idempotency →
 * the contract's operations, api/handlers.ts) → the dashboard's files and pages (http/dashboard.ts) → 404
 * naming the API root → problem errors.
 *
 * A process without the `api` role (ROLE, docs/architecture.md §Several processes) serves only the
 * operational endpoints: the REST API and the dashboard answer 404 problems naming the role that serves
 * them (as does the webhook ingress where it reaches the app: a process without the `ingress` role).
 */
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ServerContext } from './context';
import type { HttpContext } from './http/context';
import { handlers } from './api/handlers';
import { operationNames, operationsRouter } from './api/operations';
import { pingDatabase } from './db/database';
import { toCount } from './db/dialect';
import { isFullyMigrated } from './db/migrate';
import { authenticate, authorize } from './http/auth';
import { dashboard } from './http/dashboard';
import { idempotency } from './http/idempotency';
import { bodyDepthLimit } from './http/json-depth';
import { refuseNulCharacters } from './http/nul-characters';
import { ServerMetrics } from './http/metrics';
import { notFoundHandler, problemErrorHandler } from './http/problem';
import { restRateLimit } from './http/rate-limit';
import { metricsAccess } from './http/metrics-access';
import { refuseUndecodablePath } from './http/path-encoding';
import { trustedProxies } from './http/client-address';
import { requestId } from './http/request-id';
import { traceRequests } from './telemetry/http-spans';
import { openApiValidator, REST_BASE_PATH } from './http/validator';
import { INGRESS_PATH_PREFIX } from './ingress/mount';
import { methodNotAllowed, resourceNotFound } from './problems';
import type { ProcessRole } from './settings';

export interface AppOptions {
  /** Validate every response against the contract (tests): a breaking response becomes a 500. */
  validateResponses?: boolean;
}

export interface AppHandle {
  app: Express;
  metrics: ServerMetrics;
}

export function createApp(ctx: HttpContext, options: AppOptions = {}): AppHandle {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // req.ip names the same sender as the ingress does (http/client-address.ts).
  app.set('trust proxy', trustedProxies(ctx.settings.trustProxy));

  const { roles } = ctx.settings;
  const metrics = new ServerMetrics(() => runsByStateServiceWide(ctx), roles);

  if (ctx.settings.tracing) app.use(traceRequests(REST_BASE_PATH));
  app.use(requestId(ctx.log));
  app.use(metrics.middleware());
  app.use(requestLog(ctx.log));
  app.use(refuseUndecodablePath());

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await readinessChecks(ctx);
    const ready = Object.values(checks).every((c) => c === 'ok');
    if (!ready) res.setHeader('Retry-After', '5');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', roles: [...roles], checks, sandbox: ctx.sandbox.status });
  });
  app.get('/metrics', metricsAccess(ctx.settings.metricsToken), async (_req, res) => {
    const { contentType, body } = await metrics.render();
    res.set('content-type', contentType).send(body);
  });
  // Any other method on an operational endpoint is a 405 naming the allowed ones, as on the REST paths.
  app.all(['/healthz', '/readyz', '/metrics'], (req, res, next) => {
    if (req.method === 'OPTIONS') return void res.set('Allow', 'GET, HEAD').status(204).end();
    next(methodNotAllowed('Only GET and HEAD are allowed on this path.', ['GET', 'HEAD']));
  });

  if (!roles.has('ingress')) app.use(INGRESS_PATH_PREFIX, roleNotServed(ctx, 'ingress', 'the webhook ingress'));
  if (!roles.has('api')) {
    app.use(roleNotServed(ctx, 'api', 'the REST API and the dashboard'));
  } else {
    app.use(REST_BASE_PATH, restApi(ctx, options));
    // The web dashboard at the host root, a run's session_link included.
    app.use(dashboard(ctx.settings, ctx.log));
  }

  app.use(notFoundHandler(() => `${ctx.settings.publicBaseUrl}${REST_BASE_PATH}`));
  app.use(problemErrorHandler(ctx.log));
  return { app, metrics };
}

function restApi(ctx: HttpContext, options: AppOptions): express.Router {
  const api = express.Router();
  api.use(operationNames());
  api.use(authenticate(ctx));
  api.use(restRateLimit(ctx));
  api.use(express.json({ limit: ctx.settings.limits.restMaxBodyBytes }));
  api.use(bodyDepthLimit);
  api.use(refuseNulCharacters);
  api.use(openApiValidator({ validateResponses: options.validateResponses ?? false }));
  // The role check comes before idempotency: a replay must never hand an admin's answer to a member.
  api.use(authorize);
  api.use(idempotency(ctx));
  api.use(operationsRouter(ctx, handlers));
  return api;
}

/** Every request here belongs to a role this process does not serve: a 404 problem saying so. */
function roleNotServed(ctx: ServerContext, role: ProcessRole, what: string): RequestHandler {
  const served = [...ctx.settings.roles].join(',');
  return (req, _res, next) =>
    next(
      resourceNotFound(
        `No route for ${req.method} ${req.originalUrl.split('?')[0]}: this process serves ROLE=${served}; ${what} is served by processes with the ${role} role.`,
      ),
    );
}

/** Probes a load balancer or supervisor sends every few seconds: their lines would drown the others. */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** One JSON log line per request (no headers or bodies: they may hold credentials); probes at debug. */
function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : PROBE_PATHS.has(req.path) ? 'debug' : 'info';
      // Below the configured level the line is not written: then the request's logger is not even made.
      if (!log.isLevelEnabled(level)) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      req.log[level]({ method: req.method, path: req.path, status: res.statusCode, duration_ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

type Check = 'ok' | 'failing';

async function readinessChecks(ctx: ServerContext): Promise<{ database: Check; migrations: Check; secrets_key: Check }> {
  let database: Check = 'failing';
  let migrations: Check = 'failing';
  try {
    await pingDatabase(ctx.db);
    database = 'ok';
    migrations = (await isFullyMigrated(ctx.db)) ? 'ok' : 'failing';
  } catch (err) {
    ctx.log.warn({ err }, 'readiness check failed');
  }
  let secrets_key: Check = 'failing';
  try {
    secrets_key = ctx.secrets.decrypt(ctx.secrets.encrypt('ready')) === 'ready' ? 'ok' : 'failing';
  } catch {
    secrets_key = 'failing';
  }
  return { database, migrations, secrets_key };
}

/** Service-wide gauge (not tenant data: counts only). */
async function runsByStateServiceWide(ctx: ServerContext): Promise<Array<{ state: string; count: number }>> {
  const rows = await ctx.db
    .selectFrom('runs')
    .select(['state', (eb) => eb.fn.countAll().as('n')])
    .groupBy('state')
    .execute();
  return rows.map((r) => ({ state: r.state, count: toCount(r.n) }));
}
