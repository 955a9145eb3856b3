// What every module gets: configuration, the database, the bus, and the services other areas register.
import type { Kysely } from 'kysely';
import type { EventBus } from './bus/types.ts';
import type { Config } from './config.ts';
import type { DbHandle } from './db/connection.ts';
import type { Database } from './db/schema.ts';

export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  dbHandle: DbHandle;
  bus: EventBus;
  /** Services registered by areas at start (e.g. the gateway's command dispatcher). */
  services: Partial<AppServices>;
}

/** Areas add their service types here, e.g. `commands: CommandDispatcher`. */
// biome-ignore lint/suspicious/noEmptyInterface: areas add their services
export interface AppServices {}
