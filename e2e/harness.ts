// Browser-suite helpers: `npm start` on a temporary data dir with free ports, and Debian's Chromium through
// playwright-core (never a downloaded browser).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedDevice, VehicleTrack } from '@carhere/simulator';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { freePort } from '../apps/server/src/testing/ports.ts';
import { TEMPLATE_ENV } from './globalSetup.ts';

export const ADMIN_PASSWORD = 'E2e-admin-pass-1';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

export interface RunningPlatform {
  baseUrl: string;
  gt06Port: number;
  jt808Port: number;
  /** OsmAnd HTTP (phones) port. */
  osmandPort: number;
  dataDir: string;
  log: () => string;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  /**
   * Start on an empty data directory, as a new user's first `npm start` does (PGlite's initdb and every
   * migration run in the server). Otherwise the data directory starts with the run's migrated database
   * (globalSetup.ts) and nothing else.
   */
  emptyDataDir?: boolean;
}

/**
 * Starts the product the way a user does (`npm start`) and waits for /api/health. The ports are probed free first;
 * another process on the machine can still take one before the server binds it, so a start that fails with
 * EADDRINUSE is tried again on new ports (at most three times).
 */
export async function startPlatform(
  env: Record<string, string> = {},
  options: PlatformOptions = {},
): Promise<RunningPlatform> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPlatformOnce(env, options);
    } catch (err) {
      if (attempt >= 3 || !String((err as Error).message).includes('EADDRINUSE')) throw err;
    }
  }
}

async function startPlatformOnce(env: Record<string, string>, options: PlatformOptions): Promise<RunningPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'carhere-e2e-'));
  const template = process.env[TEMPLATE_ENV];
  if (template && !options.emptyDataDir) cpSync(template, dataDir, { recursive: true });
  const [port, gt06Port, jt808Port, osmandPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  let output = '';
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: join(import.meta.dirname, '..'),
    env: {
      ...process.env,
      PORT: String(port),
      GT06_PORT: String(gt06Port),
      JT808_PORT: String(jt808Port),
      OSMAND_PORT: String(osmandPort),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      DEMO: '0',
      ...env,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`npm start did not answer /api/health in 180 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    gt06Port,
    jt808Port,
    osmandPort,
    dataDir,
    log: () => output,
    stop: async () => {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid, 'SIGINT');
        const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Content-Security-Policy violations (console messages and `securitypolicyviolation` events) and HTML that
 * reached Leaflet without the escaper (apps/web/src/map/html/leafletGuard.ts), per page, since the last check.
 * Every browser from launchBrowser() records them on every page, and each test fails if any appeared.
 */
export const pageProblems: string[] = [];

const PROBLEM = /Content[- ]Security[- ]Policy|\[csp-violation\]|\[carhere\] HTML reached Leaflet/i;

async function watchContext(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `[csp-violation] ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  const watch = (page: Page) => {
    page.on('console', (msg) => {
      const text = msg.text();
      if (PROBLEM.test(text)) pageProblems.push(`${page.url()}: ${text}`);
    });
  };
  for (const page of context.pages()) watch(page);
  context.on('page', watch);
}

afterEach(() => {
  const problems = pageProblems.splice(0);
  if (problems.length > 0) {
    throw new Error(`the page reported ${problems.length} security problem(s):\n${problems.join('\n')}`);
  }
});

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Every context (also the one behind browser.newPage()) watches its pages.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    await watchContext(context);
    return context;
  };
  return browser;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Logs in through the login form. */
export async function loginAs(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByTestId('username').fill(username);
  await page.getByTestId('password').fill(password);
  await page.getByTestId('login-submit').click();
}

export interface Envelope<T> {
  meta: { success: boolean; message: string; code: number };
  data: T;
}

/** An API call with the page's session cookie, answered in English. */
export async function apiPost<T>(page: Page, url: string, body: unknown): Promise<Envelope<T>> {
  return page.evaluate(
    async ([u, b]) => {
      const res = await fetch(`/api${u}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', lang: 'en' },
        body: JSON.stringify(b),
      });
      return res.json();
    },
    [url, body] as const,
  );
}

/**
 * The admin signed in on the monitoring page (English, 1440×900), with a GT06 tracker `imei` registered through
 * the API (POST /device/import) and connected over TCP from the simulator, moving along `track` (Beijing).
 */
export async function adminWithTracker(
  platform: RunningPlatform,
  browser: Browser,
  imei: string,
  track = new VehicleTrack({ centerLat: 39.915, centerLon: 116.404, radiusKm: 2, maxSpeed: 40 }),
): Promise<{ page: Page; tracker: SimulatedDevice }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
  await page.waitForURL('**/index/home');
  const imported = await apiPost<{ state: string }>(page, '/device/import', {
    text: imei,
    protocol: 2,
    deviceType: 12,
    wait: true,
  });
  if (!imported.meta.success) throw new Error(`importing ${imei}: ${imported.meta.message}`);
  const tracker = new SimulatedDevice({
    protocol: 'gt06',
    terminalId: imei,
    host: '127.0.0.1',
    port: platform.gt06Port,
    track,
  });
  await tracker.connect();
  return { page, tracker };
}

/**
 * The first sign-in of an account whose password someone else set (every account a test creates): it must change
 * it before anything else. This does what its owner would, through the real API (no browser): changes the password
 * to an interim one, which clears the demand, then, as the owner's own choice, back to `password`, and logs out;
 * the test then signs in with the password it knows. Accounts with nothing to change are left as they are.
 */
export async function completeFirstSignIn(baseUrl: string, username: string, password: string): Promise<void> {
  const post = async (url: string, body: unknown, cookie = '') => {
    const res = await fetch(`${baseUrl}/api${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', lang: 'en', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    const sid = (res.headers.get('set-cookie') ?? '').match(/carhere_sid=[^;]+/)?.[0];
    return { json: (await res.json()) as Envelope<{ restriction?: string | null } | null>, sid };
  };
  const login = await post('/login', { username, password });
  if (login.json.meta.code !== 200) throw new Error(`login ${username}: ${login.json.meta.message}`);
  const cookie = login.sid ?? '';
  if (login.json.data?.restriction === 'changePassword') {
    const interim = `Interim-${Math.random().toString(36).slice(2, 10)}`;
    for (const [from, to] of [
      [password, interim],
      [interim, password],
    ]) {
      const change = await post(
        '/user/checkUserPassword',
        { oldPassword: from, password: to, confirmPassword: to },
        cookie,
      );
      if (!change.json.meta.success)
        throw new Error(`first sign-in change of ${username}: ${change.json.meta.message}`);
    }
  }
  await post('/logout', {}, cookie);
}
