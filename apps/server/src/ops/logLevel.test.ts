// Log level at run time: `kill -USR2 <pid>` switches a running `carhere serve` between LOG_LEVEL and debug, and a
// second signal switches it back. The process runs as an operator starts it (structured JSON logs on, LOG_LEVEL
// warn); the test reads its log lines: requests are logged at info, so they appear only while debug is on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CarhereProcess, freshDatabase, startCarhere } from './test-support.ts';

let server: CarhereProcess;
let cleanup: () => Promise<void> = async () => {};

// On DATABASE_URL's server (a fresh database) when there is one, else the embedded database in a temp folder
// (a process of its own migrates it: slow on a loaded machine, hence the long start).
beforeAll(async () => {
  const env: Record<string, string> = { BUS_URL: '', LOG_HTTP: '1', LOG_LEVEL: 'warn' };
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const db = await freshDatabase(baseUrl);
    env.DATABASE_URL = db.url;
    cleanup = db.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'carhere-loglevel-'));
    Object.assign(env, { DATABASE_URL: '', DATA_DIR: dir });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  server = await startCarhere([], env, { timeoutMs: 280_000, direct: true });
  // The signal handlers are set once the start is over (the process answers /api/ready a moment before).
  await waitFor(() => server.output().includes('Carhere is running'), 'the end of the start');
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await cleanup();
});

/** The JSON log lines (pino) the process printed so far. */
function logLines(): { level: number; msg?: string; reqId?: string; req?: { url?: string } }[] {
  return server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** Lines about one request (Fastify logs "incoming request" and "request completed" at info, level 30). */
function linesOf(marker: string) {
  return logLines().filter((l) => l.req?.url?.includes(marker));
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function toggle(expected: string): Promise<void> {
  const before = server.output().split(`log level: ${expected}`).length;
  server.child.kill('SIGUSR2');
  await waitFor(() => server.output().split(`log level: ${expected}`).length > before, `log level: ${expected}`);
}

describe('SIGUSR2 log level toggle', () => {
  it('switches warn → debug → warn; info lines appear only while debug is on', { timeout: 180_000 }, async () => {
    // A request, and a later one as a fence: once the later one's answer is back, the earlier one's log line
    // would have been written had the level let it through (pino writes synchronously to stdout).
    const request = async (marker: string) => {
      expect((await fetch(`${server.baseUrl}/api/health?m=${marker}`)).status).toBe(200);
    };

    await request('quiet-1');
    await toggle('debug');
    await request('loud-1');
    await waitFor(() => linesOf('loud-1').length > 0, 'the request logged at debug level');
    const loud = linesOf('loud-1');
    expect(loud.some((l) => l.level === 30 && typeof l.reqId === 'string')).toBe(true);

    await toggle('warn');
    await request('quiet-2');
    // A fence request in debug afterwards proves the quiet one's line had its chance to be printed.
    await toggle('debug');
    await request('loud-2');
    await waitFor(() => linesOf('loud-2').length > 0, 'the second debug-level request logged');
    expect(linesOf('quiet-1')).toEqual([]);
    expect(linesOf('quiet-2')).toEqual([]);
  });
});
