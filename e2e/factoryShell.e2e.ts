// The factory shell in Chromium against `npm start`: each of the nine factory roles (spec §6) logs in, lands on
// its home page inside the shell (not /notFound), sees exactly the screens its permissions open in the running
// APP_ENV (live, and test for the role whose list depends on it), in Chinese when the role forces it (spec §1)
// and in English and Chinese otherwise, finds the breadcrumb, the "not built yet" panel and the shell's own
// 404, and logs out. Screenshots: factory-shell-<role>.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  canAccessRoute,
  type Environment,
  forcesChineseInterface,
  homePath,
  permissionsFor,
  ROLES,
  ROUTES,
} from '@carhere/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factoryPages } from '../apps/web/src/features/factory/pages.tsx';
import {
  ADMIN_PASSWORD,
  apiPost,
  completeFirstSignIn,
  launchBrowser,
  loginAs,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

const PASSWORD = 'Factory-pass-1';
const FACTORY_ROLES = [
  'test',
  'testSearch',
  'wanweiTest',
  'log',
  'otaLookPremissionUser',
  'originLogSearch',
  'configPlatformUser',
  'testStockUser',
  'testTransferIpUser',
] as const;

const locales = join(import.meta.dirname, '../apps/web/src/i18n/locales');
const catalogue = (lang: string) =>
  (JSON.parse(readFileSync(join(locales, lang, 'factory.json'), 'utf8')) as { menu: Record<string, string> }).menu;
const labelOf = (lang: string, path: string) => catalogue(lang)[path.slice('/test/'.length).replaceAll('/', '_')];

/** The /test screens (routes with no children) a role may open in an environment, from the domain table. */
function expectedScreens(role: number, env: Environment): string[] {
  const parents = new Set(ROUTES.map((r) => r.parent));
  const held = [...permissionsFor(role, env)];
  return ROUTES.filter(
    (r) => r.area === 'factory' && r.menu && !parents.has(r.path) && canAccessRoute(r.path, held),
  ).map((r) => r.path);
}

async function menuScreens(page: Page): Promise<string[]> {
  const ids = await page
    .locator('[data-testid^="factory-menu-/test/"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.replace('factory-menu-', ''));
}

async function menuTexts(page: Page): Promise<string[]> {
  return page.locator('[data-testid^="factory-menu-/test/"]').allTextContents();
}

async function createAccounts(page: Page, baseUrl: string, roles: readonly string[], suffix: string) {
  await loginAs(page, baseUrl, 'admin', ADMIN_PASSWORD);
  await page.waitForURL('**/index/home');
  for (const name of roles) {
    const res = await apiPost<{ id: string }>(page, '/user/insertUser', {
      username: `f-${name}-${suffix}`,
      password: PASSWORD,
      role: ROLES[name as keyof typeof ROLES],
    });
    expect(res.meta.success, `${name}: ${res.meta.message}`).toBe(true);
    await completeFirstSignIn(baseUrl, `f-${name}-${suffix}`, PASSWORD);
  }
}

async function logout(page: Page): Promise<void> {
  await page.getByTestId('logout').click();
  await page.waitForURL('**/login');
}

describe('factory shell in Chromium (APP_ENV live)', () => {
  let platform: RunningPlatform;
  let browser: Browser;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    const admin = await browser.newPage();
    await createAccounts(admin, platform.baseUrl, FACTORY_ROLES, 'live');
    await admin.close();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  for (const name of FACTORY_ROLES) {
    it(`${name} logs in to its home in the shell, sees exactly its screens, and logs out`, async () => {
      const role = ROLES[name];
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      try {
        await loginAs(page, platform.baseUrl, `f-${name}-live`, PASSWORD);
        const home = homePath(permissionsFor(role, 'live'), 'factory');
        expect(home).toBeDefined();
        await page.waitForURL(`**${home}`);
        await page.getByTestId('factory-shell').waitFor();
        expect(await page.getByTestId('current-user').textContent()).toContain(`f-${name}-live`);

        const expected = expectedScreens(role, 'live');
        expect(expected.length).toBeGreaterThan(0);
        expect((await menuScreens(page)).sort()).toEqual([...expected].sort());

        // Breadcrumb of the home screen: its group (if any) and the screen itself.
        const lang = forcesChineseInterface(role) ? 'cn' : 'en';
        await expect.poll(() => page.getByTestId('factory-breadcrumb').textContent()).toContain(labelOf(lang, home!));

        if (forcesChineseInterface(role)) {
          // Spec §1: test-type roles get the Chinese interface whatever the browser says, and cannot leave it.
          expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
          expect(await menuTexts(page)).toEqual(expected.map((p) => labelOf('cn', p)));
          expect(await page.getByTestId('language-switch').isDisabled()).toBe(true);
        } else {
          await expect.poll(() => menuTexts(page)).toEqual(expected.map((p) => labelOf('en', p)));
          await page.getByTestId('language-switch').hover();
          await page.getByRole('menuitem', { name: '中文', exact: true }).click();
          await expect.poll(() => menuTexts(page)).toEqual(expected.map((p) => labelOf('cn', p)));
          await page.getByTestId('language-switch').hover();
          await page.getByRole('menuitem', { name: 'English', exact: true }).click();
          await expect.poll(() => menuTexts(page)).toEqual(expected.map((p) => labelOf('en', p)));
        }

        // A screen with no page yet shows the shell's panel; an unknown path and a forbidden screen the
        // shell's own 404 — the menu and logout stay.
        const unbuilt = expected.find((p) => !factoryPages[p.slice('/test/'.length)]);
        if (unbuilt) {
          await page.getByTestId(`factory-menu-${unbuilt}`).click();
          await page.waitForURL(`**${unbuilt}`);
          expect(await page.getByTestId('factory-not-built').textContent()).toBe(labelOf(lang, unbuilt));
        }
        await page.goto(`${platform.baseUrl}/test/noSuchScreen`);
        await page.getByTestId('factory-not-found').waitFor();
        const forbidden = ROUTES.find(
          (r) => r.area === 'factory' && !canAccessRoute(r.path, [...permissionsFor(role, 'live')]),
        );
        if (forbidden) {
          await page.goto(`${platform.baseUrl}${forbidden.path}`);
          await page.getByTestId('factory-not-found').waitFor();
          expect(new URL(page.url()).pathname).toBe(forbidden.path);
        }
        await page.goto(`${platform.baseUrl}${home}`);
        await page.getByTestId('factory-shell').waitFor();
        await screenshot(page, `factory-shell-${name}`);
        await logout(page);
        // Logged out: the factory area sends to login.
        await page.goto(`${platform.baseUrl}${home}`);
        await page.waitForURL('**/login');
      } finally {
        await context.close();
      }
    });
  }
});

describe('factory shell in Chromium (APP_ENV test)', () => {
  let platform: RunningPlatform;
  let browser: Browser;

  beforeAll(async () => {
    platform = await startPlatform({ APP_ENV: 'test' });
    browser = await launchBrowser();
    const admin = await browser.newPage();
    await createAccounts(admin, platform.baseUrl, ['test'], 'env');
    await admin.close();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('role test also sees the serial-result, test-config and transfer-IP screens in the test environment', async () => {
    const page = await browser.newPage();
    await loginAs(page, platform.baseUrl, 'f-test-env', PASSWORD);
    await page.getByTestId('factory-shell').waitFor();
    const expected = expectedScreens(ROLES.test, 'test');
    expect(expected).toContain('/test/exportSerialResult/configList');
    expect(expected).toContain('/test/transferIp/transferIp');
    expect(expectedScreens(ROLES.test, 'live')).not.toContain('/test/transferIp/transferIp');
    expect((await menuScreens(page)).sort()).toEqual([...expected].sort());
    await logout(page);
  });
});
