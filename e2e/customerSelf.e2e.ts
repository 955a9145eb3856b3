// Customer self-service in Chromium (issues 16 and 21), against `npm start` with real accounts and a tracker
// over TCP: an end user's "my account" (no Customers menu, its own password), drivers and the driver in the
// monitor popup, the selected device and account surviving a reload, the per-device bulk edit with its preview,
// special-brand hiding and the no-process set from search, batch command results, the help pages, and signing
// in by a device's IMEI (/loginByCert), and the data import for one customer (template, upload, preview,
// import with progress, result counts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedDevice, VehicleTrack } from '@carhere/simulator';
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

const AGENT = { username: 'e2e-cs-agent', password: 'Agent-pass-1', nickname: 'CS Agent Ltd' };
const USER = { username: 'e2e-cs-user', password: 'User-pass-1', nickname: 'CS Customer' };
const IMEI_A = '868120000071001';
const IMEI_B = '868120000071002';
const IMEI_C = '868120000071003';
const IMEI_D = '868120000071004';
const APP_URL = 'https://apps.example.com/carhere.apk';

async function call<T = { id?: string }>(baseUrl: string, cookie: string, path: string, body: unknown) {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, lang: 'en' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { meta: { success: boolean; message: string }; data: T };
}

async function apiLogin(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return String(res.headers.get('set-cookie')).split(';')[0];
}

const rowIds = (page: Page) =>
  page.getByTestId('device-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-terminal-id')).sort());

describe('customer self-service in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let admin: string;
  let tracker: SimulatedDevice;
  let userId: string;
  let agentId: string;
  let agentPage: Page;

  const newPage = async (username: string, password: string) => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await loginAs(page, platform.baseUrl, username, password);
    await page.waitForURL('**/index/home');
    return page;
  };

  beforeAll(async () => {
    platform = await startPlatform({ APP_DOWNLOAD_URL: APP_URL });
    admin = await apiLogin(platform.baseUrl, 'admin', ADMIN_PASSWORD);
    const agent = await call(platform.baseUrl, admin, '/user/insertUser', { ...AGENT, role: 2 });
    expect(agent.meta.success).toBe(true);
    agentId = String(agent.data.id);
    const user = await call(platform.baseUrl, admin, '/user/insertUser', { ...USER, role: 3, parentId: agent.data.id });
    expect(user.meta.success).toBe(true);
    userId = String(user.data.id);
    // Passwords the creator typed are changed at first sign-in (issue 12), as their owners would.
    await completeFirstSignIn(platform.baseUrl, AGENT.username, AGENT.password);
    await completeFirstSignIn(platform.baseUrl, USER.username, USER.password);
    for (const [imeis, owner] of [
      [`${IMEI_A}\n${IMEI_B}`, userId],
      [IMEI_C, String(agent.data.id)],
    ]) {
      const imported = await call<{ state: string }>(platform.baseUrl, admin, '/device/import', {
        text: imeis,
        protocol: 2,
        deviceType: 12,
        userId: owner,
        wait: true,
      });
      expect(imported.meta.success).toBe(true);
    }
    tracker = new SimulatedDevice({
      protocol: 'gt06',
      terminalId: IMEI_A,
      host: '127.0.0.1',
      port: platform.gt06Port,
      track: new VehicleTrack({ centerLat: 39.915, centerLon: 116.404, radiusKm: 2, maxSpeed: 40 }),
    });
    await tracker.connect();
    tracker.startTimer(2);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
  });

  it('an end user has "my account" (name, phone, sound, password) and no Customers menu', async () => {
    const page = await newPage(USER.username, USER.password);
    // The side menu is drawn (its "my account" entry), and it has no Customers entry.
    await page.locator('[data-menu-id$="/index/account"]').waitFor();
    expect(await page.locator('[data-menu-id$="/index/agent/agentList"]').count()).toBe(0);
    await page.getByTestId('current-user').click();
    await page.waitForURL('**/index/account');
    const profile = page.getByTestId('account-profile');
    await profile.locator('#nickname').fill('Zhang San');
    await profile.locator('#telephone').fill('13800138000');
    await page.getByTestId('account-sound').click();
    await page.getByTestId('account-save').click();
    await page.getByText('Saved').first().waitFor();
    await page.reload();
    await expect.poll(() => profile.locator('#telephone').inputValue(), { timeout: 20_000 }).toBe('13800138000');
    expect(await page.getByTestId('account-sound').getAttribute('aria-checked')).toBe('false');
    expect(await page.getByTestId('current-user').textContent()).toContain('Zhang San');
    await screenshot(page, 'custself-my-account');
    const password = page.getByTestId('account-password');
    await password.locator('#oldPassword').fill(USER.password);
    await password.locator('#password').fill('User-pass-2');
    await password.locator('#confirmPassword').fill('User-pass-2');
    await page.getByTestId('account-password-save').click();
    await page.getByText('Password changed').first().waitFor();
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login');
    await loginAs(page, platform.baseUrl, USER.username, 'User-pass-2');
    await page.waitForURL('**/index/home');
    await page.context().close();
  });

  it('an agent keeps drivers, sets a vehicle’s driver, and the monitor popup shows it', async () => {
    agentPage = await newPage(AGENT.username, AGENT.password);
    const page = agentPage;
    await page.goto(`${platform.baseUrl}/index/drivers`);
    await page.getByTestId('driver-add').click();
    await page.getByTestId('driver-name').fill('Li Wei');
    await page.getByTestId('driver-phone').fill('13900001111');
    await page.getByTestId('driver-card').fill('CARD-0001');
    await page.getByTestId('driver-save').click();
    await page.getByRole('cell', { name: 'Li Wei' }).waitFor();
    await page.getByTestId('driver-assign').click();
    await page.getByTestId('driver-assign-imei').fill(IMEI_A);
    await page.getByTestId('driver-assign-select').click();
    await page.locator('.ant-select-item-option', { hasText: 'Li Wei' }).click();
    await page.getByTestId('driver-assign-ok').click();
    await page.getByRole('cell', { name: IMEI_A }).waitFor();
    await screenshot(page, 'custself-drivers');
    await page.goto(`${platform.baseUrl}/index/home`);
    const row = page.locator(`[data-testid="device-row"][data-terminal-id="${IMEI_A}"]`);
    await row.click();
    await expect.poll(() => page.getByTestId('popup-driver').textContent(), { timeout: 20_000 }).toContain('Li Wei');
    // The selected device survives a reload (session key selectedTid).
    await page.reload();
    await expect.poll(() => row.getAttribute('aria-selected'), { timeout: 20_000 }).toBe('true');
  });

  it('bulk edit with a value per device: preview, apply, result per line', async () => {
    const page = agentPage;
    await page.goto(`${platform.baseUrl}/index/device/deviceUpdateDeviceInfo`);
    await page
      .getByTestId('bulk-text')
      .fill(`IMEI\tName\tPlate\tSIM\n${IMEI_A}\tTruck A\t京A12345\n${IMEI_B}\t\t\t123\n868120000079999\tNope`);
    await page.getByTestId('bulk-preview').click();
    await page.getByText('Preview: 1 of 3 lines change').waitFor();
    expect(await page.getByText('Please enter the correct SIM card number').count()).toBe(1);
    await screenshot(page, 'custself-bulk-preview');
    await page.getByTestId('bulk-apply').click();
    await expect
      .poll(() => page.getByTestId('bulk-result').textContent())
      .toContain('1 devices updated, 2 lines failed');
    const found = await apiPost<{ displayName: string; nickname: string }[]>(page, '/location/find', {
      terminalIDs: [IMEI_A],
    });
    expect(found.data[0]).toMatchObject({ displayName: '京A12345', nickname: 'Truck A' });
  });

  it('the account picker narrows the monitor to an account’s subtree, also after a reload', async () => {
    const page = agentPage;
    await page.goto(`${platform.baseUrl}/index/home`);
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([IMEI_A, IMEI_B, IMEI_C]);
    await page.getByTestId('account-picker').click();
    // The search filters the tree: a name nobody has leaves no account; part of the user's name finds it.
    await page.keyboard.type('zz-nobody');
    await expect.poll(() => page.locator('.ant-select-tree-title', { hasText: USER.username }).count()).toBe(0);
    for (let i = 0; i < 'zz-nobody'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type(USER.username.slice(4));
    await expect.poll(() => page.locator('.ant-select-tree-title', { hasText: USER.username }).count()).toBe(1);
    await page.locator('.ant-select-tree-title', { hasText: USER.username }).click();
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([IMEI_A, IMEI_B]);
    await page.reload();
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([IMEI_A, IMEI_B]);
    await page.getByTestId('account-picker').hover();
    await page.locator('[data-testid="account-picker"] .ant-select-clear').click();
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([IMEI_A, IMEI_B, IMEI_C]);
  });

  it('special brand: the admin marks the agent; its monitor hides never-activated devices until searched', async () => {
    const adminPage = await newPage('admin', ADMIN_PASSWORD);
    await adminPage.goto(`${platform.baseUrl}/index/specialBrand`);
    await adminPage.getByTestId('special-search').locator('input').fill(AGENT.username);
    await adminPage.locator('.ant-select-item-option', { hasText: AGENT.username }).click();
    await adminPage.getByTestId(`special-${AGENT.username}`).waitFor();
    await screenshot(adminPage, 'custself-special-brand');

    const page = agentPage;
    await page.reload();
    // B and C never connected (not activated): hidden; A is online.
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([IMEI_A]);
    await page.getByTestId('device-search').fill(IMEI_B);
    await page.getByTestId('search-hidden').click();
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([IMEI_B]);
    await page.getByTestId('device-search').fill('');
    await expect.poll(() => rowIds(page)).toEqual([IMEI_A, IMEI_B]);
    // The no-process set (session key nis) survives a reload.
    await page.reload();
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([IMEI_A, IMEI_B]);

    // Batch command results (the administrator holds main:command_batch).
    const made = await apiPost<{ id: string }>(adminPage, '/task/create', {
      content: 'WHERE#',
      terminalIDs: [IMEI_B, IMEI_C],
      area: 'main',
    });
    expect(made.meta.success).toBe(true);
    await adminPage.goto(`${platform.baseUrl}/index/device/multipleCmdSearch`);
    const results = adminPage.getByTestId('batch-results');
    await expect.poll(() => results.locator('tbody tr.ant-table-row').count(), { timeout: 15_000 }).toBe(2);
    await adminPage.getByTestId('batch-imei').fill(IMEI_C);
    await adminPage.getByTestId('batch-search').click();
    await expect.poll(() => results.locator('tbody tr.ant-table-row').count()).toBe(1);
    const download = adminPage.waitForEvent('download');
    await adminPage.getByTestId('batch-export').click();
    expect((await download).suggestedFilename()).toBe('batch-results.xlsx');
    await screenshot(adminPage, 'custself-batch-results');
    await adminPage.context().close();
  });

  it('help: the user guide with its pictures, and the app download as a link and a QR code', async () => {
    const page = agentPage;
    await page.goto(`${platform.baseUrl}/index/help/pc`);
    await page.getByRole('heading', { name: 'Carhere user guide' }).waitFor();
    await expect.poll(() => page.locator('[data-testid="help-pc"] img').count()).toBeGreaterThan(3);
    await screenshot(page, 'custself-help-pc');
    await page.goto(`${platform.baseUrl}/index/help/app`);
    await page.getByTestId('app-qr').waitFor();
    expect(await page.getByTestId('app-download').getAttribute('href')).toBe(APP_URL);
  });

  it('/loginByCert: a device account signs in by IMEI and lands on its device', async () => {
    const sale = await call<{ accounts: { terminalID: string; password: string }[] }>(
      platform.baseUrl,
      admin,
      '/device/userSale',
      { terminalIDs: [IMEI_A], asDeviceAccounts: true },
    );
    expect(sale.meta.success).toBe(true);
    const given = sale.data.accounts[0].password;
    // The password someone else set is changed first (issue 12), as the device's buyer would.
    const cookie = await apiLogin(platform.baseUrl, IMEI_A, given);
    const changed = await call(platform.baseUrl, cookie, '/user/checkUserPassword', {
      oldPassword: given,
      password: 'Device-pass-1',
      confirmPassword: 'Device-pass-1',
    });
    expect(changed.meta.success).toBe(true);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${platform.baseUrl}/loginByCert?imei=${IMEI_A}`);
    expect(await page.getByTestId('cert-imei').inputValue()).toBe(IMEI_A);
    await page.getByTestId('cert-password').fill('wrong-pass');
    await page.getByTestId('cert-submit').click();
    await page.getByTestId('cert-error').waitFor();
    await page.getByTestId('cert-password').fill('Device-pass-1');
    await page.getByTestId('cert-submit').click();
    await page.waitForURL('**/index/home');
    const row = page.locator(`[data-testid="device-row"][data-terminal-id="${IMEI_A}"]`);
    await expect.poll(() => row.getAttribute('aria-selected'), { timeout: 20_000 }).toBe('true');
    await context.close();
  });

  it('data import for one customer: the template filled in, uploaded, previewed, imported with progress', async () => {
    // A device of the agent's stock, to go to the customer with its data.
    const imported = await call<{ state: string }>(platform.baseUrl, admin, '/device/import', {
      text: IMEI_D,
      protocol: 2,
      deviceType: 12,
      userId: agentId,
      wait: true,
    });
    expect(imported.meta.success, imported.meta.message).toBe(true);
    const page = agentPage;
    await page.goto(`${platform.baseUrl}/index/device/huaXiangDataImport`);
    await page.getByTestId('import-customer').click();
    await page.locator('.ant-select-dropdown [title*="e2e-cs-user"]').first().click();

    // The template as the screen gives it, filled in as a customer's sheet would be: one good line, one
    // device that does not exist.
    const download = page.waitForEvent('download');
    await page.getByTestId('import-template').click();
    const dir = mkdtempSync(join(tmpdir(), 'data-import-'));
    const template = join(dir, 'template.xlsx');
    await (await download).saveAs(template);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(template);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('IMEI');
    sheet.addRow([IMEI_D, 'Van D', '粤B54321', '', '', 'Wang Wu', '13700001111']);
    sheet.addRow(['868120000079998', 'Ghost']);
    const filled = join(dir, 'filled.xlsx');
    await book.xlsx.writeFile(filled);
    await page.locator('[data-testid="data-import-page"] input[type="file"]').setInputFiles(filled);

    await page.getByText('Preview: 1 of 2 lines change').waitFor();
    await page.getByText('Moves to the customer').waitFor();
    await screenshot(page, 'custself-data-import-preview');
    await page.getByTestId('import-run').click();
    await expect
      .poll(() => page.getByTestId('import-result').textContent(), { timeout: 60_000 })
      .toContain('1 lines imported, 1 failed');
    // The progress bar is full (antd shows a tick rather than the figure at 100%).
    await expect
      .poll(() => page.getByTestId('import-progress').getAttribute('aria-valuenow'), { timeout: 60_000 })
      .toBe('100');
    // The result per line replaces the preview; the import button is gone.
    expect(await page.getByTestId('import-run').count()).toBe(0);

    // The device is the customer's now, with its data (asked as the administrator: the agent, special-brand
    // since the test above, does not list never-activated devices).
    const mine = await call<{ list: { terminalID: string; nickname: string; carNumber: string }[] }>(
      platform.baseUrl,
      admin,
      '/device/findByUserId',
      { userId, pageSize: 100 },
    );
    expect(mine.data.list.find((d) => d.terminalID === IMEI_D)).toMatchObject({
      nickname: 'Van D',
      carNumber: '粤B54321',
    });
  });
});
