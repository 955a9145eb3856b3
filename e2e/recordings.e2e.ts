// Issue 21 recordings in Chromium against `npm start`: the admin tells a JT/T 808 tracker (the simulator, over
// real TCP) to record audio from the command screen; the tracker uploads a WAV file in sub-packages; the command
// record links to the recording, which the browser loads (its length read by Chromium's own decoder) and
// downloads; the command screen's Recordings tab lists it; a test-role user finds it on the tape download screen.
// Beside it: the alarm screen asks the export count (/deviceAlarms/exportCount) before it exports, and wanweiTest
// users see their device-type lists (spec §6) in the transfer-IP result screen's model filter.
import { statSync } from 'node:fs';
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

const TERMINAL = '13900021001';
const PASSWORD = 'Tape-pass-1';

/** The length (s) Chromium reads from an <audio> element's file once its metadata has loaded. */
async function audioSeconds(page: Page, testId: string): Promise<number> {
  return page.getByTestId(testId).evaluate(
    (el) =>
      new Promise<number>((resolve, reject) => {
        const audio = el as HTMLAudioElement;
        audio.addEventListener('loadedmetadata', () => resolve(audio.duration), { once: true });
        audio.addEventListener('error', () => reject(new Error(`audio error ${audio.error?.code}`)), { once: true });
        audio.preload = 'metadata';
        audio.load();
      }),
  );
}

describe('recordings in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let tracker: SimulatedDevice;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/home');
    const imported = await apiPost(page, '/device/import', { text: TERMINAL, protocol: 1, deviceType: 8, wait: true });
    expect(imported.meta.success, imported.meta.message).toBe(true);
    tracker = new SimulatedDevice({
      protocol: 'jt808',
      terminalId: TERMINAL,
      host: '127.0.0.1',
      port: platform.jt808Port,
      track: new VehicleTrack({ centerLat: 22.54, centerLon: 114.05, radiusKm: 2, maxSpeed: 40 }),
      recordSecondsMax: 2,
    });
    await tracker.connect();
  });
  afterAll(async () => {
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
  });

  it('records audio from the command screen; the record links to a recording the browser plays and saves', async () => {
    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${TERMINAL}`);
    await page.getByTestId('command-item-recordAudio').click();
    await page.getByTestId('command-field-999|0|30|60|120|180|240|300').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^30$/ }).click();
    await expect.poll(() => page.getByTestId('command-preview').textContent()).toBe('LY,30#');
    await page.getByTestId('command-send').click();
    await page.getByTestId('command-outcome-success').waitFor();

    // The records refresh every 5 s; the recording arrives after the reply.
    const linked = page.getByTestId('command-records').locator('[data-testid^="command-recording-"]');
    await linked.first().waitFor({ timeout: 30_000 });
    const audioId = await linked.first().locator('audio').getAttribute('data-testid');
    expect(await audioSeconds(page, audioId as string)).toBeCloseTo(2, 1);
    await screenshot(page, 'recordings-command-records');

    await page.getByRole('tab', { name: 'Recordings' }).click();
    const table = page.getByTestId('recordings-table');
    await table.locator('tbody tr.ant-table-row').first().waitFor();
    const row = table.locator('tbody tr.ant-table-row').first();
    expect(await row.textContent()).toContain('0:02');
    expect(await row.textContent()).toContain('LY,30#');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.locator('[data-testid^="recording-download-"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${TERMINAL}-\\d{8}T\\d{6}-\\d+\\.wav$`));
    const path = await download.path();
    expect(statSync(path).size).toBe(16_044);
  });

  it('the alarm export asks the export count first: nothing to export is said at once (spec §7)', async () => {
    await page.goto(`${platform.baseUrl}/index/alarms`);
    await page.getByTestId('alarm-export').click();
    await page.locator('.ant-message').getByText('No alarms to export').waitFor();
  });

  it("wanweiTest's device-type lists (spec §6) in the transfer-IP result screen's model filter", async () => {
    const modelsOf = async (username: string): Promise<string[]> => {
      const created = await apiPost(page, '/user/insertUser', { username, password: PASSWORD, role: 7 });
      expect(created.meta.success, created.meta.message).toBe(true);
      await completeFirstSignIn(platform.baseUrl, username, PASSWORD);
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
      const ww = await context.newPage();
      await loginAs(ww, platform.baseUrl, username, PASSWORD);
      await ww.getByTestId('factory-shell').waitFor();
      // The filter's options come from /deviceType/list: open it once they have arrived (not before).
      const listed = ww.waitForResponse((r) => r.url().includes('/api/deviceType/list'));
      await ww.goto(`${platform.baseUrl}/test/transferIp/transferIpResult`);
      await listed;
      await ww.getByTestId('tipr-model').click();
      const options = ww.locator('.ant-select-dropdown:visible .ant-select-item-option');
      await options.first().waitFor();
      // The dropdown may re-render while it opens (virtual list, animation): read it once it has settled.
      let names: string[] = [];
      await expect
        .poll(async () => {
          const now = await options.allTextContents();
          const settled = now.length > 0 && now.join('|') === names.join('|');
          names = now;
          return settled;
        })
        .toBe(true);
      await context.close();
      return names;
    };
    // Other wanweiTest users: GW005W only; the named test account: the long model list (the dropdown shows the
    // first entries of it).
    expect(await modelsOf('ww-other')).toEqual(['GW005W']);
    const long = await modelsOf('wanweiTest');
    expect(long.length).toBeGreaterThan(3);
    expect(long).not.toContain('Gt06');
  });

  it('a test-role user finds the recording on the tape download screen', async () => {
    const created = await apiPost(page, '/user/insertUser', { username: 'tape-test', password: PASSWORD, role: 5 });
    expect(created.meta.success, created.meta.message).toBe(true);
    await completeFirstSignIn(platform.baseUrl, 'tape-test', PASSWORD);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const tester = await context.newPage();
    await loginAs(tester, platform.baseUrl, 'tape-test', PASSWORD);
    await tester.getByTestId('factory-shell').waitFor();
    await tester.goto(`${platform.baseUrl}/test/tapeDownload`);
    await tester.getByTestId('tape-imei').fill(TERMINAL.slice(0, 7));
    await tester.getByTestId('tape-search').click();
    const row = tester.getByTestId('recordings-table').locator('tbody tr.ant-table-row').first();
    await expect.poll(async () => ((await row.count()) > 0 ? row.textContent() : '')).toContain(TERMINAL);
    const audioId = await row.locator('audio').getAttribute('data-testid');
    expect(await audioSeconds(tester, audioId as string)).toBeCloseTo(2, 1);
    await screenshot(tester, 'recordings-tape-download');
    await context.close();
  });
});
