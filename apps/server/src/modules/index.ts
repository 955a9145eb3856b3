// Every area's route module, registered under /api in this order.
import type { RouteModule } from '../http/app.ts';
import { agentRoutes } from './agent/routes.ts';
import { agpsRoutes } from './agps/routes.ts';
import { auditRoutes } from './audit/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { cardRoutes } from './cards/routes.ts';
import { configRoutes } from './config/routes.ts';
import { custselfRoutes } from './custself/routes.ts';
import { deviceRoutes } from './device/routes.ts';
import { factoryRoutes } from './factory/routes.ts';
import { fenceRoutes } from './fence/routes.ts';
import { logRoutes } from './logs/routes.ts';
import { mapRoutes } from './map/routes.ts';
import { mutiCmdRoutes } from './mutiCmd/routes.ts';
import { noticeRoutes } from './notice/routes.ts';
import { otaRoutes } from './ota/routes.ts';
import { qcRoutes } from './qc/routes.ts';
import { quotaRoutes } from './quota/routes.ts';
import { statRoutes } from './stat/routes.ts';
import { stockRoutes } from './stock/routes.ts';
import { subscribeRoutes } from './subscribe/routes.ts';
import { systemRoutes } from './system/routes.ts';
import { taskRoutes } from './tasks/routes.ts';
import { transferIpRoutes } from './transferIp/routes.ts';
import { userRoutes } from './user/routes.ts';

export const routeModules: RouteModule[] = [systemRoutes, authRoutes, userRoutes, fenceRoutes, mapRoutes, noticeRoutes];
routeModules.push(quotaRoutes, deviceRoutes, agentRoutes, auditRoutes, statRoutes);
// Factory production: stock, SIM cards, QC and serial results.
routeModules.push(stockRoutes, cardRoutes, qcRoutes);
// Tasks (many-device work) before the gateway's modules: /command/addBatch makes its batches through them.
routeModules.push(taskRoutes, logRoutes, factoryRoutes);
// Factory II: transfer IP, batch commands and the command console (over the tasks above).
routeModules.push(transferIpRoutes, mutiCmdRoutes, otaRoutes, agpsRoutes, subscribeRoutes, configRoutes);
// Customer self-service: my account, special-brand accounts, drivers, brands (issue 16).
routeModules.push(custselfRoutes);

import { gatewayRouteModules } from '../gateway/routes.ts';

routeModules.push(...gatewayRouteModules);

// Device types as data (issue 16): configurations, the admin's device/deviceConfig, feature checks.
import { deviceTypeRoutes } from './deviceTypes/routes.ts';

routeModules.push(deviceTypeRoutes);

// Customer map (issue 16): vehicle checks, risk points, bus routes, and the grants that open them to agents.
import { busRoutes } from './bus/routes.ts';
import { checkRoutes } from './checks/routes.ts';
import { grantRoutes } from './grants/routes.ts';
import { riskRoutes } from './risk/routes.ts';

routeModules.push(grantRoutes, checkRoutes, riskRoutes, busRoutes);

// Recordings (issue 21): JT/T 808 multimedia uploads, their list per device and the test role's tape download.
import { recordingRoutes } from './recordings/routes.ts';

routeModules.push(recordingRoutes);

// Share links and maintenance reminders (issue 18).
import { shareRoutes } from './share/routes.ts';

routeModules.push(shareRoutes);

import { maintenanceRoutes } from './maintenance/routes.ts';

routeModules.push(maintenanceRoutes);

// Notifications and scheduled reports (issue 18): rules, deliveries through the job queue, report schedules.
import { notifyRoutes } from './notify/routes.ts';
import { reportScheduleRoutes } from './reportSchedule/routes.ts';

routeModules.push(notifyRoutes, reportScheduleRoutes);
