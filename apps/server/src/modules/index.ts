// Every area's route module, registered under /api in this order.
import type { RouteModule } from '../http/app.ts';
import { authRoutes } from './auth/routes.ts';
import { systemRoutes } from './system/routes.ts';
import { userRoutes } from './user/routes.ts';

export const routeModules: RouteModule[] = [systemRoutes, authRoutes, userRoutes];
