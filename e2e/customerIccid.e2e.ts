// The customer's SIM card screens in Chromium against `npm start`, on the factory's card data: the factory
// (admin) imports a SIM card, an agent with a device of its own sets the device's ICCID in a batch on
// /index/device/deviceUpdateIccid (English: one line accepted, a malformed one and someone else's IMEI refused
// with their reasons), then downloads its devices' ICCIDs and card numbers from /index/device/deviceExportIccid
// (Chinese interface) as xlsx. Screenshots: customer-iccid-<screen>.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
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

const PASSWORD = 'Customer-pass-1';
const stamp = String(Date.now()).slice(-6);
const MINE = `86${stamp}0000501`;
const OTHERS = `86${stamp}0000502`;
const ICCID = `8986${stamp}0000000501`;
const MSISDN = `139${stamp}01`;

describe('customer ICCID screens in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    const admin = await browser.newPage();
    await loginAs(admin, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/home');
    const agent = await apiPost<{ id: string }>(admin, '/user/insertUser', {
      username: 'iccid-agent',
      password: PASSWORD,
      role: 2,
    });
    expect(agent.meta.success, agent.meta.message).toBe(true);
    await completeFirstSignIn(platform.baseUrl, 'iccid-agent', PASSWORD);
    for (const [imei, userId] of [
      [MINE, agent.data.id],
      [OTHERS, undefined],
    ] as const) {
      const res = await apiPost(admin, '/device/import', {
        text: imei,
        protocol: 2,
        deviceType: 12,
        wait: true,
        ...(userId ? { userId } : {}),
      });
      expect(res.meta.success, res.meta.message).toBe(true);
    }
    const cards = await apiPost(admin, '/card/import', {
      text: `${ICCID},460001234567501,${MSISDN},CMCC,1G,2026-01-01,2027-06-30,active`,
      wait: true,
    });
    expect(cards.meta.success, cards.meta.message).toBe(true);
    await admin.close();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  async function signIn(locale: string): Promise<Page> {
    const context = await browser.newContext({ locale, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await loginAs(page, platform.baseUrl, 'iccid-agent', PASSWORD);
    await page.waitForURL('**/index/**');
    return page;
  }

  it('an agent sets its device’s ICCID in a batch (English); other IMEIs and bad lines are refused', async () => {
    const page = await signIn('en-US');
    try {
      await page.goto(`${platform.baseUrl}/index/device/deviceUpdateIccid`);
      await page.getByTestId('iccid-text').fill(`${MINE}\t${ICCID}\n${OTHERS},${ICCID}\n${MINE} nonsense`);
      await page.getByTestId('iccid-submit').click();
      const counts = page.getByTestId('import-counts');
      await counts.waitFor();
      const text = (await counts.innerText()).replace(/\s+/g, ' ');
      expect(text).toMatch(/Success 1\b/);
      expect(text).toMatch(/Failure 1\b/);
      expect(text).toMatch(/Unqualified 1\b/);
      expect(await page.locator('.ant-table').innerText()).toContain(OTHERS);
      await screenshot(page, 'customer-iccid-update-en');
    } finally {
      await page.context().close();
    }
  });

  it('the agent exports its devices’ ICCIDs and card numbers as xlsx (Chinese)', async () => {
    const page = await signIn('zh-CN');
    try {
      await page.goto(`${platform.baseUrl}/index/device/deviceExportIccid`);
      await expect.poll(() => page.locator('.ant-card-head').first().innerText()).toContain('ICCID导出');
      await screenshot(page, 'customer-iccid-export-cn');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('iccid-export').click()]);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
      const rows: string[] = [];
      book.worksheets[0]?.eachRow((row) => {
        rows.push((row.values as unknown[]).slice(1).map(String).join('|'));
      });
      const mine = rows.find((r) => r.includes(MINE));
      expect(mine).toContain(ICCID);
      expect(mine).toContain(MSISDN);
      expect(rows.some((r) => r.includes(OTHERS))).toBe(false);
    } finally {
      await page.context().close();
    }
  });
});
