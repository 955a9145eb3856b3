// Every area's route module, registered under /api in this order.
import type { RouteModule } from '../http/app.ts';
import { agentRoutes } from './agent/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { deviceRoutes } from './device/routes.ts';
import { quotaRoutes } from './quota/routes.ts';
import { systemRoutes } from './system/routes.ts';
import { userRoutes } from './user/routes.ts';

export const routeModules: RouteModule[] = [systemRoutes, authRoutes, userRoutes];
routeModules.push(quotaRoutes, deviceRoutes, agentRoutes);
