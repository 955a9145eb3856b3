// Every built factory screen in Chromium against `npm start` (APP_ENV test), on real data, in Chinese AND English:
// the admin seeds production data through the API (a GT06 tracker over TCP from the simulator, v1 / v2 / GPS
// results uploaded with an API key, QC criteria, preset IMEIs, SIM cards, an NB-IoT id, a command task), then
// opens each screen of the shell's page registry in a zh-CN and an en-US browser: the breadcrumb names the screen
// in that language, the screen shows the seeded rows (list screens) or its working controls (forms), and no
// translation key leaks into the page. Screenshots: factory-lang-<cn|en>-<screen>.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimulatedDevice } from '@carhere/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  adminWithTracker,
  apiPost,
  launchBrowser,
  loginAs,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

const stamp = String(Date.now()).slice(-6);
const TRACKER = `86${stamp}0000900`;
const V1 = `86${stamp}0000901`;
const V2 = `86${stamp}0000902`;
const GPS = `86${stamp}0000903`;
const PRESET = `86${stamp}0000904`;
const ICCID = `8986${stamp}0000000901`;
const NB_ID = `nb-lang-${stamp}`;

const locales = join(import.meta.dirname, '../apps/web/src/i18n/locales');
const menuOf = (lang: string) =>
  (JSON.parse(readFileSync(join(locales, lang, 'factory.json'), 'utf8')) as { menu: Record<string, string> }).menu;

/** What proves a screen works: a seeded value it lists, or (forms) a control it must offer; `open` acts first. */
interface Screen {
  path: string;
  shows: string | ((lang: 'cn' | 'en') => string);
  testId?: string;
  open?: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  { path: 'stock/stockDevice', shows: PRESET },
  { path: 'stock/importImei', shows: '', testId: 'stockImei-start' },
  { path: 'stock/importDevice', shows: '', testId: 'stockDevice-start' },
  { path: 'stock/Removal', shows: '', testId: 'removal-submit' },
  { path: 'card/cardSearch', shows: ICCID },
  { path: 'card/cardClear', shows: '', testId: 'card-clear' },
  { path: 'qc/qcSearch', shows: V2 },
  { path: 'qc/qcExport', shows: '', testId: 'qc-export' },
  { path: 'exportSerialResult/serialResultManager', shows: V1 },
  { path: 'exportSerialResult/serialResultManagerV2', shows: V2 },
  { path: 'exportSerialResult/serialGPSResultManager', shows: GPS },
  { path: 'exportSerialResult/v1', shows: '', testId: 'v1-upload' },
  { path: 'exportSerialResult/v2', shows: '', testId: 'v2-upload' },
  { path: 'exportSerialResult/configList', shows: 'LANG-FW' },
  {
    path: 'log/search',
    shows: 'login',
    open: async (page) => {
      await page.getByTestId('log-imei').fill(TRACKER);
      await page.getByTestId('log-search').click();
    },
  },
  { path: 'log/monitor', shows: '', testId: 'system-log-table' },
  { path: 'log/cmdTask', shows: 'WHERE#' },
  {
    path: 'log/deviceState',
    shows: '127.0.0.1',
    open: async (page) => {
      await page.getByTestId('state-imei').fill(TRACKER);
      await page.getByTestId('state-search').click();
    },
  },
  {
    path: 'search',
    shows: (lang) => (lang === 'cn' ? '是' : 'Yes'),
    testId: 'gw005-registered',
    open: async (page) => {
      await page.getByTestId('gw005-imei').fill(TRACKER);
      await page.getByTestId('gw005-search').click();
    },
  },
  { path: 'idManager', shows: NB_ID },
];

/** Text that looks like an i18n key of the factory's catalogues (e.g. "qc.imeiPrefix", "retention.kinds.task"). */
const LEAKED_KEY =
  /\b(?:menu|count|field|import|qc|stock|card|serial|ids|retention|capture|task|state|gw005|config|upload)\.[a-z][A-Za-z]+\b/;

describe('every factory screen in Chinese and English, on real data (APP_ENV test)', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let tracker: SimulatedDevice;

  beforeAll(async () => {
    platform = await startPlatform({ APP_ENV: 'test' });
    browser = await launchBrowser();
    const seeded = await adminWithTracker(platform, browser, TRACKER);
    tracker = seeded.tracker;
    const admin = seeded.page;
    tracker.sendFix(tracker.o.track.next(5));
    const must = async (url: string, body: unknown) => {
      const res = await apiPost<unknown>(admin, url, body);
      expect(res.meta.success, `${url}: ${res.meta.message}`).toBe(true);
      return res;
    };
    await must('/serials/config/save', {
      model: 'Gt06',
      minSatellites: 4,
      minCn0: 30,
      minGsm: 10,
      firmware: 'LANG-FW',
    });
    const key = (await must('/system/apiKey/add', { name: 'lang line' })) as { data: { key: string } };
    const upload = (path: string, body: unknown) =>
      fetch(`${platform.baseUrl}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.data.key },
        body: JSON.stringify(body),
      }).then((r) => expect(r.status).toBe(200));
    await upload('/serials/v1', { text: `${V1},Gt06,LANG-FW,20,9,40,PASS`, station: 'L1' });
    await upload('/serials/v2', {
      station: 'L2',
      batch: `B${stamp}`,
      results: [{ imei: V2, model: 'Gt06', firmware: 'LANG-FW', gsm: { csq: 20 }, pass: true }],
    });
    await upload('/serials/v2', {
      station: 'L3',
      type: 'gps',
      results: [{ imei: GPS, model: 'Gt06', gps: { satellites: 9, bestCn0: 41, ttffSeconds: 28 } }],
    });
    await must('/stock/importImei', { text: PRESET, batch: `B${stamp}`, wait: true });
    await must('/card/import', {
      text: `${ICCID},460001234567890,13800000001,CMCC,1G,2026-01-01,2027-01-01,active`,
      wait: true,
    });
    await must('/idManager/set', { terminalID: TRACKER, nbDeviceId: NB_ID });
    await must('/task/create', { content: 'WHERE#', terminalIDs: [TRACKER], area: 'factory' });
    await admin.context().close();
  }, 240_000);

  afterAll(async () => {
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
  });

  for (const [lang, locale] of [
    ['cn', 'zh-CN'],
    ['en', 'en-US'],
  ] as const) {
    it(`opens every screen in ${lang === 'cn' ? 'Chinese' : 'English'}`, async () => {
      const context = await browser.newContext({ locale, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const menu = menuOf(lang);
      const otherMenu = menuOf(lang === 'cn' ? 'en' : 'cn');
      try {
        await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
        await page.waitForURL('**/index/**');
        for (const screen of SCREENS) {
          await page.goto(`${platform.baseUrl}/test/${screen.path}`);
          await page.getByTestId('factory-shell').waitFor();
          const label = menu[screen.path.replaceAll('/', '_')];
          expect(label, `${screen.path}: menu label`).toBeTruthy();
          await expect
            .poll(() => page.getByTestId('factory-breadcrumb').textContent(), { message: screen.path })
            .toContain(label);
          if (label !== otherMenu[screen.path.replaceAll('/', '_')]) {
            expect(await page.getByTestId('factory-breadcrumb').textContent()).not.toContain(
              otherMenu[screen.path.replaceAll('/', '_')],
            );
          }
          await screen.open?.(page);
          if (screen.testId) await page.getByTestId(screen.testId).first().waitFor({ timeout: 20_000 });
          const shows = typeof screen.shows === 'function' ? screen.shows(lang) : screen.shows;
          if (shows) {
            const where = screen.testId
              ? page.getByTestId(screen.testId).first()
              : page.locator('main, .ant-layout-content').last();
            await expect
              .poll(async () => (await where.textContent()) ?? '', {
                timeout: 20_000,
                message: `${screen.path} shows ${shows}`,
              })
              .toContain(shows);
          }
          const text = (await page.locator('.ant-layout-content').last().innerText()) ?? '';
          expect(text, `${screen.path}: translation key on the page`).not.toMatch(LEAKED_KEY);
          await screenshot(page, `factory-lang-${lang}-${screen.path.replaceAll('/', '-')}`);
        }
      } finally {
        await context.close();
      }
    }, 300_000);
  }
});
