// Test servers for database and API tests: embedded PGlite in memory by default, or a fresh database on the
// PostgreSQL server named by DATABASE_URL (created for the test file and dropped afterwards).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { type Config, loadConfig } from '../config.ts';
import { type Running, type StartOptions, startServer } from '../main.ts';
import { SNAPSHOT_ENV, TEMPLATE_ENV } from './globalSetup.ts';

/** The sealing key of test servers (never a real deployment's). */
const TEST_SECRET_KEY = '7e57'.repeat(16);

export const TEST_ADMIN_PASSWORD = 'Admin-pass-1';

/** A new, empty database on the PostgreSQL server of `baseUrl`, or a copy of `template` when one is named. */
export async function freshPostgresDatabase(
  baseUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `carhere_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

let snapshot: Blob | undefined;

/** The run's migrated PGlite cluster (globalSetup.ts), read once per test process; none outside Vitest. */
function migratedSnapshot(): Blob | undefined {
  const file = process.env[SNAPSHOT_ENV];
  if (!file) return undefined;
  snapshot ??= new Blob([readFileSync(file)]);
  return snapshot;
}

export interface TestServer extends Running {
  config: Config;
  close(): Promise<void>;
}

export async function createTestServer(overrides: Partial<Config> = {}, opts: StartOptions = {}): Promise<TestServer> {
  const base = loadConfig({ ...process.env, DATA_DIR: 'memory://', PORT: '0', DEMO: '0' });
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    // A copy of the run's migrated template database (globalSetup.ts), when Vitest made one.
    const fresh = await freshPostgresDatabase(process.env.DATABASE_URL, process.env[TEMPLATE_ENV]);
    databaseUrl = fresh.url;
    drop = fresh.drop;
  }
  const config: Config = {
    ...base,
    dataDir: 'memory://',
    databaseUrl,
    adminPassword: TEST_ADMIN_PASSWORD,
    // One sealing key for every test server of a process (secretBox holds one key per process): a server on a
    // data directory of its own (restart tests) would otherwise make a second key there and be refused.
    secretKey: base.secretKey ?? TEST_SECRET_KEY,
    host: '127.0.0.1',
    port: 0,
    webDist: '/nonexistent',
    ...overrides,
  };
  // An in-memory PGlite starts from the run's migrated cluster (a file-level copy of what initdb and the
  // migrations make; openDatabase uses it for memory:// only); the server's own start still runs `migrate`
  // (nothing left to apply) and the first-run seed.
  const running = await startServer(config, { listen: false, databaseSnapshot: migratedSnapshot(), ...opts });
  return {
    ...running,
    config,
    close: async () => {
      await running.stop();
      if (drop) await drop();
    },
  };
}

/** A small client for API tests: keeps the session cookie, returns the parsed envelope. */
export class ApiClient {
  cookie = '';
  lang = 'en';
  constructor(private readonly server: Running) {}

  async post<T = unknown>(
    url: string,
    body?: unknown,
  ): Promise<{ status: number; meta: { success: boolean; message: string; code: number }; data: T }> {
    const res = await this.server.app.inject({
      method: 'POST',
      url: `/api${url}`,
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), lang: this.lang },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    this.keepCookie(res.headers['set-cookie']);
    const json = res.json();
    return { status: res.statusCode, meta: json.meta, data: json.data };
  }

  async get<T = unknown>(
    url: string,
  ): Promise<{ status: number; meta: { success: boolean; message: string; code: number }; data: T }> {
    const res = await this.server.app.inject({
      method: 'GET',
      url: `/api${url}`,
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), lang: this.lang },
    });
    this.keepCookie(res.headers['set-cookie']);
    const json = res.json();
    return { status: res.statusCode, meta: json.meta, data: json.data };
  }

  private keepCookie(header: string | string[] | undefined): void {
    if (!header) return;
    for (const c of Array.isArray(header) ? header : [header]) {
      const pair = c.split(';')[0];
      if (pair.startsWith('carhere_sid=')) this.cookie = pair.endsWith('=') ? '' : pair;
    }
  }

  async login(username: string, password: string) {
    return this.post<{ userInfo: { id: string; role: number } }>('/login', { username, password });
  }

  /**
   * Signs in as the account's owner. A password someone else set must be changed at first sign-in: when the
   * server asks for that (restriction 'changePassword'), this does what the owner would, through the real API:
   * it changes the password to an interim one (which clears the demand), then, as the owner's own choice, back to
   * `password`, so the test goes on knowing the account's password. Answers the login's answer.
   */
  async signInAsOwner(username: string, password: string) {
    const res = await this.login(username, password);
    const restriction = (res.data as { restriction?: string } | null)?.restriction;
    if (res.meta.code !== 200 || restriction !== 'changePassword') return res;
    const interim = `Interim-${randomBytes(6).toString('hex')}`;
    for (const [from, to] of [
      [password, interim],
      [interim, password],
    ]) {
      const change = await this.post('/user/checkUserPassword', {
        oldPassword: from,
        password: to,
        confirmPassword: to,
      });
      if (!change.meta.success) throw new Error(`first sign-in change of ${username} failed: ${change.meta.message}`);
    }
    const session = await this.get<{ restriction: string | null }>('/session');
    if (session.data?.restriction === 'changePassword') throw new Error(`${username} still must change its password`);
    return {
      ...res,
      data: { ...(res.data as object), restriction: session.data?.restriction ?? null } as unknown as typeof res.data,
    };
  }
}
