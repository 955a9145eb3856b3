// The factory's log and tool screens in Chromium against `npm start`, with a GT06 tracker over real TCP from
// the simulator: a test-role user (Chinese interface, spec §1) checks the tracker on the GW005 page, captures
// its raw frames, follows a command task to success in cmdTask's progress view, reads its connection history and
// sets its NB-IoT id; a log-role user (English) reads the system and audit logs. Screenshots: factory-<screen>.
import type { SimulatedDevice } from '@carhere/simulator';
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

const IMEI = '868120000077001';
const PASSWORD = 'Factory-pass-1';

describe('factory log screens in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let admin: Page;
  let tracker: SimulatedDevice;
  let tester: Page;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    ({ page: admin, tracker } = await adminWithTracker(platform, browser, IMEI));
    for (const [username, role] of [
      ['fl-test', 5],
      ['fl-log', 8],
    ] as const) {
      const res = await apiPost(admin, '/user/insertUser', { username, password: PASSWORD, role });
      expect(res.meta.success, res.meta.message).toBe(true);
      await completeFirstSignIn(platform.baseUrl, username, PASSWORD);
    }
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    tester = await context.newPage();
    await loginAs(tester, platform.baseUrl, 'fl-test', PASSWORD);
    await tester.getByTestId('factory-shell').waitFor();
  });
  afterAll(async () => {
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
  });

  it('GW005 page: the tracker is registered and online, with no QC record yet (Chinese interface)', async () => {
    tracker.sendFix(tracker.o.track.next(5));
    await tester.goto(`${platform.baseUrl}/test/search`);
    await tester.getByTestId('gw005-imei').fill(IMEI);
    await expect
      .poll(
        async () => {
          await tester.getByTestId('gw005-search').click();
          return tester.getByTestId('gw005-position').textContent();
        },
        { timeout: 20_000 },
      )
      .toMatch(/39\.\d+, 116\.\d+/);
    expect(await tester.getByTestId('gw005-registered').textContent()).toBe('是');
    expect(await tester.getByTestId('gw005-online').textContent()).toBe('是');
    expect(await tester.getByTestId('gw005-qc').textContent()).toBe('无质检记录');
    await screenshot(tester, 'factory-gw005');
  });

  it('device log: capture shows each new frame in hex with its decoded JSON', async () => {
    await tester.goto(`${platform.baseUrl}/test/log/search`);
    await tester.getByTestId('log-imei').fill(IMEI);
    await tester.getByTestId('log-search').click();
    await tester.getByTestId('capture-start').click();
    await expect.poll(() => tester.getByTestId('capture-state').textContent()).toContain('抓取中');
    // The gateway follows the switch over the bus; fixes sent from now on are captured.
    await expect
      .poll(
        async () => {
          tracker.sendFix(tracker.o.track.next(5));
          return tester.getByTestId('frame-hex').count();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    expect(await tester.getByTestId('frame-hex').first().textContent()).toMatch(/^7878/);
    await screenshot(tester, 'factory-log-capture');
    await tester.getByTestId('capture-stop').click();
    await expect.poll(() => tester.getByTestId('capture-state').textContent()).toBe('未在抓取');
  });

  it('cmdTask: a command task reaches success in the shared progress view', async () => {
    const created = await apiPost<{ id: string }>(admin, '/task/create', {
      content: 'WHERE#',
      terminalIDs: [IMEI],
      area: 'factory',
    });
    expect(created.meta.success, created.meta.message).toBe(true);
    await tester.goto(`${platform.baseUrl}/test/log/cmdTask`);
    await tester.getByTestId(`task-row-${created.data.id}`).click();
    await tester.getByTestId('task-progress').waitFor();
    await expect
      .poll(() => tester.getByTestId('task-count-success').getAttribute('data-count'), { timeout: 20_000 })
      .toBe('1');
    await screenshot(tester, 'factory-cmd-task');
  });

  it('deviceState and idManager', async () => {
    await tester.goto(`${platform.baseUrl}/test/log/deviceState`);
    await tester.getByTestId('state-imei').fill(IMEI);
    await tester.getByTestId('state-search').click();
    expect(await tester.getByTestId('state-online').textContent()).toBe('在线');
    expect(await tester.getByTestId('state-intervals').textContent()).toContain('127.0.0.1');

    await tester.goto(`${platform.baseUrl}/test/idManager`);
    await tester.getByTestId('id-imei').fill(IMEI);
    await tester.getByTestId('id-nb').fill('nb-e2e-1');
    await tester.getByTestId('id-save').click();
    await expect.poll(() => tester.getByTestId('id-table').textContent()).toContain('nb-e2e-1');
    // The import runs as a job: its counts, and the refused line with its reason.
    await tester.getByTestId('nbIds-text').fill('868120000000000,nb-x\n');
    await tester.getByTestId('nbIds-start').click();
    await expect.poll(() => tester.getByTestId('import-counts').textContent(), { timeout: 20_000 }).toContain('失败');
    await expect.poll(() => tester.getByTestId('id-manager-page').textContent()).toContain('该IMEI未注册');
    await screenshot(tester, 'factory-id-manager');
  });

  it('monitor: a log user reads the system log and the audit log in English', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await loginAs(page, platform.baseUrl, 'fl-log', PASSWORD);
    await page.getByTestId('factory-shell').waitFor();
    await page.goto(`${platform.baseUrl}/test/log/monitor`);
    await page.getByTestId('system-log-page').waitFor();
    expect(await page.getByRole('tab', { name: 'System log' }).count()).toBe(1);
    // Live tail: with it on, a warning the server logs now (a refused NB-IoT push: no callback token is set)
    // appears in the table without a search or a reload.
    await page.getByTestId('system-log-live').click();
    expect(await page.getByTestId('system-log-table').textContent()).not.toContain('NB-IoT push refused');
    const push = await fetch(`${platform.baseUrl}/api/nb/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ notifyType: 'deviceDataChanged', deviceId: 'nb-live-tail' }),
    });
    expect(push.status).toBe(403);
    await expect
      .poll(() => page.getByTestId('system-log-table').textContent(), { timeout: 20_000 })
      .toContain('NB-IoT push refused');
    await screenshot(page, 'factory-monitor-live');
    await page.getByRole('tab', { name: 'Audit log' }).click();
    // The admin's writes (user creation) are in the audit log.
    await expect.poll(() => page.getByTestId('audit-log').textContent()).toContain('/api/user/insertUser');
    await screenshot(page, 'factory-monitor');
    // Retention per log kind: set the device log to 45 days; it is what the server keeps after a reload.
    await page.getByRole('tab', { name: 'Retention' }).click();
    await expect.poll(() => page.getByTestId('retention-deviceLog').inputValue()).toBe('90');
    await page.getByTestId('retention-deviceLog').fill('45');
    await page.getByTestId('retention-save-deviceLog').click();
    await expect.poll(() => page.getByTestId('retention-save-deviceLog').isDisabled()).toBe(true);
    await page.reload();
    await page.getByRole('tab', { name: 'Retention' }).click();
    await expect.poll(() => page.getByTestId('retention-deviceLog').inputValue()).toBe('45');
    expect(await page.getByTestId('retention-tab').textContent()).toContain('Device log');
    await screenshot(page, 'factory-retention');
    await context.close();
  });
});
