// The gateway area's route modules, registered after the others (modules/index.ts appends them).
import type { RouteModule } from '../http/app.ts';
import { alarmRoutes } from '../modules/alarms/routes.ts';
import { batteryRoutes } from '../modules/battery/routes.ts';
import { commandRoutes } from '../modules/commands/routes.ts';
import { locationRoutes } from '../modules/location/routes.ts';
import { nbRoutes } from '../modules/nb/routes.ts';
import { tireRoutes } from '../modules/tire/routes.ts';
import { trackRoutes } from '../modules/track/routes.ts';
import { liveRoutes } from './live/routes.ts';
import { modelSettingsRoutes } from './model-settings-routes.ts';

export const gatewayRouteModules: RouteModule[] = [
  liveRoutes,
  locationRoutes,
  trackRoutes,
  alarmRoutes,
  commandRoutes,
  tireRoutes,
  batteryRoutes,
  nbRoutes,
  modelSettingsRoutes,
];
