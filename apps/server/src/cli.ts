// The `carhere` command line: `npm run carhere -- <command>` (serve, decode, simulate, stats).
import { loadConfig } from './config.ts';

const usage = `usage: carhere <command>
  serve                                   run the platform (HTTP API, web app, device gateway)
  decode --protocol gt06|jt808            decode hex frames from stdin, one JSON object per line
  simulate --protocol gt06|jt808 --devices N --interval S --host H --port P
                                          drive simulated trackers over TCP
  stats rebuild [--from D] [--to D]       recompute the daily statistics rows (D: YYYY-MM-DD or ISO-8601)
  spec-coverage [--missing]               check docs/spec-coverage.md names every route and API operation`;

async function serve(): Promise<void> {
  const config = loadConfig();
  const { startServer } = await import('./main.ts');
  const { serveComponents } = await import('./components.ts');
  const running = await startServer(config, { logger: process.env.LOG_HTTP === '1', components: serveComponents });
  const shown = running.url.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  console.log(
    `Carhere is running at ${shown}  (database: ${running.ctx.dbHandle.kind}${running.ctx.dbHandle.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`,
  );
  console.log(`  API docs: ${shown}/api/docs`);
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
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping Carhere…`);
    await running.stop();
    console.log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      await serve();
      return -1;
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
