// The device access check (spec §4, §8) in Chromium against `npm start`: a tracker of ours (registered through
// the API, connected and reporting over real TCP from the simulator) gets an expiry in the past through the
// API (/device/updateTime). A command page opened before that still sends, and the server's refusal shows as
// the outcome; after it, the monitoring popup's and the list context menu's command actions show the spec's
// 'expired' message and open no command page, and the command page given the device shows the message
// instead of its command menu. Screenshot: access-expired-command.
import { type SimulatedDevice, VehicleTrack } from '@carhere/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminWithTracker,
  apiPost,
  launchBrowser,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

const IMEI = '868120000099101';
const EXPIRED = "The device has expired, please contact the device's service provider!";

describe('device access check in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let tracker: SimulatedDevice;
  const track = new VehicleTrack({ centerLat: 39.915, centerLon: 116.404, radiusKm: 2, maxSpeed: 40 });

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    ({ page, tracker } = await adminWithTracker(platform, browser, IMEI, track));
  });
  afterAll(async () => {
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
  });

  it("an expired device's command action shows the expired message and opens no command page", async () => {
    tracker.sendFix(track.next(5));
    await expect.poll(() => tracker.stats.acked, { timeout: 10_000 }).toBe(1);

    // A command page opened while the device was still in service.
    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${IMEI}`);
    await expect.poll(() => page.getByTestId('command-device-state').textContent(), { timeout: 15_000 }).toBe('Online');
    await page.getByTestId('command-item-status').click();

    const expiry = await apiPost<unknown>(page, '/device/updateTime', {
      terminalIDs: [IMEI],
      userExpireAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    expect(expiry.meta.success, expiry.meta.message).toBe(true);

    // The page still holds the old list, so it sends; the server refuses and the page shows why.
    await page.getByTestId('command-send').click();
    const outcome = page.getByTestId('command-outcome-error');
    await outcome.waitFor({ timeout: 15_000 });
    expect(await outcome.textContent()).toContain(EXPIRED);
    expect(tracker.stats.commands).toBe(0);

    // Monitoring: the popup's command action answers the message and stays on the map.
    await page.goto(`${platform.baseUrl}/index/home`);
    const row = page.locator(`[data-testid="device-row"][data-terminal-id="${IMEI}"]`);
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    await page.getByTestId('device-popup').waitFor();
    await page.getByTestId('popup-command').click();
    const refused = page.locator('.device-access-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toBe(EXPIRED);
    // The click handler either navigates (a client-side route change, at once) or shows the message.
    expect(new URL(page.url()).pathname).toBe('/index/home');
    expect(await page.getByTestId('command-page').count()).toBe(0);
    // The message slides in; the screenshot waits until it is fully shown.
    await expect
      .poll(() => refused.evaluate((el) => getComputedStyle(el.closest('.ant-message-notice-wrapper') ?? el).opacity))
      .toBe('1');
    await screenshot(page, 'access-expired-command');

    // Device info stays open for it.
    await page.getByTestId('popup-info').click();
    const drawerTitle = page.locator('.ant-drawer-title:visible');
    await expect.poll(() => drawerTitle.textContent()).toBe(IMEI);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawerTitle.count()).toBe(0);

    // The list's context menu refuses the same way.
    await row.click({ button: 'right' });
    await page.getByTestId('list-context-menu').getByText('Command', { exact: true }).click();
    await expect.poll(() => refused.textContent()).toBe(EXPIRED);
    expect(new URL(page.url()).pathname).toBe('/index/home');

    // The command page given the device shows the message instead of its command menu.
    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${IMEI}`);
    const alert = page.getByTestId('command-access-refused');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain(EXPIRED);
    expect(await page.getByTestId('command-menu').count()).toBe(0);
    expect(await page.getByTestId('command-send').count()).toBe(0);
    expect(tracker.stats.commands).toBe(0);
  });
});
