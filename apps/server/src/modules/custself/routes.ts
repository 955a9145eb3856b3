// Customer self-service (issue 16): my account, special-brand accounts, drivers, brands.
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/types.ts';
import { accountSelfRoutes } from './accountRoutes.ts';
import { batchResultRoutes } from './batchResultRoutes.ts';
import { brandRoutes } from './brandRoutes.ts';
import { dataImportRoutes } from './dataImport.ts';
import { driverRoutes } from './driverRoutes.ts';

export async function custselfRoutes(app: App, ctx: AppContext): Promise<void> {
  await accountSelfRoutes(app, ctx);
  await driverRoutes(app, ctx);
  await batchResultRoutes(app, ctx);
  await dataImportRoutes(app, ctx);
  await brandRoutes(app, ctx);
}
