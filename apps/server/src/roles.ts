// Process roles (`carhere serve --only gateway|api|all`, GATEWAY_WORKERS=N): which parts of the platform a
// process runs. One process runs everything by default (and must, on PGlite: its data directory belongs to one
// process). Split roles and gateway workers share one PostgreSQL server (DATABASE_URL) and one NATS server
// (BUS_URL), which carry the data and the events between them.
import type { Config } from './config.ts';

export type Role = 'all' | 'api' | 'gateway';

export const ROLES: readonly Role[] = ['all', 'api', 'gateway'];

/** What a role runs. */
export interface RoleParts {
  /** The HTTP API with every route module, the web app and the live WebSocket. */
  api: boolean;
  /** The device gateway (TCP listeners, ingest, command delivery) in this process. */
  gateway: boolean;
  /** Workers of the background job queue (statistics roll-ups, exports, log and position retention). */
  jobWorkers: boolean;
}

export function partsOf(role: Role): RoleParts {
  return { api: role !== 'gateway', gateway: role !== 'api', jobWorkers: role !== 'gateway' };
}

/** Reads `--only ROLE` (or `--only=ROLE`) from the serve command's arguments. */
export function parseServeArgs(args: string[]): { role: Role } {
  let role: Role = 'all';
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    let value: string | undefined;
    if (a === '--only') value = args[++i];
    else if (a.startsWith('--only=')) value = a.slice('--only='.length);
    else throw new Error(`serve: unknown option "${a}" (usage: carhere serve [--only gateway|api|all])`);
    if (!value || !(ROLES as readonly string[]).includes(value)) {
      throw new Error(`serve: --only takes gateway, api or all, got "${value ?? ''}"`);
    }
    role = value as Role;
  }
  return { role };
}

/**
 * Refuses combinations that cannot work, with a message saying what to do: split roles and gateway workers
 * need PostgreSQL (PGlite's data directory is one process's) and NATS (the in-process bus reaches no other
 * process).
 */
export function checkRoles(config: Config, role: Role): void {
  const wanted: string[] = [];
  if (role !== 'all') wanted.push(`--only ${role}`);
  if (config.gatewayWorkers > 0) wanted.push(`GATEWAY_WORKERS=${config.gatewayWorkers}`);
  if (wanted.length === 0) return;
  const what = wanted.join(' and ');
  if (!config.databaseUrl) {
    throw new Error(
      `${what} needs PostgreSQL: the embedded database (PGlite, in DATA_DIR) belongs to one process. Set DATABASE_URL=postgres://… (and BUS_URL=nats://…), or run "carhere serve" without ${what}.`,
    );
  }
  if (!config.busUrl) {
    throw new Error(
      `${what} needs NATS for the events between processes (live positions, commands): set BUS_URL=nats://host:4222.`,
    );
  }
  if (role === 'api' && config.gatewayWorkers > 0) {
    throw new Error('GATEWAY_WORKERS runs gateway workers: it does not go with --only api.');
  }
}
