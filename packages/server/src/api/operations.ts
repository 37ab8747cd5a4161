/**
 * The contract drives the routes: every REST operation of openapi/v1.yaml is bound to exactly one handler
 * by its operationId (api/handlers.ts), and `operationsRouter` mounts each at the contract's own path and
 * method — no path is written by hand. The types come from the generated `operations`: a handler gets its
 * operation's path parameters, query and body as the validator passes them on (no casts, no conversions), a
 * missing or unknown operationId fails the type check, and a contract operation without a handler fails at
 * start.
 */
import { Router, type RequestHandler } from 'express';
import type { HttpContext } from '../http/context';
import type { operations, queryParametersWithDefaults } from '@agent-runs/contract';
import { loadRestSpec } from '../http/validator';
import { invalidRequest } from '../problems';

/**
 * Operations served outside the REST router: the webhook ingress and the operational endpoints (app.ts);
 * and the outbound notification (the contract's `webhooks`), which subscribers' endpoints serve.
 */
type ServedElsewhere = 'receiveWebhookDelivery' | 'receiveWebhookDeliveryWithToken' | 'getHealth' | 'getReadiness' | 'getMetrics' | 'receiveRunNotification';
export type RestOperationId = Exclude<keyof operations, ServedElsewhere>;

type OperationParameters<K extends RestOperationId> = operations[K]['parameters'];
/** An operation's parameters in one place (`path`, `query`), or none when the contract declares none there. */
type ParametersIn<K extends RestOperationId, In extends 'path' | 'query'> =
  OperationParameters<K> extends { [I in In]?: infer P } ? ([NonNullable<P>] extends [never] ? Record<string, never> : NonNullable<P>) : Record<string, never>;
/** The path parameters, checked by the validator against the contract's patterns (all strings). */
type PathParams<K extends RestOperationId> = ParametersIn<K, 'path'>;
type DefaultedQueryNames<K extends RestOperationId> = K extends keyof queryParametersWithDefaults ? queryParametersWithDefaults[K] : never;
/**
 * The query as the validator leaves it: coerced to the contract's types (numbers, booleans, a single value of
 * an array parameter as a one-element array, a deepObject as an object of strings), date-times still strings,
 * and every parameter with a default present.
 */
export type OperationQuery<K extends RestOperationId> = Omit<ParametersIn<K, 'query'>, DefaultedQueryNames<K>> &
  Required<Pick<ParametersIn<K, 'query'>, Extract<DefaultedQueryNames<K>, keyof ParametersIn<K, 'query'>>>>;
/** The JSON body, already validated against the contract's schema; absent where the contract makes it optional. */
type RequestBody<K extends RestOperationId> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : operations[K] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;

export type OperationRequestHandler<K extends RestOperationId> = RequestHandler<PathParams<K>, unknown, RequestBody<K>, OperationQuery<K>>;
/** Builds operation K's handler from the server context. */
export type OperationHandler<K extends RestOperationId> = (ctx: HttpContext) => OperationRequestHandler<K>;
export type OperationHandlers = { [K in RestOperationId]: OperationHandler<K> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** `/agent/runs/{runId}` → `/agent/runs/:runId`. */
export const expressPath = (contractPath: string): string => contractPath.replace(/\{([^}]+)\}/g, ':$1');

interface QueryParameter {
  name: string;
  style?: string;
}

interface RestOperation {
  method: (typeof METHODS)[number];
  path: string;
  /** The contract's path template (`/agent/runs/{runId}`): a request span's name (telemetry/http-spans.ts). */
  contractPath: string;
  operationId: string;
  query: QueryParameter[];
  /** The contract's `security: []`: called without an API key (a signed URL carries its own credential). */
  public: boolean;
}

/** Every operation of the REST contract with its method, Express path and query parameters, in the contract's order. */
function restOperations(): RestOperation[] {
  const spec = loadRestSpec();
  const shared = (spec.components as { parameters?: Record<string, QueryParameter & { in?: string }> } | undefined)?.parameters ?? {};
  type Parameter = (QueryParameter & { in?: string }) | { $ref: string };
  const resolve = (p: Parameter) => ('$ref' in p ? shared[p.$ref.split('/').pop()!] : p);
  return Object.entries(spec.paths ?? {}).flatMap(([contractPath, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method] as { operationId?: string; parameters?: Parameter[]; security?: unknown[] } | undefined;
      if (!operation?.operationId) return [];
      const parameters = [...((item.parameters as Parameter[] | undefined) ?? []), ...(operation.parameters ?? [])].map(resolve);
      const query = parameters.filter((p): p is QueryParameter & { in: string } => p?.in === 'query');
      const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
      return [{ method, path: expressPath(contractPath), contractPath, operationId: operation.operationId, query, public: isPublic }];
    }),
  );
}

/**
 * The validator cannot tell a `deepObject` parameter's keys (`metadata[ticket]`) from unknown parameters, so
 * it lets every name through for such operations; this refuses, by name, what the contract does not declare
 * (an unknown filter must never be ignored silently).
 */
function unknownQueryGuard(query: QueryParameter[]): RequestHandler | undefined {
  const deep = query.filter((p) => p.style === 'deepObject').map((p) => p.name);
  if (deep.length === 0) return undefined;
  const declared = new Set(query.map((p) => p.name));
  return (req, _res, next) => {
    const raw = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    for (const key of new Set(raw.keys())) {
      const bracket = key.indexOf('[');
      const known = bracket === -1 ? declared.has(key) : deep.includes(key.slice(0, bracket)) && key.endsWith(']');
      if (!known) return next(invalidRequest(`Unknown query parameter '${key}'.`, [{ path: `query.${key}`, message: 'is not a parameter of this operation' }]));
    }
    next();
  };
}

/**
 * `OPTIONS` answers 204 with the methods of the ONE contract path the URL names. Express's own answer
 * merges every route the URL matches, so `/api-keys/current` would also offer `DELETE` from
 * `/api-keys/{keyId}`; as in the OpenAPI path matching rules, a concrete path wins over a templated one.
 */
function allowedMethodsRoutes(router: Router): void {
  const methodsByPath = new Map<string, string[]>();
  for (const { method, path } of restOperations()) methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), method.toUpperCase()]);
  const templatedSegments = (path: string) => path.split('/').filter((segment) => segment.startsWith(':')).length;
  const concreteFirst = [...methodsByPath].sort(([a], [b]) => templatedSegments(a) - templatedSegments(b));
  for (const [path, methods] of concreteFirst) {
    const allow = (methods.includes('GET') ? [...methods, 'HEAD'] : methods).sort().join(', ');
    router.options(path, (_req, res) => {
      res.set('Allow', allow).status(204).end();
    });
  }
}

/** One route per operation of the REST contract, in the contract's order. */
export function operationsRouter(ctx: HttpContext, handlers: OperationHandlers): Router {
  const router = Router();
  const byId = handlers as unknown as Record<string, OperationHandler<RestOperationId>>;
  for (const { method, path, operationId, query } of restOperations()) {
    const handler = byId[operationId];
    if (!handler) throw new Error(`openapi/v1.yaml operation ${operationId} has no handler in api/handlers.ts`);
    const guard = unknownQueryGuard(query);
    router[method](path, ...(guard ? [guard] : []), handler(ctx) as RequestHandler);
  }
  return router;
}

/**
 * Names the operation of each request (`res.locals.operationId`) before anything answers it, so a 401, a
 * validation error or an idempotent replay is counted under its operation like the handler's own answer,
 * and marks the operations the contract lets through without an API key (`res.locals.publicOperation`,
 * read by http/auth.ts). It answers `OPTIONS` first (without this, Express would answer it from these routes).
 */
export function operationNames(): Router {
  const router = Router();
  allowedMethodsRoutes(router);
  for (const { method, path, contractPath, operationId, public: isPublic } of restOperations()) {
    router[method](path, (_req, res, next) => {
      res.locals.operationId = operationId;
      res.locals.routeTemplate = contractPath;
      if (isPublic) res.locals.publicOperation = true;
      next('router');
    });
  }
  return router;
}
