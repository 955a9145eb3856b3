import { hasPermission, type Permission } from './permissions.ts';
import type { RootArea } from './roles.ts';

/** One screen of spec §2. Look routes up by `path`; `name` is the spec's route name. */
export interface RouteDef {
  readonly path: string;
  readonly name: string;
  /** i18n key of the menu entry, derived from the path: /index/count/countMileage → menu.index.count.countMileage. */
  readonly i18nKey: string;
  /** Any one of these is enough; empty means any logged-in user. A child also needs its parents' permissions. */
  readonly permissions: readonly Permission[];
  /** Shown in the side menu. */
  readonly menu: boolean;
  /** Reachable without a logged-in user. */
  readonly public: boolean;
  /** Sends a logged-in user on to the home page (/, /redirect and the two area roots). */
  readonly redirectsHome: boolean;
  readonly area?: RootArea;
  readonly parent?: string;
}

interface Node {
  readonly name: string;
  /** Path segment when it differs from the name. */
  readonly segment?: string;
  readonly permissions?: readonly Permission[];
  readonly menu?: boolean;
  readonly children?: readonly Node[];
}

const leaf = (name: string, permissions: readonly Permission[] = [], extra: Partial<Node> = {}): Node => ({
  name,
  permissions,
  ...extra,
});
const group = (name: string, permissions: readonly Permission[], children: readonly Node[]): Node => ({
  name,
  permissions,
  children,
});
const each = (names: readonly string[], permissions: readonly Permission[] = []): Node[] =>
  names.map((name) => leaf(name, permissions));

/** /index children: the customer site (spec §2). */
const INDEX_TREE: readonly Node[] = [
  leaf('home', ['main:monitor']),
  // Beyond the spec (issue 17): an overview of the fleet, and the landing page for those who choose it.
  leaf('dashboard', ['main:monitor']),
  group(
    'count',
    ['main:stat'],
    [
      leaf('countMileage', ['main:stat_mileage']),
      leaf('countAlarms', ['main:stat_alarms']),
      leaf('countStayDetail', ['main:stat_stay']),
      // Trips are the movement between the stays (issue 13): the same permission as the stay report.
      leaf('countTrips', ['main:stat_stay']),
      leaf('countPastDue', ['main:stat_pastdue']),
      leaf('countExport', ['main:stat_export']),
      // Issue 13/21 screens beside the spec's five: accounts compared (mileage figures), fence visits (from the
      // fence alarms) and battery status (spec §1 "battery", held by main:stat alone).
      leaf('countUsers', ['main:stat_mileage']),
      leaf('countFenceVisits', ['main:stat_alarms']),
      leaf('countBattery'),
    ],
  ),
  group(
    'agent',
    ['main:agent_add', 'main:agent_edit'],
    [
      leaf('agentList'),
      leaf('indexAgentListExport', ['main:agent_export']),
      leaf('setImportRecords', ['main:agent_import_quota']),
    ],
  ),
  group(
    'device',
    ['main:devices'],
    [
      leaf('deviceUpdateDevicesType', ['main:devices_bulk_type']),
      leaf('deviceUpdateHost', ['main:devices_bulk_host']),
      leaf('deviceList', ['main:devices_management']),
      leaf('deviceListV2', ['main:devices_management']),
      leaf('deviceImport', ['main:devices_import']),
      leaf('deviceBatchIcon', ['main:devices_icon_type']),
      leaf('deviceConfig', ['main:devices_config']),
      leaf('deviceTransform', ['main:devices_bulk_transfer']),
      leaf('deviceReset', ['main:devices_reset']),
      leaf('userInfo', ['main:user_info']),
      leaf('deviceUpdateTime', ['main:devices_bulk_expire']),
      leaf('deviceUpdateIccid', ['main:devices_sim_import']),
      leaf('deviceExportIccid', ['main:devices_sim_check']),
      leaf('deviceUpdateZone', ['main:devices_bulk_zone']),
      leaf('deviceUpdateExpireType', ['main:devices_expire_type']),
      leaf('multipleCmd', ['main:command_batch']),
      leaf('multipleCmdSearch', ['main:command_batch']),
      leaf('deviceUpdateDeviceInfo', ['main:devices_bulk_info']),
      leaf('huaXiangDataImport', ['main:data_import']),
      leaf('passwordUpdate', ['main:device_reset_password']),
    ],
  ),
  leaf('fence', ['main:fence']),
  leaf('riskPoint', ['main:risk_point']),
  leaf('directive', ['main:command']),
  leaf('alarms', ['main:alarms']),
  leaf('alarmsAll', ['main:alarms']),
  // Notification rules and scheduled reports (issue 18).
  leaf('notify', ['main:alarms']),
  leaf('reportSchedule', ['main:stat_export']),
  leaf('track', ['main:track']),
  leaf('tire', ['main:taiya']),
  group('checkCar', ['main:check_car'], each(['area', 'point'])),
  group('bus', ['main:bus'], each(['busLineList'])),
  group('system', ['main:system_config'], each(['demoAccountSet', 'mapKey', 'apiKey', 'auditLog'])),
  // Customer self-service (issue 16): the special-brand accounts (spec §6) and the brands of the login pages.
  leaf('specialBrand', ['main:system_config']),
  // Driver records and a vehicle's current driver; "my account" for every role.
  leaf('drivers', ['main:monitor', 'main:devices']),
  leaf('account'),
  // Share links of a device and maintenance reminders (issue 18).
  leaf('share', ['main:monitor']),
  leaf('maintenance', ['main:monitor']),
  group('help', [], each(['app', 'pc', 'interface'])),
  leaf('404', [], { menu: false }),
];

/** /test children: the factory back office (spec §2). */
const TEST_TREE: readonly Node[] = [
  leaf('configPlatformForUser', ['factory:config_platform']),
  leaf('otaUpdateListForUser', ['factory:ota_user']),
  group(
    'exportSerialResult',
    ['factory:serial_result', 'factory:test_config'],
    [
      ...each(
        ['serialResultManager', 'serialResultManagerV2', 'serialGPSResultManager', 'v1', 'v2'],
        ['factory:serial_result'],
      ),
      leaf('configList', ['factory:test_config']),
    ],
  ),
  group('qc', ['factory:qc'], each(['qcSearch', 'qcExport'])),
  group(
    'log',
    ['factory:log_device', 'factory:log_system', 'factory:log_cmd_task', 'factory:log_device_state'],
    [
      leaf('testLogDeviceLogSearch', ['factory:log_device'], { segment: 'search' }),
      leaf('testLogSystemLogSearch', ['factory:log_system'], { segment: 'monitor' }),
      leaf('testLogCmdTask', ['factory:log_cmd_task'], { segment: 'cmdTask' }),
      leaf('testLogDeviceState', ['factory:log_device_state'], { segment: 'deviceState' }),
    ],
  ),
  leaf('search', ['factory:gw005_test']),
  group(
    'card',
    ['factory:card_search', 'factory:card_clear'],
    [leaf('cardSearch', ['factory:card_search']), leaf('cardClear', ['factory:card_clear'])],
  ),
  group('ota', ['factory:ota'], each(['otaList', 'otaHttp'])),
  leaf('cmdSend', ['factory:cmd_send']),
  group('setting', ['factory:subscribe'], each(['subscribe'])),
  leaf('agps', ['factory:agps']),
  leaf('idManager', ['factory:id_manager']),
  // Spec §6 names the test role's tape download (factory:tape_download) without a route: its screen (issue 21).
  leaf('tapeDownload', ['factory:tape_download']),
  group(
    'transferIp',
    ['factory:transfer_ip', 'factory:transfer_ip_result', 'factory:transfer_ip_results'],
    [
      leaf('transferIp', ['factory:transfer_ip']),
      leaf('transferIpResult', ['factory:transfer_ip_result']),
      leaf('transferIpResults', ['factory:transfer_ip_results']),
    ],
  ),
  group('mutiCmd', ['factory:muti_cmd'], each(['sendMutiCmd', 'searchResultCmd', 'deviceBatchManage'])),
  group(
    'stock',
    ['factory:stock', 'factory:stock_import_device', 'factory:stock_import_imei', 'factory:stock_out'],
    [
      leaf('stockDevice', ['factory:stock']),
      leaf('importDevice', ['factory:stock_import_device']),
      leaf('importImei', ['factory:stock_import_imei']),
      leaf('Removal', ['factory:stock_out']),
    ],
  ),
];

function i18nKeyOf(path: string): string {
  return path === '/' ? 'menu.root' : `menu${path.replaceAll('/', '.')}`;
}

function topLevel(path: string, name: string, flags: Partial<RouteDef>): RouteDef {
  return {
    path,
    name,
    i18nKey: i18nKeyOf(path),
    permissions: [],
    menu: false,
    public: false,
    redirectsHome: false,
    ...flags,
  };
}

function flatten(nodes: readonly Node[], parentPath: string, area: RootArea, out: RouteDef[]): RouteDef[] {
  for (const node of nodes) {
    const path = `${parentPath}/${node.segment ?? node.name}`;
    out.push({
      path,
      name: node.name,
      i18nKey: i18nKeyOf(path),
      permissions: node.permissions ?? [],
      menu: node.menu ?? true,
      public: false,
      redirectsHome: false,
      area,
      parent: parentPath,
    });
    if (node.children) flatten(node.children, path, area, out);
  }
  return out;
}

/** Every route of spec §2, parents before their children, in menu order. */
export const ROUTES: readonly RouteDef[] = [
  topLevel('/', 'root', { redirectsHome: true }),
  topLevel('/redirect', 'redirect', { redirectsHome: true }),
  topLevel('/login', 'login', { public: true }),
  topLevel('/loginByCert', 'loginByCert', { public: true }),
  topLevel('/notFound', 'notFound', { public: true }),
  topLevel('/index', 'index', { redirectsHome: true, area: 'main' }),
  ...flatten(INDEX_TREE, '/index', 'main', []),
  topLevel('/test', 'test', { redirectsHome: true, area: 'factory' }),
  ...flatten(TEST_TREE, '/test', 'factory', []),
];

export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/notFound';

const ROUTE_BY_PATH = new Map(ROUTES.map((route) => [route.path, route]));

/** Drops query, hash and a trailing slash: '/index/home/?a=1' → '/index/home'. */
export function normalizePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
  return trimmed === '' ? '/' : trimmed;
}

export function findRoute(path: string): RouteDef | undefined {
  return ROUTE_BY_PATH.get(normalizePath(path));
}

/** The route and its parents, outermost first. */
export function routeChain(route: RouteDef): RouteDef[] {
  const chain: RouteDef[] = [];
  for (let current: RouteDef | undefined = route; current; ) {
    chain.unshift(current);
    current = current.parent ? ROUTE_BY_PATH.get(current.parent) : undefined;
  }
  return chain;
}

function chainAllows(route: RouteDef, held: readonly string[]): boolean {
  return routeChain(route).every((r) => r.permissions.length === 0 || hasPermission(held, r.permissions));
}

/**
 * Whether someone holding `permissions` may open `path`: public routes always; other known routes when
 * the route and each of its parents is open to all or has one of its permissions held. Unknown paths: false.
 */
export function canAccessRoute(path: string, permissions: readonly string[]): boolean {
  const route = findRoute(path);
  if (!route) return false;
  return route.public || chainAllows(route, permissions);
}

export type GuardDecision = 'allow' | 'login' | 'notFound' | 'home';

/**
 * The navigation guard of spec §2: login and not-found are always reachable, but a logged-in user
 * opening login goes home; unknown paths go to not-found; any other route needs user info (else login)
 * and one of its required permissions (else not-found).
 */
export function guardDecision(input: {
  path: string;
  user: object | null | undefined;
  permissions: readonly string[];
}): GuardDecision {
  const path = normalizePath(input.path);
  const loggedIn = input.user != null;
  if (path === LOGIN_PATH) return loggedIn ? 'home' : 'allow';
  if (path === NOT_FOUND_PATH) return 'allow';
  const route = ROUTE_BY_PATH.get(path);
  if (!route) return 'notFound';
  if (route.public) return 'allow';
  if (!loggedIn) return 'login';
  if (route.redirectsHome) return 'home';
  return chainAllows(route, input.permissions) ? 'allow' : 'notFound';
}

function isFeatureRoute(route: RouteDef): boolean {
  return routeChain(route).some((r) => r.permissions.length > 0);
}

/** Menu routes (groups and screens) of an area that someone holding `permissions` may open. */
export function menuRoutes(permissions: readonly string[], area: RootArea): RouteDef[] {
  return ROUTES.filter((r) => r.menu && r.area === area && chainAllows(r, permissions));
}

/**
 * The home page: the first feature screen of the area, in menu order, that the permissions open
 * (admin and customer roles get /index/home). Undefined when there is none, as for superAgent.
 */
export function homePath(permissions: readonly string[], area: RootArea): string | undefined {
  const hasChildren = new Set(ROUTES.map((r) => r.parent));
  const home = ROUTES.find(
    (r) => r.menu && r.area === area && !hasChildren.has(r.path) && isFeatureRoute(r) && chainAllows(r, permissions),
  );
  return home?.path;
}
