// Issue 7 (alarms, fences, commands) in Chromium against `npm start` with the demo fleet: a tracker of ours
// (registered through the API, driven by the simulator over real TCP) raises an SOS alarm that is marked read
// with confirmation; a circle fence is drawn on the map, linked to devices and refused deletion while they are
// linked; a live command to a second tracker that receives it over TCP but never answers times out (the
// server's command timeout is set short with COMMAND_TIMEOUT_MS, nothing is mocked) and is kept as an offline
// command from the dialog the timeout opens; a command to the first tracker once it is offline becomes an
// offline command, delivered when it reconnects. Screenshots: features-fence-editor, features-command-timeout.
import { SimulatedDevice, VehicleTrack } from '@carhere/simulator';
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

const IMEI = '868120000099001';
const DEMO_IMEI = '868120000000000';
/** Registered, connected once (activated) and never sent a fix; and registered, never connected. */
const QUIET_IMEI = '868120000099003';
const STOCK_IMEI = '868120000099004';
/** A tracker that receives commands and never answers them. */
const SILENT_IMEI = '868120000099002';
/** The server's live-command timeout for this suite (COMMAND_TIMEOUT_MS). */
const COMMAND_TIMEOUT_MS = 3_000;

/** Picks an option of an antd select by the text it shows. */
async function pickOption(page: Page, selectTestId: string, text: string): Promise<void> {
  await page.getByTestId(selectTestId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

/** The value of an antd InputNumber by its test id (on the input or on its wrapper). */
async function inputNumberValue(page: Page, testId: string): Promise<number> {
  return page.evaluate((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`);
    const input = el instanceof HTMLInputElement ? el : el?.querySelector('input');
    return Number(input?.value);
  }, testId);
}

describe('alarms, fences and commands in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let tracker: SimulatedDevice;
  const track = new VehicleTrack({ centerLat: 39.915, centerLon: 116.404, radiusKm: 2, maxSpeed: 40 });
  let silent: SimulatedDevice | undefined;

  beforeAll(async () => {
    platform = await startPlatform({ DEMO: '1', COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) });
    browser = await launchBrowser();
    ({ page, tracker } = await adminWithTracker(platform, browser, IMEI, track));
  });
  afterAll(async () => {
    silent?.stop();
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
  });

  it('monitoring tabs: an activated device that never sent a fix is offline, a never-connected one inactive', async () => {
    for (const imei of [QUIET_IMEI, STOCK_IMEI]) {
      const imported = await apiPost<{ state: string }>(page, '/device/import', {
        text: imei,
        protocol: 2,
        deviceType: 12,
        wait: true,
      });
      expect(imported.meta.success, imported.meta.message).toBe(true);
    }
    // Logs in over TCP (the first connection activates it) and leaves without a single position.
    const quiet = new SimulatedDevice({
      protocol: 'gt06',
      terminalId: QUIET_IMEI,
      host: '127.0.0.1',
      port: platform.gt06Port,
      track: new VehicleTrack({ centerLat: 39.9, centerLon: 116.4, radiusKm: 1, maxSpeed: 10 }),
    });
    await quiet.connect();
    quiet.stop();
    const stateOf = async (imei: string) =>
      (await apiPost<{ online: boolean; state: string; utcTime: string | null }[]>(page, '/location/find', [imei]))
        .data[0];
    await expect.poll(async () => (await stateOf(QUIET_IMEI)).online, { timeout: 20_000 }).toBe(false);
    expect(await stateOf(QUIET_IMEI)).toMatchObject({ state: 'lx', utcTime: null });
    expect(await stateOf(STOCK_IMEI)).toMatchObject({ state: 'wjh', utcTime: null });

    await page.goto(`${platform.baseUrl}/index/home`);
    await page.getByTestId('device-row').first().waitFor({ timeout: 20_000 });
    const rows = () =>
      page.getByTestId('device-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-terminal-id')));
    await page.getByTestId('device-search').fill('86812000009900');
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          ['all', 'online', 'offline', 'unactivated', 'expired'].map(
            async (tab) => [tab, Number(await page.getByTestId(`device-count-${tab}`).textContent())] as const,
          ),
        ),
      );
    const before = await counts();
    expect(before.unactivated).toBeGreaterThanOrEqual(1);
    await page.getByTestId('device-tab-offline').click();
    await expect.poll(rows).toContain(QUIET_IMEI);
    expect(await rows()).not.toContain(STOCK_IMEI);
    expect(await page.locator(`[data-terminal-id="${QUIET_IMEI}"]`).textContent()).toContain('Offline');
    await page.getByTestId('device-tab-unactivated').click();
    await expect.poll(rows).toEqual([STOCK_IMEI]);
    expect(await page.locator(`[data-terminal-id="${STOCK_IMEI}"]`).textContent()).toContain('Inactive');
    await page.getByTestId('device-tab-all').click();
    await page.getByTestId('device-search').fill('');
  });

  it('receives an alarm, marks it read with confirmation and unread again', async () => {
    tracker.sendFix(track.next(5));
    tracker.sendFix(track.next(5), 'sos');
    await expect.poll(() => tracker.stats.acked, { timeout: 10_000 }).toBe(2);

    await page.goto(`${platform.baseUrl}/index/alarms`);
    const row = page.locator('[data-testid="alarm-table"] tr').filter({ hasText: IMEI });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(await row.getByTestId('alarm-name').textContent()).toContain('SOS');
    expect(await row.getByTestId('alarm-unread').count()).toBe(1);

    await row.getByTestId('alarm-read-button').click();
    await page.getByTestId('alarm-read-confirm').click();
    // The unread list no longer holds it; the server has it read.
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    const stored = await apiPost<{ list: { read: boolean; alarmType: number }[] }>(page, '/deviceAlarms/findAll', {
      terminalID: IMEI,
      pageNum: 1,
      pageSize: 10,
    });
    expect(stored.data.list.map((a) => [a.alarmType, a.read])).toEqual([[1, true]]);

    // Read alarms can be marked unread again (/deviceAlarms/update) from the same screen.
    await page.getByTestId('alarm-read-filter').getByText('Read', { exact: true }).click();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await row.getByTestId('alarm-unread-button').click();
    await page.getByText('1 alarm(s) marked as unread').waitFor();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    const reopened = await apiPost<{ list: { read: boolean; alarmType: number }[] }>(page, '/deviceAlarms/findAll', {
      terminalID: IMEI,
      pageNum: 1,
      pageSize: 10,
    });
    expect(reopened.data.list.map((a) => [a.alarmType, a.read])).toEqual([[1, false]]);
  });

  it('draws a circle fence on the map, links devices, and refuses to delete it while they are linked', async () => {
    await page.goto(`${platform.baseUrl}/index/fence`);
    await page.getByTestId('fence-new').click();
    await page.getByTestId('fence-name').fill('Depot');
    const map = await page.getByTestId('map').boundingBox();
    if (!map) throw new Error('no map');
    const cx = map.x + map.width / 2;
    const cy = map.y + map.height / 2;
    await page.mouse.click(cx, cy);
    await page.mouse.move(cx + 60, cy, { steps: 4 });
    await page.mouse.click(cx + 120, cy);
    await expect.poll(() => page.getByTestId('fence-geometry').textContent()).toMatch(/^Centre 39\.\d+, 116\.\d+$/);
    const radius = await inputNumberValue(page, 'fence-radius');
    expect(radius).toBeGreaterThanOrEqual(100);
    expect(radius).toBeLessThanOrEqual(1_000_000);
    await pickOption(page, 'fence-devices', IMEI);
    await page.getByTestId('fence-name').click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await screenshot(page, 'features-fence-editor');
    await page.getByTestId('fence-save').click();

    const row = page.locator('[data-testid="fence-table"] tr').filter({ hasText: 'Depot' });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.getByTestId('fence-devices-button').textContent()).toContain('1');
    const fences = await apiPost<{ list: { id: string; shape: string; radius: number; alarmType: string }[] }>(
      page,
      '/fence/find',
      { name: 'Depot' },
    );
    expect(fences.data.list).toHaveLength(1);
    expect(fences.data.list[0]).toMatchObject({ shape: 'circle', radius, alarmType: 'inOut' });

    // Link a demo device too, from the fence's device list.
    await row.getByTestId('fence-devices-button').click();
    await pickOption(page, 'fence-assign-select', DEMO_IMEI);
    await page.getByTestId('fence-assign-submit').click();
    await expect
      .poll(() => page.locator('[data-testid="fence-device-table"] tbody tr.ant-table-row').count(), {
        timeout: 10_000,
      })
      .toBe(2);
    const linked = await apiPost<{ total: number }>(page, '/fence/findDevices', { id: fences.data.list[0].id });
    expect(linked.data.total).toBe(2);
    await page.locator('.ant-modal-close').click();
    await page.locator('.ant-modal:visible').waitFor({ state: 'hidden' });

    await row.getByTestId('fence-delete').click();
    await page.getByTestId('fence-delete-confirm').click();
    await expect
      .poll(() => page.locator('.ant-message').textContent(), { timeout: 10_000 })
      .toContain('The fence still has devices; remove them before deleting it');
    expect(await row.count()).toBe(1);
  });

  it('a live command the device never answers times out, and the dialog keeps it as an offline command', async () => {
    const imported = await apiPost<{ state: string }>(page, '/device/import', {
      text: SILENT_IMEI,
      protocol: 2,
      deviceType: 12,
      wait: true,
    });
    expect(imported.meta.success, imported.meta.message).toBe(true);
    const silentTrack = new VehicleTrack({ centerLat: 39.93, centerLon: 116.38, radiusKm: 1, maxSpeed: 30 });
    const device = new SimulatedDevice({
      protocol: 'gt06',
      terminalId: SILENT_IMEI,
      host: '127.0.0.1',
      port: platform.gt06Port,
      track: silentTrack,
      replyTo: () => null,
    });
    silent = device;
    await device.connect();
    device.sendFix(silentTrack.next(5));
    await expect.poll(() => device.stats.acked, { timeout: 10_000 }).toBe(1);

    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${SILENT_IMEI}`);
    await expect.poll(() => page.getByTestId('command-device-state').textContent(), { timeout: 15_000 }).toBe('Online');
    await page.getByTestId('command-item-status').click();
    expect(await page.getByTestId('command-preview').textContent()).toBe('STATUS#');
    await page.getByTestId('command-send').click();

    // The gateway wrote the command to the device's socket; no reply comes, so the server's timer answers.
    await expect.poll(() => device.stats.commands, { timeout: 10_000 }).toBe(1);
    const save = page.getByTestId('command-save-offline');
    await save.waitFor({ timeout: COMMAND_TIMEOUT_MS + 15_000 });
    expect(await page.getByTestId('command-outcome-timeout').count()).toBe(1);
    expect(await page.locator('.ant-modal-confirm:visible').textContent()).toContain(
      'The command timed out. Save it as an offline command, sent when the device next connects?',
    );
    const timedOut = await apiPost<{ list: { content: string; status: string; mode: string; result: number }[] }>(
      page,
      '/command/find',
      { terminalID: SILENT_IMEI, pageNum: 1, pageSize: 10 },
    );
    expect(timedOut.data.list.map((c) => [c.content, c.mode, c.status, c.result])).toEqual([
      ['STATUS#', 'live', 'timeout', 2],
    ]);
    await screenshot(page, 'features-command-timeout');

    await save.click();
    await page.locator('.ant-modal-confirm:visible').waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: /Offline commands \(1\)/ }).click({ timeout: 10_000 });
    const offline = page.locator('[data-testid="command-offline"] tr').filter({ hasText: 'STATUS#' });
    await expect.poll(() => offline.count(), { timeout: 10_000 }).toBe(1);
    // The same command, now an offline one; each command goes out once per connection, so it is sent again
    // when the device next connects.
    const open = await apiPost<{ content: string; mode: string; status: string }[]>(page, '/command/findAndOffline', {
      terminalID: SILENT_IMEI,
    });
    expect(open.data.map((c) => [c.content, c.mode])).toEqual([['STATUS#', 'offline']]);
    expect(['pending', 'sent']).toContain(open.data[0].status);
    expect(device.stats.commands).toBe(1);
    device.stop();
    await device.connect();
    await expect.poll(() => device.stats.commands, { timeout: 15_000 }).toBe(2);
    device.stop();
  });

  it('sends a command to an offline device: it becomes an offline command, delivered when the device returns', async () => {
    tracker.stop();
    await expect
      .poll(
        async () =>
          (await apiPost<{ online: boolean }[]>(page, '/location/find', { terminalIDs: [IMEI] })).data[0]?.online,
        {
          timeout: 20_000,
        },
      )
      .toBe(false);

    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${IMEI}`);
    await expect
      .poll(() => page.getByTestId('command-device-state').textContent(), { timeout: 15_000 })
      .toBe('Offline');
    await page.getByTestId('command-item-status').click();
    expect(await page.getByTestId('command-preview').textContent()).toBe('STATUS#');
    await page.getByTestId('command-send').click();
    await page.getByTestId('command-outcome-queued').waitFor({ timeout: 15_000 });

    await page.getByRole('tab', { name: /Offline commands \(1\)/ }).click({ timeout: 10_000 });
    const offline = page.locator('[data-testid="command-offline"] tr').filter({ hasText: 'STATUS#' });
    await expect.poll(() => offline.count()).toBe(1);
    expect(await offline.getByTestId('command-status-pending').count()).toBe(1);

    // The device comes back: the gateway delivers the stored command and the device's reply answers it.
    await tracker.connect();
    await expect.poll(() => tracker.stats.commands, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await page.getByRole('tab', { name: 'Command records' }).click();
    const record = page.locator('[data-testid="command-records"] tr').filter({ hasText: 'STATUS#' });
    await expect.poll(() => record.getByTestId('command-status-answered').count(), { timeout: 20_000 }).toBe(1);
  });
});
