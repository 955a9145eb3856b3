import type { AccountsTables } from './tables/accounts.ts';
import type { AuditTables } from './tables/audit.ts';
import type { CoreTables } from './tables/core.ts';
import type { CustomerMapTables } from './tables/customerMap.ts';
import type { CustselfTables } from './tables/custself.ts';
import type { FactoryLogTables } from './tables/factoryLogs.ts';
import type { FactoryProdTables } from './tables/factoryProd.ts';
import type { FactoryToolTables } from './tables/factoryTools.ts';
import type { GatewayTables } from './tables/gateway.ts';
import type { RecordingTables } from './tables/recordings.ts';
import type { SecurityTables } from './tables/security.ts';
import type { MaintenanceTables, ShareTables } from './tables/share.ts';
import type { StatisticsTables } from './tables/statistics.ts';
import type { WebTables } from './tables/web.ts';

export type * from './tables/core.ts';

/** The whole database as Kysely sees it; each area declares its own tables in tables/<area>.ts. */
export interface Database
  extends CoreTables,
    GatewayTables,
    AccountsTables,
    WebTables,
    AuditTables,
    StatisticsTables,
    FactoryProdTables,
    FactoryLogTables,
    FactoryToolTables,
    SecurityTables,
    CustomerMapTables,
    CustselfTables,
    RecordingTables,
    ShareTables,
    MaintenanceTables {}
