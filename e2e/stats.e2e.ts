// Issue 13's screens in Chromium against `npm start`: a GT06 tracker of ours, registered through the API and
// driven over real TCP by the simulator, drives a known route (a leg east, a 20-minute stop, a leg north with an
// SOS and half a minute over 120 km/h, then a final stop). The admin opens every statistics screen and finds
// that drive's figures (mileage within 1% of the great-circle sum, the stop, the trips, the SOS), a drawn chart
// on each charted screen, a past-due row that links to the expiry screen, and an export downloaded as xlsx.
// Its speed limit is set in the device edit drawer. The device is then transferred to an agent, who sees the same mileage and cannot open the past-due report.
// The login page never loads the chart chunk. Screenshots: stats-*.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Fix, SimulatedDevice, VehicleTrack } from '@carhere/simulator';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminWithTracker,
  apiPost,
  completeFirstSignIn,
  launchBrowser,
  loginAs,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

const IMEI = '868120000013013';
/** A JT/T 808 tracker with a battery pack (item 0xEF) that drives through a fence. */
const PACK_IMEI = '13913000013';
const FENCE_NAME = 'Depot 13';
/** The device's name: markup that would run if any screen wrote it as HTML (table, chart, map). */
const NAME = 'Van <img src=x onerror=__xss=13>';
const AGENT = { username: 'e2e-stats-agent', password: 'Agent-pass-13' };
const STEP_S = 10;
const EARTH_M = 6_371_008.8;

/** Great-circle distance in metres (haversine), written here independently of the product's code. */
function haversine(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.sqrt(h));
}

interface Drive {
  fixes: Fix[];
  /** index of the fix sent as an SOS alarm */
  sos: number;
  /** metres of the moving legs (great-circle sum between consecutive fixes) */
  metres: number;
}

/** The known drive, ending a few minutes before `end`: fixes every 10 s. */
function knownDrive(end: number): Drive {
  const fixes: Fix[] = [];
  let lat = 39.9;
  let lon = 116.3;
  let odometer = 0;
  let metres = 0;
  let time = Math.floor((end - 80 * 60_000) / 10_000) * 10_000;
  const push = (speed: number, course: number, acc: boolean) => {
    fixes.push({
      time,
      lat,
      lon,
      speed,
      course,
      altitude: 50,
      satellites: 9,
      mileage: Math.round(odometer),
      acc,
      battery: 90,
    });
    time += STEP_S * 1000;
  };
  const move = (speed: number, course: number) => {
    const d = (speed / 3.6) * STEP_S;
    const prev = { lat, lon };
    if (course === 90) lon += d / ((Math.PI / 180) * EARTH_M * Math.cos((lat * Math.PI) / 180));
    else lat += d / ((Math.PI / 180) * EARTH_M);
    const step = haversine(prev, { lat, lon });
    metres += step;
    odometer += step;
    push(speed, course, true);
  };
  push(0, 90, true);
  for (let i = 0; i < 120; i++) move(60, 90); // 20 min east at 60 km/h
  for (let i = 0; i < 120; i++) push(0, 90, false); // 20 min parked
  let sos = -1;
  for (let i = 0; i < 120; i++) {
    move(i >= 50 && i < 54 ? 130 : 60, 0); // 20 min north, 40 s at 130 km/h
    if (i === 80) sos = fixes.length - 1;
  }
  for (let i = 0; i < 30; i++) push(0, 0, false); // 5 min parked at the end
  return { fixes, sos, metres };
}

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  last: () => unknown,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last answer ${JSON.stringify(last())}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Non-transparent pixels of the first canvas under a test id (ECharts draws on canvas). */
async function paintedPixels(page: Page, testId: string): Promise<number> {
  await page.locator(`[data-testid="${testId}"] canvas`).first().waitFor();
  // ECharts animates in; wait until the drawing settles.
  await page.waitForTimeout(1500);
  return page.evaluate((id) => {
    const canvas = document.querySelector(`[data-testid="${id}"] canvas`) as HTMLCanvasElement | null;
    if (!canvas || canvas.width === 0 || canvas.height === 0) return 0;
    const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 3; i < (data?.length ?? 0); i += 4) if ((data?.[i] ?? 0) > 0) n++;
    return n;
  }, testId);
}

/** The number in a text such as "12.34 km" or "1,234.5 km". */
const numberIn = (text: string) => Number((/[\d,]+(\.\d+)?/.exec(text)?.[0] ?? 'NaN').replaceAll(',', ''));

async function pickDevice(page: Page, testId: string, imei: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.type(imei);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: imei }).first().click();
  await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
}

async function lastSevenDays(page: Page): Promise<void> {
  await page.getByTestId('period').getByText('Last 7 days').click();
}

describe('statistics screens in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let tracker: SimulatedDevice;
  let drive: Drive;
  let packTracker: SimulatedDevice;
  const downloads = mkdtempSync(join(tmpdir(), 'carhere-stats-e2e-'));
  /** Uncaught errors of the admin's page (a screen that crashes shows React Router's error page instead). */
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Statistics roll up as soon as fixes are stored (the default waits 60 s after a device's last fix): the
    // daily rows are advanced batch by batch while the drive streams in, as for a fleet that reports all day,
    // and the screens need not wait out the delay.
    platform = await startPlatform({ STATS_ROLLUP_DELAY_SECONDS: '0' });
    browser = await launchBrowser();
    ({ page, tracker } = await adminWithTracker(platform, browser, IMEI));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const named = await apiPost(page, '/device/update', { terminalID: IMEI, nickname: NAME });
    expect(named.meta.success, named.meta.message).toBe(true);
    drive = knownDrive(Date.now() - 5 * 60_000);
    // The scripted fixes go out as fast as the gateway ACKs them; the SOS goes as an alarm packet.
    let next = 0;
    const script = { next: () => drive.fixes[next++] } as unknown as VehicleTrack;
    (tracker.o as { track: VehicleTrack }).track = script;
    await tracker.sendPositions(drive.sos, 50);
    tracker.sendFix(drive.fixes[next++], 'sos');
    await tracker.sendPositions(drive.fixes.length - next, 50);
    // The daily rows are kept current as positions arrive: wait until the drive is in them.
    const now = Date.now();
    let answer: unknown;
    await waitFor(
      'the daily statistics of the drive',
      async () => {
        const res = await apiPost<{ list: { mileage: number }[] }>(page, '/stat/find', {
          terminalIDs: [IMEI],
          startTime: now - 86_400_000,
          endTime: now,
        });
        answer = res;
        const metres = (res.data?.list ?? []).reduce((s, r) => s + r.mileage, 0);
        return metres > 0.98 * drive.metres ? metres : undefined;
      },
      () => ({ answer, expected: drive.metres, sent: tracker.stats }),
    );
    // The battery-pack tracker: imported, linked to a fence, then out → in (pack faults appear) → out.
    const imported = await apiPost(page, '/device/import', { text: PACK_IMEI, protocol: 1, deviceType: 8, wait: true });
    expect(imported.meta.success, imported.meta.message).toBe(true);
    const fence = await apiPost(page, '/fence/add', {
      name: FENCE_NAME,
      shape: 'circle',
      lat: 22.5,
      lon: 114,
      radius: 300,
      alarmType: 'inOut',
      terminalIDs: [PACK_IMEI],
    });
    expect(fence.meta.success, fence.meta.message).toBe(true);
    packTracker = new SimulatedDevice({
      protocol: 'jt808',
      terminalId: PACK_IMEI,
      host: '127.0.0.1',
      port: platform.jt808Port,
      track: new VehicleTrack({ centerLat: 22.5, centerLon: 114, radiusKm: 1, maxSpeed: 20 }),
    });
    await packTracker.connect();
    const t0 = Math.floor((Date.now() - 40 * 60_000) / 1000) * 1000;
    const packFixes: Fix[] = [];
    for (let i = 0; i < 14; i++) {
      const inside = i >= 4 && i < 10;
      packFixes.push({
        time: t0 + i * 10_000,
        lat: inside ? 22.5 : 22.52,
        lon: 114,
        speed: 20,
        course: 0,
        altitude: 10,
        satellites: 9,
        mileage: 0,
        acc: true,
        battery: 60,
        batteryPack: {
          voltage: 51.2,
          current: 6.5,
          percentage: 64,
          temperature: 27,
          useCount: 412,
          faults: i < 5 ? 0 : i < 8 ? 1 : 0x4001,
        },
      });
    }
    for (const f of packFixes) packTracker.sendFix(f, null);
    await waitFor(
      'the pack tracker’s fixes',
      async () => (packTracker.stats.acked >= packFixes.length ? true : undefined),
      () => packTracker.stats,
      30_000,
    );
  });
  afterAll(async () => {
    tracker?.stop();
    packTracker?.stop();
    await browser?.close();
    await platform?.stop();
    rmSync(downloads, { recursive: true, force: true });
  });

  it('the login page does not load the chart library', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const login = await context.newPage();
    const scripts: string[] = [];
    login.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await login.goto(`${platform.baseUrl}/login`);
    await login.getByTestId('login-submit').waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((u) => /EChart/.test(u))).toEqual([]);
    await context.close();
  });

  it('mileage: the drive within 1% of the great-circle sum, per-day bars drawn, a totals row', async () => {
    await page.goto(`${platform.baseUrl}/index/count/countMileage`);
    const total = page.getByTestId('total-mileage');
    await expect.poll(async () => numberIn((await total.textContent()) ?? ''), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('mileage-table').getByText(IMEI).count()).toBeGreaterThan(0);
    // The name is shown as text; nothing in it ran.
    expect(await page.getByTestId('mileage-table').textContent()).toContain(NAME);
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    const totals = (await page.getByTestId('mileage-totals').textContent()) ?? '';
    expect(totals).toContain('Total');
    expect(await paintedPixels(page, 'mileage-chart')).toBeGreaterThan(500);
    await screenshot(page, 'stats-mileage');
    // Per device: the drive's row within 1%; the total is the sum of the rows (the battery-pack tracker's short
    // drive has a row of its own once its fixes are rolled up).
    await page.getByTestId('mileage-view').getByText('Per device').click();
    const rows = page.locator('[data-testid="mileage-table"] tbody tr.ant-table-row');
    const driveRow = rows.filter({ hasText: IMEI });
    await expect.poll(() => driveRow.count()).toBe(1);
    const km = numberIn((await driveRow.locator('td').nth(1).textContent()) ?? '');
    expect(Math.abs(km * 1000 - drive.metres) / drive.metres).toBeLessThan(0.01);
    const perDevice = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[1]?.textContent ?? ''));
    const sum = perDevice.reduce((s, text) => s + numberIn(text), 0);
    // The total card shows one decimal, the rows two: each rounding is at most half its last digit.
    expect(Math.abs(numberIn((await total.textContent()) ?? '') - sum)).toBeLessThanOrEqual(
      0.05 + 0.005 * perDevice.length + 1e-9,
    );
  });

  it('alarms: the SOS counted by type, the pie drawn, the count links to the alarm list', async () => {
    await page.goto(`${platform.baseUrl}/index/count/countAlarms`);
    const sosRow = page.locator('[data-testid="alarms-table"] tbody tr').filter({ hasText: 'SOS' });
    await sosRow.first().waitFor({ timeout: 30_000 });
    expect(await sosRow.count()).toBe(1);
    expect((await sosRow.locator('td').last().textContent())?.trim()).toBe('1');
    expect(await paintedPixels(page, 'alarms-chart')).toBeGreaterThan(500);
    await screenshot(page, 'stats-alarms');
    await sosRow.locator('td').last().getByRole('link').click();
    await page.waitForURL(/\/index\/alarmsAll\?terminalID=/);
  });

  it('stays: the 20-minute stop is listed and shown on the map when its row is clicked', async () => {
    await page.goto(`${platform.baseUrl}/index/count/countStayDetail`);
    await page.getByText('Choose a device and a date range').first().waitFor();
    await pickDevice(page, 'device-select', IMEI);
    await lastSevenDays(page);
    const stop = page.getByTestId('stay-row').filter({ hasText: /0 h (19|20|21) min/ });
    await stop.first().waitFor({ timeout: 30_000 });
    await stop.first().click();
    await page.getByTestId('stay-detail').waitFor();
    expect(await page.locator('[data-testid="map"] .leaflet-marker-icon').count()).toBeGreaterThan(0);
    await screenshot(page, 'stats-stays');
  });

  it('trips: the two legs with their distance, and the speed over a trip drawn as a line', async () => {
    await page.goto(`${platform.baseUrl}/index/count/countTrips`);
    await pickDevice(page, 'device-select', IMEI);
    await lastSevenDays(page);
    await page.getByTestId('trips-totals').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('trip-row').count()).toBe(2);
    const totals = (await page.getByTestId('trips-totals').textContent()) ?? '';
    expect(totals).toContain('2 trips');
    const km = numberIn(totals.replace(/^\D*2 trips/, '').replace(/^\s*\d+ h \d+ min/, ''));
    expect(Math.abs(km * 1000 - drive.metres) / drive.metres).toBeLessThan(0.03);
    await page.getByTestId('trip-row').nth(1).click();
    expect(await paintedPixels(page, 'speed-chart')).toBeGreaterThan(500);
    await screenshot(page, 'stats-trips');
  });

  it('fence visits: the pack tracker’s visit to the fence, with its hours drawn', async () => {
    await page.goto(`${platform.baseUrl}/index/count/countFenceVisits`);
    const row = page.locator('[data-testid="fence-visits-table"] tbody tr').filter({ hasText: PACK_IMEI });
    await row.first().waitFor({ timeout: 30_000 });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain(FENCE_NAME);
    await page.getByTestId('fence-visits-totals').waitFor();
    expect(await paintedPixels(page, 'fence-visits-chart')).toBeGreaterThan(500);
    await screenshot(page, 'stats-fence-visits');
  });

  it('battery: level, pack voltage and charging state per device, the pack detail, alarms per day drawn', async () => {
    // The pack faults (alarms 50 and 64) reach the daily rows through the roll-up.
    const now = Date.now();
    let last: unknown;
    await waitFor(
      'the battery alarms in the daily rows',
      async () => {
        const res = await apiPost<{ list: { type: number }[] }>(page, '/stat/batteryAlarms', {
          terminalIDs: [PACK_IMEI],
          startTime: now - 86_400_000,
          endTime: now,
        });
        last = res;
        const types = (res.data?.list ?? []).map((r) => r.type).sort((a, b) => a - b);
        return types.join() === '50,64' ? types : undefined;
      },
      () => last,
    );
    await page.goto(`${platform.baseUrl}/index/count/countBattery`);
    const row = page.locator('[data-testid="battery-table"] tbody tr').filter({ hasText: PACK_IMEI });
    await row.first().waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('51.20 V');
    expect(await row.textContent()).toContain('Charging');
    expect(await paintedPixels(page, 'battery-alarms-chart')).toBeGreaterThan(500);
    await row.getByTestId('battery-pack-open').click();
    await page.getByTestId('battery-pack').waitFor();
    expect(await page.getByTestId('battery-pack-voltage').textContent()).toBe('51.20 V');
    expect(await page.getByTestId('battery-pack-state').textContent()).toBe('Charging');
    await screenshot(page, 'stats-battery');
    await page.keyboard.press('Escape');
  });

  it('accounts compared: the admin’s sub-accounts with their totals', async () => {
    await page.goto(`${platform.baseUrl}/index/count/countUsers`);
    await page.locator('[data-testid="users-table"] tbody tr.ant-table-row').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('users-totals').waitFor();
    await screenshot(page, 'stats-users');
  });

  it('no screen threw an uncaught error or ran markup from the device name', async () => {
    expect(pageErrors).toEqual([]);
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  });

  it('past due: the device is listed and its row links to the expiry screen with its IMEI', async () => {
    await page.goto(`${platform.baseUrl}/index/count/countPastDue`);
    await page.getByTestId('pastdue-filter').getByText('All').click();
    const row = page.locator('[data-testid="pastdue-table"] tbody tr').filter({ hasText: IMEI });
    await row.first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'stats-pastdue');
    await row.getByTestId('pastdue-renew').click();
    await page.waitForURL(/\/index\/device\/deviceUpdateTime/);
    expect(await page.getByTestId('imei-lines').inputValue()).toBe(IMEI);
  });

  it('export: a job with progress, then the xlsx downloads with the drive in it', async () => {
    await page.goto(`${platform.baseUrl}/index/count/countExport`);
    await lastSevenDays(page);
    await page.getByTestId('export-start').click();
    const download = page.getByTestId('export-download');
    await download.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('export-progress').textContent()).toMatch(/\d+ rows written/);
    await screenshot(page, 'stats-export');
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const path = join(downloads, 'export.xlsx');
    await file.saveAs(path);
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes);
    const cells: string[] = [];
    book.eachSheet((sheet) => sheet.eachRow((r) => r.eachCell((c) => cells.push(String(c.value)))));
    expect(cells).toContain(IMEI);
  });

  it('speed limit: set in the device edit drawer (spec §9 default shown), read back by the API', async () => {
    await page.goto(`${platform.baseUrl}/index/device/deviceList`);
    const row = page.locator('tr', { hasText: IMEI });
    await row.getByTestId('device-edit').click();
    const field = page.getByTestId('device-speed-limit');
    await expect.poll(() => field.inputValue(), { timeout: 30_000 }).toBe('120');
    await page.getByText('Overspeed: above the limit for 10 s or more (default 120 km/h)').waitFor();
    await field.fill('90');
    await screenshot(page, 'stats-speed-limit');
    await page.getByTestId('device-edit-save').click();
    await page.locator('.ant-drawer-content').waitFor({ state: 'hidden' });
    const read = await apiPost<{ speedLimit: number }>(page, '/device/speedLimit', { terminalID: IMEI });
    expect(read.data.speedLimit).toBe(90);
    await row.getByTestId('device-edit').click();
    await expect.poll(() => page.getByTestId('device-speed-limit').inputValue(), { timeout: 30_000 }).toBe('90');
    await page.keyboard.press('Escape');
    await page.locator('.ant-drawer-content').waitFor({ state: 'hidden' });
  });

  it('an agent who now owns the device sees the same mileage, and no past-due report', async () => {
    const agent = await apiPost<{ id: string }>(page, '/user/insertUser', {
      ...AGENT,
      role: 2,
      nickname: 'Stats agent',
    });
    expect(agent.meta.success, agent.meta.message).toBe(true);
    await completeFirstSignIn(platform.baseUrl, AGENT.username, AGENT.password);
    const moved = await apiPost(page, '/device/transfer', { terminalIDs: [IMEI], userId: agent.data.id });
    expect(moved.meta.success, moved.meta.message).toBe(true);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const agentPage = await context.newPage();
    await loginAs(agentPage, platform.baseUrl, AGENT.username, AGENT.password);
    await agentPage.waitForURL('**/index/**');
    await agentPage.goto(`${platform.baseUrl}/index/count/countMileage`);
    const total = agentPage.getByTestId('total-mileage');
    await expect.poll(async () => numberIn((await total.textContent()) ?? ''), { timeout: 30_000 }).toBeGreaterThan(0);
    const km = numberIn((await total.textContent()) ?? '');
    expect(Math.abs(km * 1000 - drive.metres) / drive.metres).toBeLessThan(0.01);
    expect(await paintedPixels(agentPage, 'mileage-chart')).toBeGreaterThan(500);
    await screenshot(agentPage, 'stats-agent-mileage');
    await agentPage.goto(`${platform.baseUrl}/index/count/countPastDue`);
    await agentPage.waitForURL('**/notFound');
    await context.close();
  });
});
