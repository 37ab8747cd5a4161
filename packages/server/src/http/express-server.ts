/**
 * The node:http server for the Express app, with requests and responses created as Express's own
 * (`app.request` / `app.response`) instead of plain IncomingMessage / ServerResponse.
 *
 * Why: Express 5's `app.handle` calls `Object.setPrototypeOf` on every req and res to give them its
 * methods, and changing an object's prototype after it was made sends V8 down slow paths. Measured on a
 * bare Express `GET /healthz` (10 connections): about half of what a request allocated survived young
 * garbage collections (scavenges of 3–7 ms, an old space filling up with garbage until a full collection).
 * Born with the prototype Express sets, the objects make that call a no-op (same prototype): 5,000 →
 * 18,000 requests/s, survival 50 % → 0.1 %, scavenges 0.3 ms (expressjs/express#5998). On the runs list
 * survival fell from 12 % to 2.5 %.
 * The app only uses Routers (no mounted sub-apps, which would set their own prototypes per request).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

// IncomingMessage and ServerResponse are plain constructor functions in Node, applied to `this` below: a
// `Reflect.construct(base, args, newTarget)` instead made every request several times slower (V8 builds
// such objects on a slow path).
const initialiseRequest = http.IncomingMessage as unknown as (this: object, socket: Socket) => void;
const initialiseResponse = http.ServerResponse as unknown as (this: object, req: http.IncomingMessage, options?: object) => void;
/** node:http passes ServerResponse an options argument its type declarations leave out. */
const PlainResponse = http.ServerResponse as unknown as new (req: http.IncomingMessage, options?: object) => http.ServerResponse;

export interface ExpressServerOptions {
  /**
   * Requests answered outside Express (the webhook ingress on a shared listener): their responses stay
   * plain ServerResponses. node:http serves a response with Express's deeper prototype chain ~15 µs slower,
   * which only pays off when Express would otherwise change the prototype itself.
   */
  plainResponse?: (req: http.IncomingMessage) => boolean;
  /** Further node:http server options (timeouts: http/connection-limits.ts). */
  server?: http.ServerOptions;
}

/**
 * A server that passes every request to `listener` (the app, or something in front of it such as the
 * ingress dispatcher); its req / res are created as the app's Express request / response.
 */
export function createExpressServer(app: Express, listener: http.RequestListener = app, options: ExpressServerOptions = {}): http.Server {
  function ExpressRequest(this: object, socket: Socket): void {
    initialiseRequest.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: object, req: http.IncomingMessage, responseOptions?: object): http.ServerResponse | undefined {
    // A constructor that returns an object gives `new` that object instead of `this`.
    if (options.plainResponse?.(req)) return new PlainResponse(req, responseOptions);
    initialiseResponse.call(this, req, responseOptions);
    return undefined;
  }
  ExpressResponse.prototype = app.response;
  return http.createServer(
    {
      ...options.server,
      IncomingMessage: ExpressRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof http.ServerResponse,
    },
    listener,
  );
}
