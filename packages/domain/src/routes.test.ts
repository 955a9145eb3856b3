import { describe, expect, it } from 'vitest';
import { type Environment, permissionsFor } from './permissions.ts';
import { ROLE_NAMES, ROLES, type RoleName, roleRootArea } from './roles.ts';
import {
  canAccessRoute,
  findRoute,
  guardDecision,
  homePath,
  menuRoutes,
  normalizePath,
  ROUTES,
  routeChain,
} from './routes.ts';

const paths = ROUTES.map((r) => r.path);

describe('route table', () => {
  it('has unique paths and i18n keys, parents listed before children', () => {
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(ROUTES.map((r) => r.i18nKey)).size).toBe(ROUTES.length);
    ROUTES.forEach((route, index) => {
      if (route.parent) expect(paths.indexOf(route.parent)).toBeLessThan(index);
    });
  });

  it('covers the top-level routes of spec §2', () => {
    for (const p of ['/', '/redirect', '/login', '/loginByCert', '/notFound']) expect(paths).toContain(p);
  });

  it('covers every /index child of spec §2 with its permission', () => {
    const expected: Record<string, string[]> = {
      '/index/home': ['main:monitor'],
      '/index/count': ['main:stat'],
      '/index/count/countMileage': ['main:stat_mileage'],
      '/index/count/countAlarms': ['main:stat_alarms'],
      '/index/count/countStayDetail': ['main:stat_stay'],
      '/index/count/countTrips': ['main:stat_stay'],
      '/index/count/countPastDue': ['main:stat_pastdue'],
      '/index/count/countExport': ['main:stat_export'],
      '/index/count/countUsers': ['main:stat_mileage'],
      '/index/count/countFenceVisits': ['main:stat_alarms'],
      '/index/device': ['main:devices'],
      '/index/device/deviceList': ['main:devices_management'],
      '/index/device/deviceListV2': ['main:devices_management'],
      '/index/fence': ['main:fence'],
      '/index/directive': ['main:command'],
      '/index/alarms': ['main:alarms'],
      '/index/alarmsAll': ['main:alarms'],
      '/index/track': ['main:track'],
      '/index/tire': ['main:taiya'],
      '/index/system': ['main:system_config'],
    };
    for (const [path, permissions] of Object.entries(expected)) {
      expect(findRoute(path)?.permissions, path).toEqual(permissions);
    }
    const deviceChildren = [
      'deviceUpdateDevicesType',
      'deviceUpdateHost',
      'deviceImport',
      'deviceBatchIcon',
      'deviceConfig',
      'deviceTransform',
      'deviceReset',
      'userInfo',
      'deviceUpdateTime',
      'deviceUpdateIccid',
      'deviceExportIccid',
      'deviceUpdateZone',
      'deviceUpdateExpireType',
      'multipleCmd',
      'multipleCmdSearch',
      'deviceUpdateDeviceInfo',
      'huaXiangDataImport',
      'passwordUpdate',
    ];
    for (const child of deviceChildren) expect(findRoute(`/index/device/${child}`)?.parent).toBe('/index/device');
    for (const p of [
      '/index/agent/agentList',
      '/index/agent/indexAgentListExport',
      '/index/agent/setImportRecords',
      '/index/riskPoint',
      '/index/checkCar/area',
      '/index/checkCar/point',
      '/index/bus/busLineList',
      '/index/system/demoAccountSet',
      '/index/system/mapKey',
      '/index/system/apiKey',
      '/index/system/auditLog',
      '/index/help/app',
      '/index/help/pc',
      '/index/help/interface',
      '/index/404',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('covers every /test child of spec §2', () => {
    for (const p of [
      '/test/configPlatformForUser',
      '/test/otaUpdateListForUser',
      '/test/exportSerialResult/serialResultManager',
      '/test/exportSerialResult/serialResultManagerV2',
      '/test/exportSerialResult/serialGPSResultManager',
      '/test/exportSerialResult/v1',
      '/test/exportSerialResult/v2',
      '/test/exportSerialResult/configList',
      '/test/qc/qcSearch',
      '/test/qc/qcExport',
      '/test/log/search',
      '/test/log/monitor',
      '/test/log/cmdTask',
      '/test/log/deviceState',
      '/test/search',
      '/test/card/cardSearch',
      '/test/card/cardClear',
      '/test/ota/otaList',
      '/test/ota/otaHttp',
      '/test/cmdSend',
      '/test/setting/subscribe',
      '/test/agps',
      '/test/idManager',
      '/test/tapeDownload',
      '/test/transferIp/transferIp',
      '/test/transferIp/transferIpResult',
      '/test/transferIp/transferIpResults',
      '/test/mutiCmd/sendMutiCmd',
      '/test/mutiCmd/searchResultCmd',
      '/test/mutiCmd/deviceBatchManage',
      '/test/stock/stockDevice',
      '/test/stock/importDevice',
      '/test/stock/importImei',
      '/test/stock/Removal',
    ]) {
      expect(paths).toContain(p);
    }
    expect(findRoute('/test/log/search')?.name).toBe('testLogDeviceLogSearch');
  });

  it('derives menu i18n keys from the path', () => {
    expect(findRoute('/index/count/countMileage')?.i18nKey).toBe('menu.index.count.countMileage');
    expect(findRoute('/')?.i18nKey).toBe('menu.root');
  });

  it('only marks area routes as menu items, and hides the 404 screen', () => {
    expect(ROUTES.filter((r) => r.menu).every((r) => r.area !== undefined)).toBe(true);
    expect(findRoute('/index/404')?.menu).toBe(false);
    expect(findRoute('/login')?.menu).toBe(false);
  });

  it('gives the chain outermost first', () => {
    expect(routeChain(findRoute('/index/count/countMileage')!).map((r) => r.path)).toEqual([
      '/index',
      '/index/count',
      '/index/count/countMileage',
    ]);
  });

  it('normalises paths', () => {
    expect(normalizePath('/index/home/')).toBe('/index/home');
    expect(normalizePath('/index/home?x=1#top')).toBe('/index/home');
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('/')).toBe('/');
  });
});

describe('canAccessRoute', () => {
  it('needs one of the route permissions and those of every parent', () => {
    expect(canAccessRoute('/index/count/countMileage', ['main:stat', 'main:stat_mileage'])).toBe(true);
    expect(canAccessRoute('/index/count/countMileage', ['main:stat_mileage'])).toBe(false);
    expect(canAccessRoute('/index/count/countMileage', ['main:stat'])).toBe(false);
    expect(canAccessRoute('/index/count', ['main:stat'])).toBe(true);
  });

  it('opens everything to *:*:* and nothing unknown', () => {
    for (const path of paths) expect(canAccessRoute(path, ['*:*:*'])).toBe(true);
    expect(canAccessRoute('/index/nope', ['*:*:*'])).toBe(false);
  });

  it('opens public and permission-free routes to anyone', () => {
    expect(canAccessRoute('/login', [])).toBe(true);
    expect(canAccessRoute('/index/help/app', [])).toBe(true);
    expect(canAccessRoute('/index/home', [])).toBe(false);
  });

  it('follows the role table: user cannot open device management, agent can', () => {
    expect(canAccessRoute('/index/device/deviceList', permissionsFor(ROLES.user, 'live'))).toBe(false);
    expect(canAccessRoute('/index/device/deviceList', permissionsFor(ROLES.agent, 'live'))).toBe(true);
    expect(canAccessRoute('/index/device/deviceReset', permissionsFor(ROLES.agent, 'live'))).toBe(true);
    expect(canAccessRoute('/index/device/deviceReset', permissionsFor(ROLES.agent, 'test'))).toBe(false);
    expect(canAccessRoute('/test/transferIp/transferIpResult', permissionsFor(ROLES.testSearch, 'live'))).toBe(true);
    expect(canAccessRoute('/test/transferIp/transferIp', permissionsFor(ROLES.testSearch, 'live'))).toBe(false);
  });
});

describe('guardDecision', () => {
  const user = { id: 1, role: ROLES.agent };
  const agent = permissionsFor(ROLES.agent, 'live');

  it('always lets anyone reach login and not-found, but sends a logged-in user away from login', () => {
    expect(guardDecision({ path: '/login', user: null, permissions: [] })).toBe('allow');
    expect(guardDecision({ path: '/login', user, permissions: agent })).toBe('home');
    expect(guardDecision({ path: '/notFound', user: null, permissions: [] })).toBe('allow');
    expect(guardDecision({ path: '/notFound', user, permissions: agent })).toBe('allow');
  });

  it('sends a visitor without user info to login', () => {
    expect(guardDecision({ path: '/index/home', user: null, permissions: [] })).toBe('login');
    expect(guardDecision({ path: '/index/help/app', user: undefined, permissions: [] })).toBe('login');
    expect(guardDecision({ path: '/', user: null, permissions: [] })).toBe('login');
  });

  it('lets loginByCert through without a user (automatic login by IMEI)', () => {
    expect(guardDecision({ path: '/loginByCert?imei=123', user: null, permissions: [] })).toBe('allow');
  });

  it('sends unknown paths to not-found', () => {
    expect(guardDecision({ path: '/index/nope', user, permissions: agent })).toBe('notFound');
    expect(guardDecision({ path: '/nope', user: null, permissions: [] })).toBe('notFound');
  });

  it('sends a route without a held permission to not-found', () => {
    expect(guardDecision({ path: '/index/system/mapKey', user, permissions: agent })).toBe('notFound');
    expect(guardDecision({ path: '/index/home', user, permissions: agent })).toBe('allow');
  });

  it('sends /, /redirect and the area roots to the home page', () => {
    for (const path of ['/', '/redirect', '/index', '/test']) {
      expect(guardDecision({ path, user, permissions: agent })).toBe('home');
    }
  });
});

/** A role's home page: its first screen by its permissions, in its area. */
const roleHomePath = (role: RoleName, env: Environment) =>
  homePath(permissionsFor(role, env), roleRootArea(ROLES[role]));

describe('menus and home pages', () => {
  it('menu of a user: only what they may open, in table order', () => {
    const menu = menuRoutes(permissionsFor(ROLES.user, 'live'), 'main').map((r) => r.path);
    expect(menu[0]).toBe('/index/home');
    expect(menu).toContain('/index/count/countMileage');
    expect(menu).not.toContain('/index/count/countExport');
    expect(menu).not.toContain('/index/device');
    expect(menu).not.toContain('/index/404');
  });

  it('home page: /index/home for admin and customer roles, none for superAgent', () => {
    expect(roleHomePath('admin', 'live')).toBe('/index/home');
    expect(roleHomePath('agent', 'live')).toBe('/index/home');
    expect(roleHomePath('user', 'test')).toBe('/index/home');
    expect(roleHomePath('superUser', 'local')).toBe('/index/home');
    expect(roleHomePath('superAgent', 'live')).toBeUndefined();
  });

  it('home page of factory roles: their first screen', () => {
    expect(roleHomePath('test', 'live')).toBe('/test/configPlatformForUser');
    expect(roleHomePath('testSearch', 'live')).toBe('/test/transferIp/transferIpResult');
    expect(roleHomePath('log', 'live')).toBe('/test/log/search');
    expect(roleHomePath('testStockUser', 'live')).toBe('/test/stock/stockDevice');
    expect(roleHomePath('otaLookPremissionUser', 'live')).toBe('/test/otaUpdateListForUser');
  });

  it('every role except superAgent has a home page it can open', () => {
    for (const name of ROLE_NAMES.filter((n) => n !== 'superAgent')) {
      const permissions = permissionsFor(name, 'test');
      const area = roleRootArea(ROLES[name]);
      const home = roleHomePath(name, 'test');
      expect(home, name).toBeDefined();
      expect(canAccessRoute(home!, permissions), name).toBe(true);
      expect(findRoute(home!)?.area).toBe(area);
    }
  });

  it('a permission-free help page is never a home page', () => {
    expect(homePath([], 'main')).toBeUndefined();
  });
});
