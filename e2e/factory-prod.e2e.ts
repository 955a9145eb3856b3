// The factory production screens in Chromium against `npm start` (APP_ENV test), on real data: results
// uploaded by a "test station" with an API key, then a stock user (English) importing preset IMEIs and
// devices, finding them in stock and delivering one to an agent; the test role (Chinese, forced by spec §1)
// setting QC criteria, searching QC results, importing SIM cards and checking them; the admin (English) reading
// QC and v2 serial results. Screenshots: factory-prod-*.
import { readFileSync } from 'node:fs';
import { SimulatedDevice, VehicleTrack } from '@carhere/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const stamp = String(Date.now()).slice(-6);
const imei = (n: number) => `86${stamp}${String(n).padStart(7, '0')}`;
const [P1, P2, P3, P4, P5] = [1, 2, 3, 4, 5].map(imei);
const iccid = (n: number) => `8986${stamp}${String(n).padStart(10, '0')}`;

async function countsText(page: Page): Promise<string> {
  const counts = page.getByTestId('import-counts');
  await counts.waitFor({ timeout: 60_000 });
  return (await counts.innerText()).replace(/\s+/g, ' ');
}

describe('factory production screens in Chromium (APP_ENV test)', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let agentId = '';

  beforeAll(async () => {
    platform = await startPlatform({ APP_ENV: 'test' });
    browser = await launchBrowser();
    const admin = await browser.newPage();
    await loginAs(admin, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/home');
    for (const [username, role] of [
      ['prod-stock', 15],
      ['prod-test', 5],
      ['prod-agent', 2],
    ] as const) {
      const res = await apiPost<{ id: string }>(admin, '/user/insertUser', { username, password: PASSWORD, role });
      expect(res.meta.success, res.meta.message).toBe(true);
      await completeFirstSignIn(platform.baseUrl, username, PASSWORD);
      if (username === 'prod-agent') agentId = res.data.id;
    }
    // A production test station uploads its results with an API key (v2 JSON): P4 fails on the station.
    const key = await apiPost<{ key: string }>(admin, '/system/apiKey/add', { name: 'line 1' });
    const upload = await fetch(`${platform.baseUrl}/api/serials/v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.data.key },
      body: JSON.stringify({
        station: 'LINE-1',
        batch: `B${stamp}`,
        results: [P1, P2, P3, P4, P5].map((i) => ({
          imei: i,
          model: 'Gt06',
          firmware: 'V2.1',
          gsm: { csq: 20 },
          gps: { satellites: 9, bestCn0: 42, ttffSeconds: 30 },
          pass: i !== P4,
        })),
      }),
    });
    expect(upload.status).toBe(200);
    await admin.close();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('stock user (English): preset list, devices into stock with the result counts, stock list, removal', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await loginAs(page, platform.baseUrl, 'prod-stock', PASSWORD);
      await page.getByTestId('factory-shell').waitFor();

      await page.goto(`${platform.baseUrl}/test/stock/importImei`);
      await page.getByTestId('stockImei-text').fill([P1, P2, P3, P4, 'bad!'].join('\n'));
      await page.getByTestId('stockImei-start').click();
      const imeiCounts = await countsText(page);
      expect(imeiCounts).toMatch(/Success 4\b/);
      expect(imeiCounts).toMatch(/Unqualified 1\b/);
      // The refused lines download as CSV: the line, the value and why.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('rejected-download').click(),
      ]);
      const csv = readFileSync((await download.path())!, 'utf8');
      expect(csv).toContain('line,value,reason,message');
      expect(csv).toMatch(/\n5,bad!,invalid,/);
      await screenshot(page, 'factory-prod-import-imei-en');

      await page.goto(`${platform.baseUrl}/test/stock/importDevice`);
      await page.getByTestId('stockDevice-text').fill([P1, P2, P4, P5].map((i) => `${i},Gt06`).join('\n'));
      await page.getByTestId('stockDevice-start').click();
      const deviceCounts = await countsText(page);
      expect(deviceCounts).toMatch(/Success 2\b/);
      expect(deviceCounts).toMatch(/Unqualified 1\b/);
      expect(deviceCounts).toMatch(/Not preset 1\b/);
      expect(await page.locator('.ant-table').innerText()).toContain('Failed quality control');

      await page.goto(`${platform.baseUrl}/test/stock/stockDevice`);
      await page.getByTestId('stock-imei').fill(P1);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('.ant-table-row', { hasText: P1 }).getByText('In stock').waitFor();

      await page.goto(`${platform.baseUrl}/test/stock/Removal`);
      await page.getByTestId('removal-agent').click();
      await page.keyboard.type('prod-agent');
      await page.locator('.ant-select-item-option', { hasText: 'prod-agent' }).click();
      await page.getByTestId('removal-text').fill(`${P1}\n${P3}`);
      await page.getByTestId('removal-submit').click();
      const outCounts = await countsText(page);
      expect(outCounts).toMatch(/Success 1\b/);
      expect(outCounts).toMatch(/Failure 1\b/);
      await screenshot(page, 'factory-prod-removal-en');
      const owned = await apiPost<{ total: number; list: { state: string; agentId: string }[] }>(page, '/stock/find', {
        imei: P1,
      });
      expect(owned.data.list[0]).toMatchObject({ state: 'out', agentId });
    } finally {
      await context.close();
    }
  }, 240_000);

  it('test role (Chinese): QC criteria, QC search, SIM card import and check', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await loginAs(page, platform.baseUrl, 'prod-test', PASSWORD);
      await page.getByTestId('factory-shell').waitFor();

      await page.goto(`${platform.baseUrl}/test/exportSerialResult/configList`);
      await page.getByTestId('config-model').fill('Gt06');
      await page.getByTestId('config-sats').fill('6');
      await page.getByTestId('config-save').click();
      await page.locator('.ant-table-row', { hasText: 'Gt06' }).waitFor();

      await page.goto(`${platform.baseUrl}/test/qc/qcSearch`);
      await page.getByTestId('qc-imei').fill(`86${stamp}`);
      await page.getByTestId('qc-search').click();
      const failed = page.locator('.ant-table-row', { hasText: P4 });
      await failed.getByText('不合格', { exact: true }).waitFor();
      await page.locator('.ant-table-row', { hasText: P1 }).getByText('合格', { exact: true }).waitFor();
      await screenshot(page, 'factory-prod-qc-search-cn');

      await page.goto(`${platform.baseUrl}/test/card/cardSearch`);
      await page.getByRole('tab', { name: '导入卡' }).click();
      await page
        .getByTestId('cards-text')
        .fill(
          [
            `${iccid(1)},460001,13800000001,CMCC,1G,2026-01-01,2027-01-01,active,${P2}`,
            `${iccid(2)},460002,13800000002`,
            'x',
          ].join('\n'),
        );
      await page.getByTestId('cards-start').click();
      const cardCounts = await countsText(page);
      expect(cardCounts).toMatch(/成功 2\b/);
      expect(cardCounts).toMatch(/不合格 1\b/);
      await page.getByRole('tab', { name: '卡列表' }).click();
      await page.getByTestId('card-iccid').fill(`8986${stamp}`);
      await page
        .getByRole('button', { name: '查 询' })
        .or(page.getByRole('button', { name: '查询' }))
        .first()
        .click();
      await page
        .locator('.ant-table-row', { hasText: iccid(1) })
        .getByText(P2)
        .waitFor();
      await page.getByRole('tab', { name: '匹配检查' }).click();
      await page.getByTestId('card-check').click();
      await screenshot(page, 'factory-prod-cards-cn');
    } finally {
      await context.close();
    }
  }, 240_000);

  it('admin (English): QC search, v2 serial results and the v1 upload screen', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
      await page.waitForURL('**/index/home');
      await page.goto(`${platform.baseUrl}/test/exportSerialResult/serialResultManagerV2`);
      await page.getByTestId('qc-imei').fill(`86${stamp}`);
      await page.getByTestId('qc-search').click();
      await page.locator('.ant-table-row', { hasText: P4 }).getByText('Fail', { exact: true }).waitFor();
      await page.goto(`${platform.baseUrl}/test/exportSerialResult/v1`);
      await page.getByTestId('v1-text').fill(`${imei(9)},Gt06,V2.1,20,3,42,PASS`);
      await page.getByTestId('v1-upload').click();
      // The criteria the test role saved (6 satellites) fail a result with 3.
      expect(await page.getByTestId('upload-outcome').innerText()).toContain('1 results recorded: 0 passed, 1 failed');
      await page.goto(`${platform.baseUrl}/test/qc/qcSearch`);
      await page.getByTestId('qc-imei').fill(imei(9));
      await page.getByTestId('qc-search').click();
      await page
        .locator('.ant-table-row', { hasText: imei(9) })
        .getByText('Satellites')
        .waitFor();
      await screenshot(page, 'factory-prod-qc-search-en');
    } finally {
      await context.close();
    }
  }, 240_000);

  it('factory checks: the admin switches them on, the customer import then counts "not preset"; stock staff see the setting', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
      await page.waitForURL('**/index/home');
      await page.goto(`${platform.baseUrl}/test/stock/importDevice`);
      const toggle = page.getByTestId('factory-checks-switch');
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false'); // off on a new install
      expect(await page.getByTestId('factory-checks').innerText()).toContain(
        'Factory checks on the customer device import',
      );
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
      await page.reload();
      await expect.poll(() => page.getByTestId('factory-checks-switch').getAttribute('aria-checked')).toBe('true');
      await screenshot(page, 'factory-prod-factory-checks-en');
      // The customer side's device import now applies the factory rules: an IMEI nobody preset is refused.
      const job = await apiPost<{ result: { success: number; notPreset: number } }>(page, '/device/import', {
        userId: agentId,
        text: `${P3}\n${imei(77)}`,
        protocol: 2,
        deviceType: 12,
        wait: true,
      });
      expect(job.meta.success, job.meta.message).toBe(true);
      expect(job.data.result).toMatchObject({ notPreset: 1 });
    } finally {
      await context.close();
    }
    const stockContext = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    const stock = await stockContext.newPage();
    try {
      await loginAs(stock, platform.baseUrl, 'prod-stock', PASSWORD);
      await stock.getByTestId('factory-shell').waitFor();
      await stock.goto(`${platform.baseUrl}/test/stock/importDevice`);
      const toggle = stock.getByTestId('factory-checks-switch');
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
      expect(await toggle.isDisabled()).toBe(true); // switching it is the admin's
      expect(await stock.getByTestId('factory-checks').innerText()).toContain('工厂检查');
    } finally {
      await stockContext.close();
    }
  }, 240_000);
  it('test role (Chinese): a tracker reports its ICCID over TCP, card check shows the old card as a mismatch, clear unbinds it', async () => {
    const TRACKER = imei(6);
    const [OLD, NEW] = [iccid(11), iccid(12)];
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const admin = await context.newPage();
    let tracker: SimulatedDevice | undefined;
    try {
      await loginAs(admin, platform.baseUrl, 'admin', ADMIN_PASSWORD);
      await admin.waitForURL('**/index/home');
      // The factory checks an earlier test switched on would refuse this unpreset IMEI: back to the default.
      await apiPost(admin, '/stock/factoryChecks', { enabled: false });
      const imported = await apiPost<{ result: { success: number } }>(admin, '/device/import', {
        text: TRACKER,
        protocol: 2,
        deviceType: 12,
        wait: true,
      });
      expect(imported.meta.success, imported.meta.message).toBe(true);
      expect(imported.data.result.success).toBe(1);
      // The factory bound card OLD to the tracker; the SIM really in it is NEW.
      const cards = await apiPost(admin, '/card/import', { text: `${OLD},,,,,,,,${TRACKER}\n${NEW}`, wait: true });
      expect(cards.meta.success, cards.meta.message).toBe(true);
      tracker = new SimulatedDevice({
        protocol: 'gt06',
        terminalId: TRACKER,
        host: '127.0.0.1',
        port: platform.gt06Port,
        track: new VehicleTrack({ centerLat: 39.915, centerLon: 116.404, radiusKm: 2, maxSpeed: 40 }),
        replyTo: (command) => (/^ICCID#?$/i.test(command) ? `<ICCID:${NEW}>` : 'OK'),
      });
      await tracker.connect();
      const task = await apiPost(admin, '/task/create', { content: 'ICCID#', terminalIDs: [TRACKER], area: 'factory' });
      expect(task.meta.success, task.meta.message).toBe(true);
      await expect
        .poll(
          async () =>
            (await apiPost<{ list: { imei: string | null }[] }>(admin, '/card/find', { iccid: NEW })).data.list[0]
              ?.imei,
          { timeout: 30_000 },
        )
        .toBe(TRACKER);

      const page = await context.newPage();
      await page.context().clearCookies();
      await loginAs(page, platform.baseUrl, 'prod-test', PASSWORD);
      await page.getByTestId('factory-shell').waitFor();
      await page.goto(`${platform.baseUrl}/test/card/cardSearch`);
      await page.getByRole('tab', { name: '匹配检查' }).click();
      await page.getByTestId('card-check').click();
      // (the card list's table, in its hidden tab, lists OLD too: the check's row is the one with the verdict)
      const row = page.locator('.ant-table-row', { hasText: OLD }).filter({ hasText: '卡与设备不一致' });
      await row.waitFor();
      expect(await row.innerText()).toContain(NEW);
      expect(await row.innerText()).toContain(TRACKER);
      await screenshot(page, 'factory-prod-card-check-cn');

      await page.goto(`${platform.baseUrl}/test/card/cardClear`);
      await page.getByTestId('card-clear-text').fill(OLD);
      await page.getByTestId('card-clear').click();
      await page.getByText('已解绑 1 张卡').waitFor();
      const after = await apiPost<{ list: { imei: string | null }[] }>(page, '/card/find', { iccid: OLD });
      expect(after.data.list[0]?.imei).toBeNull();
      const check = await apiPost<{ list: unknown[] }>(page, '/card/check', { imeis: [TRACKER] });
      expect(check.data.list).toEqual([]);
    } finally {
      tracker?.stop();
      await context.close();
    }
  }, 240_000);
});
