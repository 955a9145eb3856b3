// Factory back office II in Chromium against `npm start`, each screen as the role that owns it (spec §6), with a
// simulated GT06 tracker over TCP answering: testTransferIpUser moves the device and searches and exports the
// results, testSearch looks a result up, test sends a batch command, uses the console and the batch actions.
// Screenshots: factory2-<screen>.
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

const PASSWORD = 'Factory2-pass-1';
const IMEI = '868120012340001';
const ACCOUNTS = { tip: 16, search: 6, test: 5, ota: 11, config: 14 } as const;

/** antd's InputNumber puts the test id on the input or on its wrapper, by version. */
function numberInput(page: Page, testId: string) {
  return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
}

async function rowState(page: Page, table: string, imei: string): Promise<string | null> {
  const row = page.getByTestId(table).locator(`[data-testid="row-${imei}"]`).first();
  if ((await row.count()) === 0) return null;
  return row.getAttribute('data-state');
}

describe('factory back office II in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let tracker: SimulatedDevice;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    const admin = await browser.newPage();
    await loginAs(admin, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/home');
    for (const [name, role] of Object.entries(ACCOUNTS)) {
      const res = await apiPost(admin, '/user/insertUser', { username: `f2-${name}`, password: PASSWORD, role });
      expect(res.meta.success, `${name}: ${res.meta.message}`).toBe(true);
      await completeFirstSignIn(platform.baseUrl, `f2-${name}`, PASSWORD);
    }
    const imported = await apiPost(admin, '/device/import', { text: IMEI, protocol: 2, deviceType: 12, wait: true });
    expect(imported.meta.success, imported.meta.message).toBe(true);
    await admin.close();
    tracker = new SimulatedDevice({
      protocol: 'gt06',
      terminalId: IMEI,
      host: '127.0.0.1',
      port: platform.gt06Port,
      track: new VehicleTrack({ centerLat: 39.915, centerLon: 116.404, radiusKm: 2, maxSpeed: 40 }),
    });
    await tracker.connect();
  }, 240_000);
  afterAll(async () => {
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
  });

  async function as(name: keyof typeof ACCOUNTS): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await loginAs(page, platform.baseUrl, `f2-${name}`, PASSWORD);
    await page.getByTestId('factory-shell').waitFor();
    return page;
  }

  it('testTransferIpUser moves a device from its home screen, then searches and exports the results', async () => {
    const page = await as('tip');
    await page.waitForURL('**/test/transferIp/transferIp');
    await page.getByTestId('transfer-ip-page').waitFor();
    await page.getByTestId('tip-imeis').fill(IMEI);
    await page.getByTestId('tip-host').fill('127.0.0.1');
    await numberInput(page, 'tip-port').fill(String(platform.gt06Port));
    await page.getByTestId('tip-send').click();
    await expect.poll(() => rowState(page, 'tip-results', IMEI), { timeout: 20_000 }).toBe('success');
    expect(tracker.transferredTo).toEqual({ host: '127.0.0.1', port: platform.gt06Port });
    await screenshot(page, 'factory2-transferIp');

    await page.getByTestId('factory-menu-/test/transferIp/transferIpResults').click();
    await page.getByTestId('transfer-ip-results-page').waitFor();
    await page.getByTestId('tips-imeis').fill(IMEI);
    await page.getByTestId('tips-search').click();
    await expect.poll(() => rowState(page, 'tips-results', IMEI)).toBe('success');
    const download = page.waitForEvent('download');
    await page.getByTestId('tips-export').click();
    expect((await download).suggestedFilename()).toBe('transfer-ip.xlsx');
    await screenshot(page, 'factory2-transferIpResults');
    await page.context().close();
  }, 180_000);

  it('testSearch finds the device’s transfer result on its home screen (Chinese interface)', async () => {
    const page = await as('search');
    await page.waitForURL('**/test/transferIp/transferIpResult');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByTestId('tipr-imei').fill(IMEI);
    await page.getByTestId('tipr-search').click();
    await expect.poll(() => rowState(page, 'tipr-results', IMEI)).toBe('success');
    // antd spaces out a two-character Chinese button label ('查 询').
    expect((await page.getByTestId('tipr-search').textContent())?.replace(/\s/g, '')).toContain('查询');
    await screenshot(page, 'factory2-transferIpResult');
    await page.context().close();
  }, 120_000);

  it('test sends a batch command, uses the console with hex, and runs a batch action', async () => {
    const page = await as('test');
    await page.goto(`${platform.baseUrl}/test/mutiCmd/sendMutiCmd`);
    await page.getByTestId('muti-cmd-page').waitFor();
    await page.getByTestId('muti-imeis').fill(`${IMEI}\n868120012349999`);
    await page.getByTestId('muti-content').fill('TIMER,60#');
    await page.getByTestId('muti-send').click();
    await expect.poll(() => rowState(page, 'muti-results', IMEI), { timeout: 20_000 }).toBe('success');
    expect(await rowState(page, 'muti-results', '868120012349999')).toBe('failed');
    await screenshot(page, 'factory2-sendMutiCmd');

    await page.goto(`${platform.baseUrl}/test/cmdSend`);
    await page.getByTestId('console-imei').fill(IMEI);
    await page.getByTestId('console-open').click();
    await page.getByTestId('console-content').fill('WHERE#');
    await page.getByTestId('console-convert').click();
    await expect.poll(() => page.getByTestId('console-content').inputValue()).toBe('574845524523');
    await page.getByTestId('console-send').click();
    await expect
      .poll(() => page.locator('[data-testid^="cmd-"][data-status="answered"]').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    // The history also lists the batch command answered earlier: wait for this command's own reply.
    await expect
      .poll(() => page.getByTestId('console-history').textContent(), { timeout: 20_000 })
      .toContain('WHERE OK');
    await screenshot(page, 'factory2-cmdSend');

    await page.goto(`${platform.baseUrl}/test/mutiCmd/deviceBatchManage`);
    await page.getByTestId('batch-imeis').fill(`${IMEI}\n868120012349999`);
    await page.getByTestId('batch-action').click();
    await page.locator('.ant-select-item-option').nth(3).click();
    await numberInput(page, 'batch-model').fill('21');
    await page.getByTestId('batch-run').click();
    await page.getByTestId('batch-result').waitFor();
    expect(await page.getByTestId('batch-manage-page').textContent()).toContain('868120012349999');
    await screenshot(page, 'factory2-deviceBatchManage');

    await page.goto(`${platform.baseUrl}/test/mutiCmd/searchResultCmd`);
    await page.getByTestId('mutir-imei').fill(IMEI);
    await page.getByTestId('mutir-search').click();
    await expect.poll(() => rowState(page, 'mutir-results', IMEI)).toBe('success');
    await page.context().close();
  }, 240_000);
});
