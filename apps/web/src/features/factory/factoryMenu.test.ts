// The factory shell's menu comes from the domain route table and the role's permissions in each environment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Environment, findRoute, homePath, permissionsFor, ROLES } from '@carhere/domain';
import { describe, expect, it } from 'vitest';
import { allFactoryPaths, factoryBreadcrumb, factoryLabelKey, factoryMenu, factoryScreens } from './factoryMenu.ts';
import { factoryPages } from './pages.tsx';

const FACTORY_ROLES = [
  ROLES.test,
  ROLES.testSearch,
  ROLES.wanweiTest,
  ROLES.log,
  ROLES.otaLookPremissionUser,
  ROLES.originLogSearch,
  ROLES.configPlatformUser,
  ROLES.testStockUser,
  ROLES.testTransferIpUser,
];

describe('factory menu', () => {
  it('gives every factory role in every environment at least one screen, its home page among them', () => {
    for (const env of ['live', 'test', 'local'] satisfies Environment[]) {
      for (const role of FACTORY_ROLES) {
        const screens = factoryScreens(permissionsFor(role, env));
        expect(screens.length, `role ${role} ${env}`).toBeGreaterThan(0);
        expect(screens, `role ${role} ${env}`).toContain(homePath(permissionsFor(role, env), 'factory'));
      }
    }
  });

  it('follows the environment: role test sees serial results and transfer IP only in the test environment', () => {
    const live = factoryScreens(permissionsFor(ROLES.test, 'live'));
    const test = factoryScreens(permissionsFor(ROLES.test, 'test'));
    expect(live).not.toContain('/test/exportSerialResult/v1');
    expect(live).not.toContain('/test/transferIp/transferIp');
    expect(test).toContain('/test/exportSerialResult/v1');
    expect(test).toContain('/test/transferIp/transferIpResults');
    expect(live.every((p) => test.includes(p))).toBe(true);
  });

  it('shows a log user its two log screens inside the log group and nothing else', () => {
    const menu = factoryMenu(permissionsFor(ROLES.log, 'live'));
    expect(menu.map((n) => n.path)).toEqual(['/test/log']);
    expect(menu[0]?.children.map((n) => n.path)).toEqual(['/test/log/search', '/test/log/monitor']);
  });

  it('gives customer roles no factory menu', () => {
    for (const role of [ROLES.agent, ROLES.user, ROLES.superUser, ROLES.superAgent])
      expect(factoryMenu(permissionsFor(role, 'live'))).toEqual([]);
  });

  it('has a breadcrumb of the route chain below /test', () => {
    expect(factoryBreadcrumb('/test/stock/importImei').map((c) => c.path)).toEqual([
      '/test/stock',
      '/test/stock/importImei',
    ]);
    expect(factoryBreadcrumb('/test/nothing')).toEqual([]);
  });

  it('has a label for every /test route in the factory catalogue', () => {
    const en = JSON.parse(readFileSync(join(import.meta.dirname, '../../i18n/locales/en/factory.json'), 'utf8')) as {
      menu: Record<string, string>;
    };
    for (const path of allFactoryPaths()) {
      const key = factoryLabelKey(path).replace('factory:menu.', '');
      expect(en.menu[key], path).toBeTruthy();
    }
  });

  it('registers pages only for known /test screens', () => {
    for (const key of Object.keys(factoryPages)) {
      const route = findRoute(`/test/${key}`);
      expect(route?.area, key).toBe('factory');
    }
  });
});
