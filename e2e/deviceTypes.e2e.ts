// Issue 16 (device types as data) and issue 21 (command rules) in Chromium against `npm start`: the admin edits
// the GT06 type's command menu on device/deviceConfig and the command screen changes with it; the work-mode
// form checks its values with the domain rules; a feature the type lacks is disabled on the command and tyre
// screens; an oil cut reply is read with the spec's texts; the device settings drawer stores the settings and
// sends the commands that apply them over real TCP to a simulated tracker, and lists their results; its tank
// volume offers the spec's options (1.0–29.9 L).
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

const IMEI = '868120000088001';

/** Types into an input found by test id (on the input itself or on its wrapper). */
async function fill(page: Page, testId: string, text: string): Promise<void> {
  const el = page.getByTestId(testId);
  const input = (await el.evaluate((n) => n.tagName)) === 'INPUT' ? el : el.locator('input').first();
  await input.fill(text);
}

interface TypeConfig {
  deviceType: number;
  features: Record<string, boolean>;
  [key: string]: unknown;
}

async function setFeatures(page: Page, code: number, features: Record<string, boolean>): Promise<void> {
  const detail = await apiPost<TypeConfig & { edited: boolean; updatedAt: string | null }>(page, '/deviceType/detail', {
    deviceType: code,
  });
  const { edited: _e, updatedAt: _u, ...config } = detail.data;
  const saved = await apiPost(page, '/deviceType/addOrUpdate', {
    ...config,
    features: { ...config.features, ...features },
  });
  expect(saved.meta.success, saved.meta.message).toBe(true);
}

describe('device types and command rules in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let stopTracker: () => void = () => {};

  beforeAll(async () => {
    platform = await startPlatform({ COMMAND_TIMEOUT_MS: '4000' });
    browser = await launchBrowser();
    const started = await adminWithTracker(platform, browser, IMEI);
    page = started.page;
    stopTracker = () => started.tracker.stop();
  });
  afterAll(async () => {
    stopTracker();
    await browser?.close();
    await platform?.stop();
  });

  it("an admin edits the GT06 type's menu and the command screen follows it", async () => {
    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${IMEI}`);
    await page.getByTestId('command-item-version').waitFor();
    expect(await page.getByTestId('command-item-powerOnTimer').count()).toBe(0);

    await page.goto(`${platform.baseUrl}/index/device/deviceConfig`);
    await page.getByTestId('devtype-edit-12').click();
    await page.getByTestId('devtype-remove-version').click();
    await page.getByTestId('devtype-add-command-mode').click();
    await page.keyboard.type('powerOnTimer');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'powerOnTimer' })
      .click();
    await page.getByTestId('devtype-template-powerOnTimer').waitFor();
    await screenshot(page, 'devtypes-config-editor');
    await page.getByTestId('devtype-save').click();
    await page.getByTestId('devtype-save').waitFor({ state: 'detached' });

    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${IMEI}`);
    await page.getByTestId('command-item-powerOnTimer').waitFor();
    expect(await page.getByTestId('command-item-version').count()).toBe(0);
    // The form checks the time with the domain rule (spec §5) before anything is sent.
    await page.getByTestId('command-item-powerOnTimer').click();
    await fill(page, 'command-field-powerOn', '25:00');
    await fill(page, 'command-field-interval', '2');
    await expect.poll(() => page.getByTestId('command-field-problem').textContent()).toBe('Enter a time such as 18:30');
    expect(await page.getByTestId('command-send').isDisabled()).toBe(true);
    await fill(page, 'command-field-powerOn', '18:30');
    await expect.poll(() => page.getByTestId('command-preview').textContent()).toBe('POWERON,1830,2#');
    await page.getByTestId('command-send').click();
    await page.getByTestId('command-outcome-success').waitFor();
  });

  it('disables what the type lacks (spec §8) and reads an oil cut reply with the spec texts', async () => {
    await setFeatures(page, 12, { oilCut: false, tyres: false });
    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${IMEI}`);
    const relay = page.getByTestId('command-item-relayCut');
    await relay.waitFor();
    await expect.poll(() => relay.getAttribute('class')).toContain('ant-menu-item-disabled');
    await page.goto(`${platform.baseUrl}/index/tire?terminalID=${IMEI}`);
    await page.getByTestId('tire-unsupported').waitFor();
    expect(await page.getByTestId('tire-unsupported').textContent()).toContain(
      'The device does not support this feature!',
    );

    await setFeatures(page, 12, { oilCut: true, tyres: true });
    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${IMEI}`);
    await page.getByTestId('command-item-relayCut').click();
    await page.getByTestId('command-send').click();
    const outcome = page.getByTestId('command-outcome-success');
    await outcome.waitFor();
    expect(await outcome.getByTestId('oil-outcome').textContent()).toContain('Set successfully');
    await expect
      .poll(async () => (await page.getByTestId('command-records').getByTestId('oil-outcome').count()) > 0)
      .toBe(true);
  });

  it('the device settings drawer checks the work mode, stores the settings and sends their commands', async () => {
    await page.goto(`${platform.baseUrl}/index/directive?terminalID=${IMEI}`);
    await page.getByTestId('device-settings-open').click();
    await page.getByTestId('settings-field-powerOnTime').waitFor();
    // The tank volume offers the spec's options, 1.0–29.9 L (OIL_VOLUME_OPTIONS_L), and nothing beyond them.
    await page.getByTestId('settings-field-oilVolumeL').click();
    const oilOptions = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => oilOptions.first().textContent(), { timeout: 30_000 }).toBe('1.0 L');
    await page.keyboard.type('29.9');
    await expect.poll(() => oilOptions.allTextContents(), { timeout: 30_000 }).toEqual(['29.9 L']);
    for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('30');
    await expect.poll(() => oilOptions.count(), { timeout: 30_000 }).toBe(0);
    await page.keyboard.press('Escape');
    await fill(page, 'settings-field-timeModeMinutes', '30');
    await fill(page, 'settings-field-powerOnTime', '18:30');
    await fill(page, 'settings-field-intervalHours', '6');
    await page.getByTestId('device-settings-save').click();
    await expect
      .poll(() => page.getByTestId('settings-problem').textContent())
      .toContain('Without mixed mode the device runs one mode only');
    await page.getByTestId('settings-field-mixedMode').click();
    await page.getByTestId('settings-field-powerCut').click();
    await page.getByTestId('device-settings-save').click();
    const results = page.getByTestId('settings-results');
    await results.waitFor();
    await screenshot(page, 'devtypes-settings-drawer');
    expect(await results.getByTestId('settings-result-workMode').count()).toBe(3);
    expect(await results.getByTestId('settings-result-powerCut').textContent()).toContain('POWERALM,ON,0,10,30#');
    expect(await results.locator('.ant-tag').filter({ hasText: 'Success' }).count()).toBe(4);
    const stored = await apiPost<{ items: Record<string, unknown> }>(page, '/order/find', { terminalID: IMEI });
    expect(stored.data.items).toMatchObject({
      timeModeMinutes: 30,
      powerOnTime: '18:30',
      mixedMode: true,
      powerCut: true,
    });
  });
});
