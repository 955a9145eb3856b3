// Helpers for the scale-out and fault tests: real processes (`carhere serve` as a user starts it), a NATS server
// and, for the fault tests, a private PostgreSQL cluster (initdb / pg_ctl) on free ports in temporary folders.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freshPostgresDatabase } from '../testing/harness.ts';
import { freePort } from '../testing/ports.ts';

const repo = resolve(import.meta.dirname, '../../../..');
export const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });
}

/** A NATS server of the test's own (JetStream on, store in a temp folder), restartable on the same port. */
export interface TestNats {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is read from them. `thaw` continues it. */
  freeze(): void;
  thaw(): void;
}

export async function startNats(): Promise<TestNats> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'carhere-nats-'));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
    await until(() => portOpen(port), 15_000, 'nats-server to listen');
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop: async () => {
      (child as ChildProcess | null)?.kill('SIGCONT');
      await stop();
    },
    freeze: () => {
      (child as ChildProcess | null)?.kill('SIGSTOP');
    },
    thaw: () => {
      (child as ChildProcess | null)?.kill('SIGCONT');
    },
  };
}

export const natsAvailable = existsSync(NATS_SERVER);
export const postgresToolsAvailable = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));

/** A fresh database on the PostgreSQL server of DATABASE_URL (the test harness's); dropped by `drop`. */
export const freshDatabase = freshPostgresDatabase;

/** A PostgreSQL cluster of the test's own (initdb in a temp folder, a free port), stoppable and restartable. */
export interface TestPostgres {
  url: string;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPostgres(): Promise<TestPostgres> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'carhere-pg-'));
  const data = join(dir, 'data');
  // PostgreSQL refuses to run as root: as root (CI containers), its tools run as the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, tool), ...args], { stdio: 'ignore' })
      : execFileSync(join(PG_BIN, tool), args, { stdio: 'ignore' });
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const ctl = (args: string[]) => run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), ...args]);
  const start = async () => {
    ctl([
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=32MB -c max_connections=60`,
      '-w',
      'start',
    ]);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: async (mode = 'fast') => {
      ctl(['-m', mode, '-w', 'stop']);
    },
    destroy: async () => {
      try {
        ctl(['-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One `carhere serve` process started the way an operator does it. */
export interface CarhereProcess {
  child: ChildProcess;
  port: number;
  gt06Port: number;
  jt808Port: number;
  baseUrl: string;
  output(): string;
  /** Graceful stop (SIGTERM); resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function startCarhere(
  args: string[],
  env: Record<string, string>,
  ready: {
    path?: string;
    timeoutMs?: number;
    /**
     * Node itself with tsx's loader, as the systemd units of docs/deployment.md run it, so that every signal
     * reaches the server (the tsx command, the default here, relays SIGINT/SIGTERM only and dies of SIGUSR2).
     */
    direct?: boolean;
  } = {},
): Promise<CarhereProcess> {
  const [port, gt06Port, jt808Port] = [await freePort(), await freePort(), await freePort()];
  let out = '';
  const cli = join(repo, 'apps/server/src/cli.ts');
  const [command, commandArgs]: [string, string[]] = ready.direct
    ? [process.execPath, ['--import', 'tsx', cli, 'serve', ...args]]
    : [join(repo, 'node_modules/.bin/tsx'), [cli, 'serve', ...args]];
  const child = spawn(command, commandArgs, {
    cwd: repo,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      GATEWAY_HOST: '127.0.0.1',
      GT06_PORT: String(gt06Port),
      JT808_PORT: String(jt808Port),
      OSMAND_PORT: '0',
      DATA_DIR: join(tmpdir(), `carhere-unused-${randomBytes(4).toString('hex')}`),
      ADMIN_PASSWORD: 'Admin-pass-1',
      DEMO: '0',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const path = ready.path ?? '/api/ready';
  await until(
    async () => {
      if (child.exitCode !== null)
        throw new Error(`carhere serve ${args.join(' ')} exited (${child.exitCode}):\n${out}`);
      try {
        return (await fetch(baseUrl + path)).ok;
      } catch {
        return false;
      }
    },
    ready.timeoutMs ?? 90_000,
    `carhere serve ${args.join(' ')} to answer ${path}:\n${out}`,
  );
  return {
    child,
    port,
    gt06Port,
    jt808Port,
    baseUrl,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs the carhere command line to its end (backup, restore, a refused serve); answers code and output. */
export function runCarhere(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    let out = '';
    const child = spawn(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'apps/server/src/cli.ts'), ...args], {
      cwd: repo,
      env: { ...process.env, DEMO: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.once('exit', (code) => done({ code, output: out }));
  });
}
