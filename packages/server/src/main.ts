/**
 * Start-up: settings → database → migrations → bootstrap → run engine → HTTP listener; graceful shutdown
 * on SIGTERM/SIGINT (stop accepting, stop the engine — it finishes or releases its claims — close the DB).
 * ROLE picks what this process serves (docs/architecture.md §Several processes): `api` the REST API,
 * dashboard and event streams, `ingress` the webhook ingress, `worker` the run engine and the notification
 * delivery workers; every process serves
 * /healthz, /readyz and /metrics. On PostgreSQL, processes serving `api` or `worker` LISTEN for the run
 * notices of the others (runs/signals.ts).
 *
 * `startServer` is the composition root shared by `pnpm start` and the test harness.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import pino, { type Logger } from 'pino';
import { createApp } from './app';
import { MatcherCache } from './automations/matcher-cache';
import { applyBootstrapAdminKey, createFirstAdminKey } from './api-keys/bootstrap';
import { systemClock, type Clock } from './clock';
import { createSecretBox } from './crypto/secret-box';
import { openDatabase } from './db/database';
import { listenForNotifications, type NotificationListener } from './db/notifications';
import { migrateToLatest } from './db/migrate';
import { startEngine, type Engine, type EngineOptions } from './engine/index';
import { ModelCatalog } from './engine/runners/model-list';
import { createImageCache } from './engine/images/cache';
import { createModelGateway, type ModelGateway } from './engine/gateway/gateway';
import { createSandbox } from './engine/sandbox';
import { createExpressServer } from './http/express-server';
import { limitConnectionsPerAddress, listenerOptions } from './http/connection-limits';
import { answerClientErrorsAsProblems } from './http/client-errors';
import { createLogger } from './logger';
import { createIngressHandler } from './ingress/pipeline';
import { dispatchIngressFirst, isIngressPath } from './ingress/mount';
import { startDeliveryRetention } from './ingress/retention';
import { startRestRetention } from './http/retention';
import { startRevokedKeyStreamCloser } from './http/revoked-key-streams';
import { loadSettings, SettingsError, type Settings } from './settings';
import { REST_BASE_PATH } from './http/validator';
import type { HttpContext } from './http/context';
import { EventStreamSlots } from './http/event-stream-slots';
import { startNotificationDelivery, type NotificationDelivery, type NotificationDeliveryOptions } from './notifications/delivery';
import { NotificationOutbox } from './notifications/outbox';
import { startNotificationRetention } from './notifications/retention';
import { startAuditRetention } from './audit/retention';
import { NotificationTargets } from './notifications/target';
import { RUN_NOTICE_CHANNEL, RunSignals } from './runs/signals';
import { WebhookSecretCache } from './webhooks/secret-cache';
import { startTracing } from './telemetry/tracing';

export interface StartOptions {
  clock?: Clock;
  log?: Logger;
  /** Validate responses against the contract (tests). */
  validateResponses?: boolean;
  /** Run-engine options (tests: a runner, no sweeper…), or false to start no workers (as without the worker role). */
  engine?: false | EngineOptions;
  /** Notification delivery options (tests: the jitter), or false to deliver nothing in this process. */
  notificationDelivery?: false | NotificationDeliveryOptions;
}

export interface RunningServer {
  ctx: HttpContext;
  /** http://host:port of the REST listener (the actual port when PORT=0). */
  url: string;
  port: number;
  /** http://host:port the webhook ingress listens on: `url`, or the INGRESS_PORT listener (`url` without the ingress role). */
  ingressUrl: string;
  /** Set when this start created the default team's admin key (print it once). */
  generatedAdminKey?: string;
  /** The run engine of this process (undefined when started without workers). */
  engine: Engine | undefined;
  /** The notification delivery workers of this process (role `worker`; undefined without). */
  notificationDelivery: NotificationDelivery | undefined;
  /** The LISTEN connection for other processes' run notices (PostgreSQL, roles api or worker). */
  notifications: NotificationListener | undefined;
  close(): Promise<void>;
}

export async function startServer(settings: Settings, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(settings);
  const clock = options.clock ?? systemClock;
  // Before anything that makes spans; off (nothing registered) unless OTEL_* names an endpoint.
  const tracing = settings.tracing ? startTracing(settings.tracing) : undefined;
  const database = await openDatabase(settings, { backgroundCheckpoints: { log } });
  const { roles } = settings;
  // What is running so far: a failed start stops it with the same steps as a shutdown, so the caller's error is the whole story.
  const started: Started = { database, tracing, listeners: [], jobs: [] };
  let engine: Engine | undefined;
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) log.info({ migrations: applied }, 'migrations applied');

    const modelGateway = (started.gateway = createModelGateway(settings, log));
    const sandbox = (started.sandbox = createSandbox(settings, log, modelGateway));
    const secrets = createSecretBox(settings);
    // An unreadable NOTIFICATIONS_ALLOWED_HOSTS entry stops the start here, not the first subscription later.
    new NotificationTargets(settings.notifications);
    const runSignals = new RunSignals();
    const ctx: HttpContext = {
      settings,
      db: database.db,
      dialect: database.dialect,
      clock,
      log,
      secrets,
      webhookSecretCache: new WebhookSecretCache(secrets),
      matcherCache: new MatcherCache(),
      modelCatalog: new ModelCatalog(settings, clock, log),
      modelGateway,
      sandbox,
      images: createImageCache(settings),
      runSignals,
      notificationOutbox: new NotificationOutbox(settings, runSignals),
      eventStreamSlots: new EventStreamSlots(settings.connections.sseStreamsPerKey),
      notifyRunQueued: () => engine?.notifyRunQueued(),
      notifyScheduleChanged: () => engine?.notifyScheduleChanged(),
    };

    // The operator's key is ensured before the listener opens, so it works from the first request.
    if (settings.bootstrapAdminKey !== undefined) await applyBootstrapAdminKey(ctx.db, clock, settings.bootstrapAdminKey);
    // Before the engine: runs queued while it starts already wake it.
    if (database.dialect === 'postgres' && (roles.has('api') || roles.has('worker'))) {
      started.notifications = listenForNotifications({
        databaseUrl: settings.databaseUrl,
        channel: RUN_NOTICE_CHANNEL,
        log,
        onNotification: (payload) => ctx.runSignals.receive(payload),
        onListening: () => {
          ctx.runSignals.wakeWorkers();
          ctx.runSignals.wakeNotificationWorkers();
        },
      });
    }
    // The engine warns at start when the echo runner is active.
    if (roles.has('worker') && options.engine !== false) engine = started.engine = startEngine(ctx, options.engine ?? {});
    if (roles.has('worker') && options.notificationDelivery !== false)
      started.notificationDelivery = startNotificationDelivery(ctx, options.notificationDelivery ?? {});

    const { app, metrics } = createApp(ctx, { validateResponses: options.validateResponses ?? false });

    // The webhook ingress is a lean node:http handler outside Express. Without INGRESS_PORT it shares the
    // REST listener (paths under /webhooks/ never reach Express); with it, it has its own listener and the
    // REST listener serves no ingress. The delivery-log retention job starts once the listeners are up.
    // Without the ingress role there is neither (the app answers /webhooks/ with a 404 naming the role).
    const ingress = (started.ingress = roles.has('ingress') ? createIngressHandler(ctx, metrics) : undefined);
    // Every listener gets the header and request timeouts and the per-address cap (http/connection-limits.ts),
    // and answers node:http's own refusals as problems (http/client-errors.ts).
    const listener = listenerOptions(settings.connections);
    const ingressServer = ingress && settings.ingressPort !== undefined ? http.createServer(listener, ingress) : undefined;
    const server =
      ingress && !ingressServer
        ? createExpressServer(app, dispatchIngressFirst(ingress, app), { plainResponse: (req) => isIngressPath(req.url), server: listener })
        : createExpressServer(app, app, { server: listener });
    for (const s of ingressServer ? [server, ingressServer] : [server]) {
      limitConnectionsPerAddress(s, settings.connections.maxPerAddress);
      answerClientErrorsAsProblems(s);
    }
    // Keep-alive sockets must not hold shutdown hostage; SSE streams are closed explicitly below.
    server.keepAliveTimeout = 5_000;
    await listen(server, settings.port, settings.host, 'PORT', roles.has('api') ? 'the REST API' : 'the operational endpoints');
    started.listeners.push(server);
    const { port } = server.address() as AddressInfo;
    const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
    let ingressUrl = `http://${host}:${port}`;
    if (ingressServer) {
      await listen(ingressServer, settings.ingressPort, settings.host, 'INGRESS_PORT', 'the webhook ingress');
      started.listeners.push(ingressServer);
      ingressUrl = `http://${host}:${(ingressServer.address() as AddressInfo).port}`;
    }
    // Logged once every listener is up, with URLs a terminal makes clickable (a wildcard HOST as loopback).
    const url = `http://${browsableHost(settings.host)}:${port}`;
    log.info(
      {
        host: settings.host,
        port,
        url,
        roles: [...roles],
        ...(roles.has('api') ? { api_url: `${url}${REST_BASE_PATH}`, dashboard_url: `${url}/` } : {}),
        runner: settings.runner,
        dialect: database.dialect,
      },
      'listening',
    );
    if (ingressServer) {
      const ingressPort = (ingressServer.address() as AddressInfo).port;
      log.info({ host: settings.host, port: ingressPort, url: `http://${browsableHost(settings.host)}:${ingressPort}/webhooks/` }, 'webhook ingress listening');
    }
    // Only now: a start that could not listen must not have created a key it never shows (api-keys/bootstrap.ts).
    // The key is for the REST API: a process that does not serve it shows none.
    const generatedAdminKey = settings.bootstrapAdminKey === undefined && roles.has('api') ? await createFirstAdminKey(ctx.db, clock) : undefined;
    if (ingress) started.jobs.push(startDeliveryRetention(ctx));
    if (roles.has('api')) started.jobs.push(startRestRetention(ctx), startAuditRetention(ctx), startRevokedKeyStreamCloser(ctx));
    if (roles.has('worker')) started.jobs.push(startNotificationRetention(ctx));

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        log.info('shutting down');
        await runStopSteps(started, (err, step) => log.warn({ err, step }, 'a stop step failed at shutdown'));
        log.info('stopped');
      })());

    return {
      ctx,
      url: `http://${host}:${port}`,
      port,
      ingressUrl,
      ...(generatedAdminKey ? { generatedAdminKey } : {}),
      engine,
      notificationDelivery: started.notificationDelivery,
      notifications: started.notifications,
      close,
    };
  } catch (err) {
    await runStopSteps(started, () => {});
    throw err;
  }
}

/** What a start has started so far; `runStopSteps` stops what is set. */
interface Started {
  database: { close(): Promise<void> };
  tracing: { shutdown(): Promise<void> } | undefined;
  listeners: http.Server[];
  /** The periodic jobs (retention, revoked keys' streams), stopped in the order they started. */
  jobs: Array<{ stop(): Promise<void> }>;
  gateway?: ModelGateway;
  sandbox?: ReturnType<typeof createSandbox>;
  notifications?: NotificationListener;
  engine?: Engine;
  notificationDelivery?: NotificationDelivery;
  ingress?: { drain(): Promise<void> } | undefined;
}

/**
 * The one list of stop steps, for a shutdown and for a start that failed half-way: every step runs (a failed
 * one is handed to `failed`), in this order: stop accepting, stop the work, end the open responses, let
 * the deliveries already handed to a commit land, close the sandbox, gateway and database, export the spans.
 */
async function runStopSteps(started: Started, failed: (err: unknown, step: string) => void): Promise<void> {
  let listenersClosed: Array<Promise<void>> = [];
  const steps: Array<[string, () => unknown]> = [
    [
      'stop accepting',
      () => {
        listenersClosed = started.listeners.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
        for (const s of started.listeners) s.closeIdleConnections();
      },
    ],
    ...started.jobs.map((job): [string, () => unknown] => ['periodic job', () => job.stop()]),
    ['engine', () => started.engine?.stop()],
    ['notification delivery', () => started.notificationDelivery?.stop()],
    ['run notices', () => started.notifications?.stop()],
    [
      // Long-lived responses (SSE) end now; their clients reconnect elsewhere with Last-Event-ID.
      'open responses',
      async () => {
        for (const s of started.listeners) s.closeAllConnections();
        await Promise.all(listenersClosed);
      },
    ],
    // Deliveries already handed to a commit land before the database closes (their senders, cut off, retry
    // and find a Duplicate: nothing accepted is lost).
    ['webhook ingress', () => started.ingress?.drain()],
    ['sandbox', () => started.sandbox?.close()],
    ['model gateway', () => started.gateway?.close()],
    ['database', () => started.database.close()],
    // Last: the spans of everything that stopped above are exported.
    ['traces', () => started.tracing?.shutdown()],
  ];
  for (const [step, stop] of steps) {
    try {
      await stop();
    } catch (err) {
      failed(err, step);
    }
  }
}

/** A listener that could not open, its message naming the setting to change (main prints it alone, no stack). */
export class ListenError extends Error {}

function listen(server: http.Server, port: number | undefined, host: string, portSetting: 'PORT' | 'INGRESS_PORT', what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(listenError(err, port ?? 0, host, portSetting, what));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function listenError(err: NodeJS.ErrnoException, port: number, host: string, portSetting: string, what: string): Error {
  const options = { cause: err };
  switch (err.code) {
    case 'EADDRINUSE':
      return new ListenError(
        `${what} cannot listen on ${host}:${port}: the port is already in use. Set ${portSetting} to a free port (or stop the process using it).`,
        options,
      );
    case 'EACCES':
      return new ListenError(`${what} may not listen on port ${port} (ports below 1024 need privileges). Set ${portSetting} to 1024 or above.`, options);
    case 'EADDRNOTAVAIL':
      return new ListenError(
        `${what} cannot listen on ${host}: not an address of this machine. Set HOST to one (127.0.0.1, or 0.0.0.0 for every interface).`,
        options,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ListenError(`${what} cannot listen on ${host}: the name does not resolve. Set HOST to an address of this machine (e.g. 127.0.0.1).`, options);
    default:
      return err;
  }
}

/** The host to put in a URL a browser opens: a wildcard bind address is reached through loopback. */
function browsableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export function printGeneratedAdminKey(key: string, apiUrl?: string, write: (text: string) => void = (text) => process.stdout.write(text)): void {
  write(
    [
      '',
      'Created team "default" and its first admin API key. It is shown ONLY THIS ONCE — store it now:',
      '',
      `    ${key}`,
      '',
      'Use it as "Authorization: Bearer <key>" (or AGENT_RUNS_API_KEY for the SDKs and CLI).',
      // The key appears once only (also for log scrapers): the example names it as <key>.
      ...(apiUrl ? [`Try it:  curl -H "Authorization: Bearer <key>" ${apiUrl}/agent/runs`] : []),
      '',
    ].join('\n') + '\n',
  );
}

async function main(): Promise<void> {
  let settings: Settings;
  try {
    settings = loadSettings();
  } catch (err) {
    if (err instanceof SettingsError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // Handlers go in before start-up so a signal during start-up still shuts down cleanly.
  let running: RunningServer | undefined;
  let stopRequested = false;
  let signals = 0;
  const shutdown = (server: RunningServer) =>
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.ctx.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  const stop = (why: Record<string, unknown>, message: string) => {
    if (stopRequested) return;
    stopRequested = true;
    if (running) {
      running.ctx.log.info(why, message);
      void shutdown(running);
    }
  };
  // A second signal ends the process at once. Only signals count: a group's SIGTERM reaches this process and
  // `pnpm start` both, so the stop request from the parent may come first (docs/decisions.md §Production build).
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      process.stderr.write(`second ${signal}: exiting now\n`);
      process.exit(1);
    }
    stop({ signal }, 'signal received');
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Started by `pnpm start` (scripts/start.mjs): its IPC channel closing is a stop request — it was asked to
  // stop, or it died — and never counts as a signal.
  if (process.connected) {
    process.channel?.unref();
    process.once('disconnect', () => stop({}, 'stop requested by the parent process'));
  }

  running = await startServer(settings);
  const { generatedAdminKey, ctx } = running;
  if (generatedAdminKey) {
    // pino writes stdout asynchronously: written through its stream, the key follows the `listening` line.
    const logStream = (ctx.log as unknown as Record<symbol, { write?: (text: string) => void } | undefined>)[pino.symbols.streamSym];
    printGeneratedAdminKey(
      generatedAdminKey,
      `http://${browsableHost(settings.host)}:${running.port}${REST_BASE_PATH}`,
      logStream?.write ? (text) => logStream.write!(text) : undefined,
    );
  }
  if (stopRequested) void shutdown(running);
}

/** The server process (`pnpm start`, `agent-runs-server`): exits 1 with the reason when it cannot start. */
export function runServer(): void {
  main().catch((err: unknown) => {
    process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

// Run as a program (`tsx src/main.ts`, `node dist/main.js`), not when imported (tests, bin/agent-runs-server.mjs).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runServer();
