// Issue 18 in Chromium against `npm start`: a phone (OsmAnd HTTP protocol, posted with a real HTTP client to
// OSMAND_PORT) is shared from the share screen; the link opens anonymously in a fresh browser context (no cookie),
// shows the device and follows its next fix without a reload; revoking it turns the open page into the "revoked"
// page. The maintenance screen adds a reminder through its form and lists it as overdue, then in the fleet's
// due list.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  apiPost,
  launchBrowser,
  loginAs,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

const PHONE = 'e2ephone18001';

describe('share links and maintenance in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let anonymous: BrowserContext;

  const fix = async (lat: number, lon: number, secondsAgo: number) => {
    const ts = Math.floor(Date.now() / 1000) - secondsAgo;
    const res = await fetch(
      `http://127.0.0.1:${platform.osmandPort}/?id=${PHONE}&lat=${lat}&lon=${lon}&timestamp=${ts}&speed=10&batt=70`,
      { method: 'POST' },
    );
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/home');
    const imported = await apiPost(page, '/device/import', { text: PHONE, protocol: 0, deviceType: 12, wait: true });
    expect(imported.meta.success, imported.meta.message).toBe(true);
    await fix(39.90111, 116.39111, 120);
    anonymous = await browser.newContext({ locale: 'en-US', viewport: { width: 900, height: 700 } });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('shares a device; the link opens without an account and follows the device live until revoked', async () => {
    await page.goto(`${platform.baseUrl}/index/share?terminalID=${PHONE}`);
    await page.getByTestId('share-create').click();
    const link = page.getByTestId('share-link');
    await link.waitFor({ timeout: 60_000 });
    const url = await link.inputValue();
    expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);

    const viewer = await anonymous.newPage();
    expect(await anonymous.cookies()).toEqual([]);
    await viewer.goto(url);
    const position = viewer.getByTestId('share-position');
    await expect.poll(() => position.textContent(), { timeout: 60_000 }).toBe('39.90111, 116.39111');
    expect(viewer.url()).toBe(url);
    await expect.poll(() => viewer.getByTestId('share-name').textContent()).toBe('Live location');

    // The phone moves: the open page follows without a reload.
    await fix(39.91222, 116.40222, 30);
    await expect.poll(() => position.textContent(), { timeout: 60_000 }).toBe('39.91222, 116.40222');
    await screenshot(viewer, 'share-public-page');

    // Listed on the device with who made it; revoked from there.
    const row = page.getByTestId('share-list').locator('tbody tr').first();
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('admin');
    await row.getByRole('button').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('Revoked');
    await expect
      .poll(
        () =>
          viewer
            .getByTestId('share-state')
            .textContent()
            .catch(() => null),
        { timeout: 60_000 },
      )
      .toBe('This link was revoked');
    expect(await viewer.getByTestId('share-position').count()).toBe(0);
  });

  it('adds a maintenance reminder and lists it as overdue, also in the fleet’s due list', async () => {
    await page.goto(`${platform.baseUrl}/index/maintenance?terminalID=${PHONE}`);
    await page.getByTestId('maintenance-add').click();
    await page.getByTestId('maintenance-name').fill('Oil change');
    await page.getByTestId('maintenance-due-km').fill('0');
    await page.locator('.ant-modal .ant-btn-primary').click();
    const items = page.getByTestId('maintenance-items');
    await expect
      .poll(() => items.locator('tbody tr').first().textContent(), { timeout: 30_000 })
      .toContain('Oil change');
    await expect.poll(() => items.getByTestId('maintenance-status-overdue').count()).toBe(1);

    await page.goto(`${platform.baseUrl}/index/maintenance`);
    const due = page.getByTestId('maintenance-due-list');
    await expect.poll(() => due.locator('tbody tr').first().textContent(), { timeout: 30_000 }).toContain('Oil change');
    await expect.poll(() => due.getByTestId('maintenance-status-overdue').count()).toBe(1);
    await screenshot(page, 'maintenance-due-list');
  });
});
