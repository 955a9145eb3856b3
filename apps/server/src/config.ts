// Configuration from environment variables (documented in the README's configuration table).
import { isIP } from 'node:net';
import { resolve } from 'node:path';

export type AppEnv = 'live' | 'test' | 'local';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  demo: boolean;
  gt06Port: number;
  jt808Port: number;
  busUrl: string | undefined;
  /** Prefix of every NATS subject (BUS_PREFIX), so several deployments can share one NATS server. */
  busPrefix: string;
  appEnv: AppEnv;
  appDownloadUrl: string;
  sessionHours: number;
  rememberDays: number;
  webDist: string | undefined;
  logLevel: string;
  commandTimeoutMs: number;
  offlineCommandTtlHours: number;
  /** Seconds a device's statistics wait after its fixes arrive before they are rolled up (STATS_ROLLUP_DELAY_SECONDS). */
  statsRollupDelaySeconds: number;
  /** Largest recording (JT/T 808 multimedia upload) kept, in bytes (RECORDING_MAX_BYTES; at most 1 MiB). */
  recordingMaxBytes: number;
  /** Directory for finished exports (EXPORT_DIR; default DATA_DIR/exports, or the system temp dir in memory). */
  exportDir: string | undefined;
  /** Origins (scheme://host[:port]) besides the server's own whose pages may open /api/ws (ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  /**
   * Addresses / CIDRs of the reverse proxies whose X-Forwarded-For / -Proto headers are believed (TRUST_PROXY).
   * Empty: no proxy is trusted, request.ip is the TCP peer and X-Forwarded-* headers are ignored.
   */
  trustProxy: string[];
  /** Key that seals secrets at rest (SECRET_KEY: 64 hex digits or base64 of 32 bytes); see security/secretBox.ts. */
  secretKey: string | undefined;
  /** Gateway worker processes sharing the device ports on this machine (GATEWAY_WORKERS; 0: the gateway runs in this process). */
  gatewayWorkers: number;
  /** Positions older than this many days are removed, a whole monthly partition at a time (RETENTION_DAYS). */
  retentionDays: number;
  /** Alarms older than this many days are removed (ALARM_RETENTION_DAYS; default RETENTION_DAYS). */
  alarmRetentionDays: number;
  /** Bearer token /metrics asks for (METRICS_TOKEN); unset: /metrics is open (keep it on the internal network). */
  metricsToken: string | undefined;
  /** Longest a graceful shutdown may take before the process exits anyway (SHUTDOWN_TIMEOUT_SECONDS). */
  shutdownTimeoutMs: number;
  /** SMTP server of the notification and report e-mails (SMTP_URL, e.g. smtp://user:pass@host:587); else system settings. */
  smtpUrl: string | undefined;
  /** Sender address of those e-mails (MAIL_FROM). */
  mailFrom: string | undefined;
  /**
   * Webhooks may reach loopback, private, link-local… addresses (NOTIFY_ALLOW_PRIVATE_WEBHOOKS=1; tests and
   * benchmarks with local receivers). Default: refused, at rule save and at delivery.
   */
  allowPrivateWebhooks: boolean;
  /**
   * Browser push subscription endpoints may be loopback, private, link-local… addresses (NOTIFY_ALLOW_PRIVATE_PUSH=1;
   * tests with a local push service). Default: refused, when a browser subscribes and at delivery.
   */
  allowPrivatePush: boolean;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** 'carhere-eu' or 'carhere-eu.' → 'carhere-eu.'; empty → ''. NATS subject tokens only (no spaces, * or >). */
function busPrefix(value: string | undefined): string {
  const v = (value ?? '').trim().replace(/\.$/, '');
  if (v === '') return '';
  if (!/^[\w-]+(\.[\w-]+)*$/.test(v)) throw new Error(`BUS_PREFIX must be dot-separated words, got "${value}"`);
  return `${v}.`;
}

/** 'https://a.example, http://b.example:8080' → ['https://a.example', 'http://b.example:8080']. */
function origins(value: string | undefined): string[] {
  const out: string[] = [];
  for (const part of (value ?? '').split(',')) {
    const v = part.trim();
    if (v === '') continue;
    let url: URL | undefined;
    try {
      url = new URL(v);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== v.replace(/\/$/, '').toLowerCase()) {
      throw new Error(`ALLOWED_ORIGINS must be comma-separated origins like https://maps.example.com, got "${v}"`);
    }
    out.push(url.origin);
  }
  return out;
}

/** '10.0.0.1, 172.16.0.0/12,::1' → ['10.0.0.1', '172.16.0.0/12', '::1']; each an IPv4/IPv6 address or CIDR. */
function trustProxy(value: string | undefined): string[] {
  const list = (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const v of list) {
    const [addr, bits, extra] = v.split('/');
    const ok =
      extra === undefined &&
      (isIP(addr) !== 0 || addr === 'loopback' || addr === 'linklocal' || addr === 'uniquelocal') &&
      (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(addr) === 6 ? 128 : 32)));
    if (!ok) throw new Error(`TRUST_PROXY must be comma-separated IP addresses or CIDRs, got "${v}"`);
  }
  return list;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const appEnv = (env.APP_ENV ?? 'live') as AppEnv;
  if (!['live', 'test', 'local'].includes(appEnv))
    throw new Error(`APP_ENV must be live, test or local, got "${appEnv}"`);
  return {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    demo: env.DEMO !== '0' && env.DEMO !== 'false',
    gt06Port: int(env.GT06_PORT, 5023, 'GT06_PORT'),
    jt808Port: int(env.JT808_PORT, 5015, 'JT808_PORT'),
    busUrl: env.BUS_URL || undefined,
    busPrefix: busPrefix(env.BUS_PREFIX),
    appEnv,
    appDownloadUrl: env.APP_DOWNLOAD_URL ?? '',
    sessionHours: int(env.SESSION_HOURS, 12, 'SESSION_HOURS'),
    rememberDays: int(env.REMEMBER_DAYS, 30, 'REMEMBER_DAYS'),
    webDist: env.WEB_DIST || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    commandTimeoutMs: int(env.COMMAND_TIMEOUT_MS, 30_000, 'COMMAND_TIMEOUT_MS'),
    offlineCommandTtlHours: int(env.OFFLINE_COMMAND_TTL_HOURS, 72, 'OFFLINE_COMMAND_TTL_HOURS'),
    statsRollupDelaySeconds: int(env.STATS_ROLLUP_DELAY_SECONDS, 60, 'STATS_ROLLUP_DELAY_SECONDS'),
    recordingMaxBytes: int(env.RECORDING_MAX_BYTES, 1024 * 1024, 'RECORDING_MAX_BYTES'),
    exportDir: env.EXPORT_DIR || undefined,
    allowedOrigins: origins(env.ALLOWED_ORIGINS),
    trustProxy: trustProxy(env.TRUST_PROXY),
    secretKey: env.SECRET_KEY || undefined,
    gatewayWorkers: int(env.GATEWAY_WORKERS, 0, 'GATEWAY_WORKERS'),
    retentionDays: int(env.RETENTION_DAYS, 400, 'RETENTION_DAYS') || 400,
    alarmRetentionDays:
      int(env.ALARM_RETENTION_DAYS, int(env.RETENTION_DAYS, 400, 'RETENTION_DAYS') || 400, 'ALARM_RETENTION_DAYS') ||
      400,
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownTimeoutMs: int(env.SHUTDOWN_TIMEOUT_SECONDS, 30, 'SHUTDOWN_TIMEOUT_SECONDS') * 1000,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    allowPrivateWebhooks: env.NOTIFY_ALLOW_PRIVATE_WEBHOOKS === '1' || env.NOTIFY_ALLOW_PRIVATE_WEBHOOKS === 'true',
    allowPrivatePush: env.NOTIFY_ALLOW_PRIVATE_PUSH === '1' || env.NOTIFY_ALLOW_PRIVATE_PUSH === 'true',
  };
}
