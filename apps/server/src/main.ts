// Composition root: config → database (+ migrations, first-run seed) → bus → HTTP API + web (+ gateway).
import { dirname, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createBus } from './bus/index.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/connection.ts';
import { migrate } from './db/migrate.ts';
import { type SeedResult, seedFirstRun } from './db/seed.ts';
import { buildApp } from './http/app.ts';
import type { App } from './http/types.ts';
import { startJobQueue } from './jobs/queue.ts';
import { sealClearTotpSecrets } from './modules/auth/totpSecrets.ts';
import { routeModules } from './modules/index.ts';
import { startLogCleanup } from './modules/logs/cleanup.ts';
import { SystemLog } from './modules/logs/systemLog.ts';
import { startMaintenanceChecks } from './modules/maintenance/store.ts';
import { warmPlaces } from './modules/map/offline/places.ts';
import { nbRoutes } from './modules/nb/routes.ts';
import { registerStatJobs } from './modules/stat/jobs.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { startTrackSegments } from './modules/track/jobs.ts';
import { startRetention } from './ops/retention.ts';
import { partsOf, type Role } from './roles.ts';
import { loadSecretKey } from './security/secretBox.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** A gateway-only process answers health, readiness (and /metrics) and takes the NB-IoT push callbacks. */
const gatewayOnlyModules = [systemRoutes, nbRoutes];
export const defaultWebDist = resolve(here, '../../web/dist');

/** Long-running parts an area starts beside the HTTP server (gateway listeners, demo fleet, …). */
export interface Component {
  name: string;
  stop(): Promise<void>;
}

export type ComponentStarter = (ctx: AppContext, app: App) => Promise<Component | null>;

export interface Running {
  app: App;
  ctx: AppContext;
  seed: SeedResult;
  url: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  listen?: boolean;
  logger?: boolean;
  /** Extra components (gateway, demo fleet); started after the HTTP server. */
  components?: ComponentStarter[];
  /**
   * What this process runs (roles.ts): 'all' (default), 'api' (HTTP API, web app, live WebSocket, background
   * jobs; no gateway), 'gateway' (the gateway; its HTTP server answers only health, readiness, metrics and the
   * NB-IoT push callbacks; it queues background jobs but runs none).
   */
  role?: Role;
  /** Apply migrations and the first-run seed (default true; gateway workers leave it to their primary). */
  prepareDatabase?: boolean;
  /** The text GET /metrics answers (a cluster primary adds its workers' figures). */
  metrics?: () => Promise<string>;
  /** An in-memory PGlite starts from this data-directory snapshot (db/connection.ts; test servers). */
  databaseSnapshot?: Blob;
}

export async function startServer(config: Config, opts: StartOptions = {}): Promise<Running> {
  const role = opts.role ?? 'all';
  const parts = partsOf(role);
  const dbHandle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    snapshot: opts.databaseSnapshot,
  });
  if (opts.prepareDatabase !== false) await migrate(dbHandle.pool);
  // The key that seals secrets at rest (TOTP secrets, network credentials): SECRET_KEY, DATA_DIR/secret.key or
  // the database; see security/secretBox.ts.
  await loadSecretKey({
    secretKey: config.secretKey,
    dataDir: config.dataDir,
    kind: dbHandle.kind,
    pool: dbHandle.pool,
    warn: opts.logger ? (m) => console.warn(`warning: ${m}`) : undefined,
  });
  // Two-factor secrets stored in clear by earlier versions are sealed now.
  await sealClearTotpSecrets(dbHandle.db);
  const seed =
    opts.prepareDatabase !== false
      ? await seedFirstRun(dbHandle.db, config.adminPassword)
      : { created: false, adminPasswordGenerated: false, adminPassword: '' };
  const bus = await createBus(config.busUrl, undefined, config.busPrefix);
  const lifecycle = { draining: false };
  const ctx: AppContext = { config, db: dbHandle.db, dbHandle, bus, services: { lifecycle } };
  // Server warnings and errors are kept for the factory's system log (log/monitor).
  const systemLog = new SystemLog(dbHandle.db);
  ctx.services.systemLog = systemLog;
  const jobs = await startJobQueue(
    dbHandle.pool,
    (err) => {
      if (opts.logger) console.error('jobs:', err instanceof Error ? err.message : err);
    },
    { supervise: parts.jobWorkers },
  );
  ctx.services.jobs = jobs;
  // Background work runs in the API processes only (exports write files the API serves); the queue hands each
  // job to one worker whatever the number of processes, and periodic requests share one singleton slot.
  if (parts.jobWorkers) await registerStatJobs(ctx, jobs);
  const app = await buildApp(ctx, {
    modules: parts.api ? routeModules : gatewayOnlyModules,
    webDist: parts.api ? (config.webDist ?? defaultWebDist) : undefined,
    // With console logging off (LOG_HTTP unset) the logger still runs at level warn into a sink, so that the
    // server's warnings reach the system log whatever is printed.
    logger: opts.logger
      ? { level: config.logLevel, hooks: { logMethod: systemLog.pinoHook() } }
      : { level: 'warn', hooks: { logMethod: systemLog.pinoHook() }, stream: nullSink() },
    metrics: opts.metrics,
  });
  // Log retention: the hourly cleanup job that keeps every log bounded; position and alarm retention daily.
  const background: (() => void)[] = [];
  if (parts.jobWorkers) {
    background.push(await startLogCleanup(ctx, jobs, (err) => app.log.error({ err }, 'log cleanup failed')));
    background.push(await startRetention(ctx, jobs, (err) => app.log.error({ err }, 'retention failed')));
    // Maintenance reminders (issue 18): the check that publishes `maintenance` once per item falling due.
    background.push(
      await startMaintenanceChecks(ctx, jobs, (err) => app.log.error({ err }, 'maintenance check failed')),
    );
    background.push(await startTrackSegments(ctx, jobs, (err) => app.log.error({ err }, 'track segments failed')));
  }
  let url = '';
  if (opts.listen !== false) {
    url = await app.listen({ port: config.port, host: config.host });
  }
  if (opts.listen !== false && parts.api) {
    // The offline place index (addresses without a geocoding key) is built in a worker thread now, so
    // the first address a user asks for does not wait for it.
    warmPlaces().then(
      (p) => app.log.info(`offline place index: ${p.size} places in ${Math.round(p.loadMs)} ms`),
      (err) => app.log.warn({ err }, 'offline place index could not be built; addresses fall back to coordinates'),
    );
  }
  const components: Component[] = [];
  for (const start of parts.gateway ? (opts.components ?? []) : []) {
    const c = await start(ctx, app);
    if (c) components.push(c);
  }
  let stopped = false;
  return {
    app,
    ctx,
    seed,
    url,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      // Draining: /api/ready answers 503 from now on, so a load balancer sends new work elsewhere.
      lifecycle.draining = true;
      for (const c of components.reverse()) await c.stop();
      for (const stop of background) stop();
      await app.close();
      await systemLog.close();
      await jobs.stop();
      await bus.close();
      await dbHandle.close();
    },
  };
}

/** Where the logger writes when console logging is off: nowhere (the system log hook has seen the entry). */
function nullSink(): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
}
