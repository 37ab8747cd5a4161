/**
 * Start-up: settings → database → migrations → bootstrap → run engine → HTTP listener; graceful shutdown
 * on SIGTERM/SIGINT (stop accepting, stop the engine — it finishes or releases its claims — close the DB).
 *
 * `startServer` is the composition root shared by `pnpm start` and the test harness.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { createApp } from './app';
import { bootstrap } from './teams/bootstrap';
import { systemClock, type Clock } from './clock';
import type { ServerContext } from './context';
import { createSecretBox } from './crypto/secret-box';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { startEngine, type Engine, type EngineOptions } from './engine/index';
import { createSandbox } from './engine/sandbox';
import { createExpressServer } from './http/express-server';
import { limitConnectionsPerAddress, listenerOptions } from './http/connection-limits';
import { createLogger } from './logger';
import { createIngressHandler } from './ingress/pipeline';
import { dispatchIngressFirst, isIngressPath } from './ingress/mount';
import { startDeliveryRetention } from './ingress/retention';
import { startRestRetention } from './http/retention';
import { loadSettings, SettingsError, type Settings } from './settings';

export interface StartOptions {
  clock?: Clock;
  log?: Logger;
  /** Validate responses against the contract (tests). */
  validateResponses?: boolean;
  /** Run-engine options (tests: a runner, no sweeper…), or false to start no workers. */
  engine?: false | EngineOptions;
}

export interface RunningServer {
  ctx: ServerContext;
  /** http://host:port of the REST listener (the actual port when PORT=0). */
  url: string;
  port: number;
  /** http://host:port the webhook ingress listens on: `url`, or the INGRESS_PORT listener. */
  ingressUrl: string;
  /** Set when this start created the default team's admin key (print it once). */
  generatedAdminKey?: string;
  /** The run engine of this process (undefined when started without workers). */
  engine: Engine | undefined;
  close(): Promise<void>;
}

export async function startServer(settings: Settings, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(settings);
  const clock = options.clock ?? systemClock;
  const database = await openDatabase(settings, { backgroundCheckpoints: { log } });
  let engine: Engine | undefined;
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) log.info({ migrations: applied }, 'migrations applied');

    const sandbox = createSandbox(settings, log);
    const ctx: ServerContext = {
      settings,
      db: database.db,
      dialect: database.dialect,
      clock,
      log,
      secrets: createSecretBox(settings),
      sandbox,
      notifyRunQueued: () => engine?.notifyRunQueued(),
    };

    const { generatedAdminKey } = await bootstrap(ctx.db, clock, settings.bootstrapAdminKey);
    // The engine warns at start when the echo runner is active.
    if (options.engine !== false) engine = startEngine(ctx, options.engine ?? {});

    const { app, metrics } = createApp(ctx, { validateResponses: options.validateResponses ?? false });

    // --- Webhook ingress (issue 4): a lean node:http handler outside Express. Without INGRESS_PORT it shares
    // the REST listener (paths under /webhooks/ never reach Express); with it, it has its own listener and the
    // REST listener serves no ingress. The delivery-log retention job starts once the listeners are up.
    const ingress = createIngressHandler(ctx, metrics);
    // Every listener gets the header and request timeouts and the per-address cap (http/connection-limits.ts).
    const listener = listenerOptions(settings.connections);
    const ingressServer = settings.ingressPort === undefined ? undefined : http.createServer(listener, ingress);
    const server = ingressServer
      ? createExpressServer(app, app, { server: listener })
      : createExpressServer(app, dispatchIngressFirst(ingress, app), { plainResponse: (req) => isIngressPath(req.url), server: listener });
    for (const s of ingressServer ? [server, ingressServer] : [server]) limitConnectionsPerAddress(s, settings.connections.maxPerAddress);
    // --- end webhook ingress
    // Keep-alive sockets must not hold shutdown hostage; SSE streams are closed explicitly below.
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(settings.port, settings.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
    log.info({ host: settings.host, port, runner: settings.runner, dialect: database.dialect }, 'listening');
    // --- Webhook ingress listener (INGRESS_PORT)
    let ingressUrl = `http://${host}:${port}`;
    if (ingressServer) {
      await new Promise<void>((resolve, reject) => {
        ingressServer.once('error', reject);
        ingressServer.listen(settings.ingressPort, settings.host, () => {
          ingressServer.off('error', reject);
          resolve();
        });
      }).catch((err: unknown) => {
        server.close();
        throw err;
      });
      ingressUrl = `http://${host}:${(ingressServer.address() as AddressInfo).port}`;
      log.info({ host: settings.host, port: (ingressServer.address() as AddressInfo).port }, 'webhook ingress listening');
    }
    const retention = startDeliveryRetention(ctx);
    // --- end webhook ingress listener
    const restRetention = startRestRetention(ctx);

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        log.info('shutting down');
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Webhook ingress: stop its listener and the retention job.
        const ingressStopped = new Promise<void>((resolve) => (ingressServer ? ingressServer.close(() => resolve()) : resolve()));
        ingressServer?.closeIdleConnections();
        await retention.stop();
        await restRetention.stop();
        await engine?.stop();
        // Long-lived responses (SSE) end now; their clients reconnect elsewhere with Last-Event-ID.
        server.closeAllConnections();
        ingressServer?.closeAllConnections();
        await stopped;
        await ingressStopped;
        // Deliveries already handed to a commit land before the database closes (their senders, cut off,
        // retry and find a Duplicate: nothing accepted is lost).
        await ingress.drain();
        await sandbox.close();
        await database.close();
        log.info('stopped');
      })());

    return {
      ctx,
      url: `http://${host}:${port}`,
      port,
      ingressUrl,
      ...(generatedAdminKey ? { generatedAdminKey } : {}),
      engine,
      close,
    };
  } catch (err) {
    await engine?.stop().catch(() => {});
    await database.close();
    throw err;
  }
}

export function printGeneratedAdminKey(key: string): void {
  process.stdout.write(
    [
      '',
      'Created team "default" and its first admin API key. It is shown ONLY THIS ONCE — store it now:',
      '',
      `    ${key}`,
      '',
      'Use it as "Authorization: Bearer <key>" (or AGENT_RUNS_API_KEY for the SDKs and CLI).',
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
  let signalled = false;
  const shutdown = (server: RunningServer) =>
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.ctx.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      process.stderr.write(`second ${signal}: exiting now\n`);
      process.exit(1);
    }
    signalled = true;
    if (running) {
      running.ctx.log.info({ signal }, 'signal received');
      void shutdown(running);
    }
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  running = await startServer(settings);
  if (running.generatedAdminKey) printGeneratedAdminKey(running.generatedAdminKey);
  if (signalled) void shutdown(running);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
