// The `carhere` command line: `npm run carhere -- <command>` (serve, decode, simulate, stats).
import { loadConfig } from './config.ts';
import type { Running } from './main.ts';
import type { WorkerPool } from './ops/cluster.ts';
import { checkRoles, parseServeArgs } from './roles.ts';

const usage = `usage: carhere <command>
  serve [--only gateway|api|all]          run the platform (HTTP API, web app, device gateway), or one role of it
  backup FILE                             write the embedded database (PGlite) to FILE (a .tar.gz; its key to FILE.key)
  restore FILE                            replace the embedded database with a backup (the server must be stopped)
  decode --protocol gt06|jt808            decode hex frames from stdin, one JSON object per line
  simulate --protocol gt06|jt808 --devices N --interval S --host H --port P
                                          drive simulated trackers over TCP
  stats rebuild [--from D] [--to D]       recompute the daily statistics rows (D: YYYY-MM-DD or ISO-8601)
  spec-coverage [--missing]               check docs/spec-coverage.md names every route and API operation`;

/** SIGUSR2 before the server is up: Node's default would end the process; the level is left as it is. */
const usr2WhileStarting = () => console.log('SIGUSR2: still starting; log level unchanged');

async function serve(args: string[]): Promise<void> {
  process.on('SIGUSR2', usr2WhileStarting);
  const config = loadConfig();
  const { role } = parseServeArgs(args);
  checkRoles(config, role);
  const { startServer } = await import('./main.ts');
  const cluster = await import('./ops/cluster.ts');
  const logger = process.env.LOG_HTTP === '1';
  if (cluster.isGatewayWorker()) {
    // A gateway worker: the gateway only; the primary migrated the database and answers HTTP for the machine.
    const { gatewayStarter } = await import('./gateway/component.ts');
    cluster.answerMetricsRequests();
    const running = await startServer(config, {
      role: 'gateway',
      listen: false,
      logger,
      prepareDatabase: false,
      components: [gatewayStarter],
    });
    handleSignals(running, config.shutdownTimeoutMs, config.logLevel, null);
    return;
  }
  const split = role !== 'all' || config.gatewayWorkers > 0;
  const { serveComponents } = await import('./components.ts');
  const { gatewayStarter } = await import('./gateway/component.ts');
  const { registry } = await import('./ops/metrics.ts');
  const withWorkers = config.gatewayWorkers > 0;
  let pool: WorkerPool | null = null;
  const running = await startServer(config, {
    // With gateway workers the primary runs the rest of its role; the workers hold the device ports.
    role: withWorkers ? (role === 'all' ? 'api' : 'gateway') : role,
    logger,
    // The demo fleet drives trackers against this process's own gateway: one-process installations only.
    components: withWorkers ? [] : split ? [gatewayStarter] : serveComponents,
    metrics: withWorkers ? () => (pool ? pool.metrics() : registry.metrics()) : undefined,
  });
  // The workers start once the primary has migrated the database (they do not migrate themselves).
  if (withWorkers) pool = cluster.startWorkerPool(config.gatewayWorkers, (line) => console.log(line));
  const shown = running.url.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  const roleText = role === 'all' ? '' : `, role: ${role}`;
  const workersText = pool ? `, ${config.gatewayWorkers} gateway workers` : '';
  console.log(
    `Carhere is running at ${shown}  (database: ${running.ctx.dbHandle.kind}${running.ctx.dbHandle.kind === 'pglite' ? ` in ${config.dataDir}` : ''}${roleText}${workersText})`,
  );
  if (pool) {
    console.log(
      `  Device gateway: ${config.gatewayWorkers} workers sharing GT06 port ${config.gt06Port} and JT/T 808 port ${config.jt808Port}`,
    );
  }
  if (role !== 'gateway') console.log(`  API docs: ${shown}/api/docs`);
  if (running.seed.created) {
    console.log('  First run: accounts created');
    if (running.seed.adminPasswordGenerated) {
      console.log(
        `    admin / ${running.seed.adminPassword}   (generated; shown only this once — set ADMIN_PASSWORD to choose it)`,
      );
    } else {
      console.log('    admin / (the password from ADMIN_PASSWORD)');
    }
    console.log('    demo  (the login page\'s "try it out" button)');
  } else {
    console.log('  Accounts: admin, demo (existing data reused)');
  }
  handleSignals(running, config.shutdownTimeoutMs, config.logLevel, pool);
}

/**
 * SIGINT / SIGTERM: graceful stop (readiness goes 503, the gateway stops accepting, writes and ACKs what is in
 * flight, closes the device sockets), bounded by SHUTDOWN_TIMEOUT_SECONDS. SIGUSR2: log level switches between
 * LOG_LEVEL and debug (and back), in the workers too.
 */
function handleSignals(running: Running, timeoutMs: number, level: string, pool: WorkerPool | null): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping Carhere…`);
    const deadline = setTimeout(() => {
      console.error(`not stopped within ${timeoutMs / 1000} s: exiting anyway`);
      process.exit(1);
    }, timeoutMs + 5000);
    deadline.unref();
    if (pool) await pool.stop(timeoutMs);
    await running.stop();
    console.log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.off('SIGUSR2', usr2WhileStarting);
  process.on('SIGUSR2', () => {
    const next = running.app.log.level === 'debug' ? level : 'debug';
    running.app.log.level = next;
    console.log(`log level: ${next}`);
    for (const w of pool?.workers() ?? []) w.process.kill('SIGUSR2');
  });
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      await serve(rest);
      return -1;
    case 'backup':
    case 'restore': {
      const { runBackupCli } = await import('./cli/backup.ts');
      return runBackupCli(command, rest);
    }
    case 'decode': {
      const { runDecodeCli } = await import('./cli/decode.ts');
      return runDecodeCli(rest, process.stdin, process.stdout);
    }
    case 'simulate': {
      const { runSimulateCli } = await import('./cli/simulate.ts');
      return runSimulateCli(rest);
    }
    case 'stats': {
      const { runStatsCli } = await import('./cli/stats.ts');
      return runStatsCli(rest);
    }
    case 'spec-coverage': {
      const { runSpecCoverageCli } = await import('./cli/specCoverage.ts');
      return runSpecCoverageCli(rest);
    }
    default:
      console.error(usage);
      return command ? 2 : 0;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
