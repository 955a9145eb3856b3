// Issue 12 / 21 in Chromium: the device list's device-account actions (a row's password reset, the batch reset,
// the username change: random passwords shown once, each to be changed at first sign-in), two-factor recovery
// codes shown at enrolment and accepted at sign-in, and the admin's reset of an account's two-factor sign-in from
// the account list.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totp } from '../apps/server/src/modules/auth/totp.ts';
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

const stamp = String(Date.now()).slice(-8);
const IMEIS = [`8612${stamp}001`, `8612${stamp}002`];
const USER = { username: 'e2e-recovery', password: 'Typed-pass-77' };

/** A sign-in through the API (no browser): the login answer's code and restriction. */
async function apiLogin(baseUrl: string, path: string, body: unknown) {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang: 'en' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { meta: { code: number }; data: { restriction?: string | null } | null };
  return { code: json.meta.code, restriction: json.data?.restriction ?? null };
}

describe('device accounts, recovery codes and two-factor reset in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    admin = await context.newPage();
    await loginAs(admin, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/home');
    const imported = await apiPost<{ state: string }>(admin, '/device/import', {
      text: IMEIS.join('\n'),
      protocol: 2,
      deviceType: 12,
      wait: true,
    });
    expect(imported.meta.success, imported.meta.message).toBe(true);
    const sale = await apiPost(admin, '/device/userSale', { terminalIDs: IMEIS, asDeviceAccounts: true });
    expect(sale.meta.success, sale.meta.message).toBe(true);
    const user = await apiPost(admin, '/user/insertUser', { ...USER, role: 3 });
    expect(user.meta.success, user.meta.message).toBe(true);
    await completeFirstSignIn(platform.baseUrl, USER.username, USER.password);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const row = (imei: string) => admin.locator('tr', { hasText: imei });

  it("resets one device account's password from its row: shown once, to be changed at first sign-in", async () => {
    await admin.goto(`${platform.baseUrl}/index/device/deviceList`);
    await row(IMEIS[0]).getByTestId('device-row-actions').click();
    await admin.getByTestId('device-action-devicePassword').click();
    await admin.getByTestId('device-password-ok').click();
    await admin.getByTestId('device-password-result').waitFor();
    const passwords = await admin.getByTestId('issued-password').allInnerTexts();
    expect(passwords).toHaveLength(1);
    expect(passwords[0]).toMatch(/^[A-HJ-NP-Za-km-z2-9]{12}$/);
    await expect.poll(() => admin.getByTestId('issued-passwords-download').isVisible()).toBe(true);
    await screenshot(admin, 'harden2-device-password-reset');
    const login = await apiLogin(platform.baseUrl, '/loginByCert', { terminalID: IMEIS[0], password: passwords[0] });
    expect(login).toEqual({ code: 200, restriction: 'changePassword' });
    await admin.keyboard.press('Escape');
  });

  it('resets the selected devices’ account passwords as a batch, then renames one device’s account', async () => {
    await admin.goto(`${platform.baseUrl}/index/device/deviceList`);
    for (const imei of IMEIS) await row(imei).locator('input[type=checkbox]').check();
    await admin.getByTestId('device-batch-devicePassword').click();
    await admin.getByTestId('device-password-ok').click();
    await admin.getByTestId('device-password-result').waitFor();
    const passwords = await admin.getByTestId('issued-password').allInnerTexts();
    expect(passwords).toHaveLength(2);
    expect(new Set(passwords).size).toBe(2);
    const accounts = await admin
      .locator('[data-testid=issued-passwords] tbody tr.ant-table-row td:first-child')
      .allInnerTexts();
    const second = passwords[accounts.indexOf(IMEIS[1])];
    expect(second).toBeDefined();
    await admin.keyboard.press('Escape');

    await row(IMEIS[1]).getByTestId('device-row-actions').click();
    await admin.getByTestId('device-action-deviceUsername').click();
    await admin.getByTestId('device-username-input').fill('e2e-car-owner');
    await admin.getByTestId('device-username-ok').click();
    await admin.getByText(`Username changed from ${IMEIS[1]} to e2e-car-owner`).waitFor();
    const renamed = await apiLogin(platform.baseUrl, '/login', { username: 'e2e-car-owner', password: second });
    expect(renamed).toEqual({ code: 200, restriction: 'changePassword' });
  });

  it('shows ten recovery codes at enrolment; one signs in instead of a code, once', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await loginAs(page, platform.baseUrl, USER.username, USER.password);
    await page.waitForURL(/\/index\//);
    await page.getByTestId('security-open').click();
    await page.getByTestId('totp-start').click();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page.getByTestId('totp-code').fill(totp(base32Decode(secret), Date.now()));
    await page.getByTestId('totp-confirm').click();
    await page.getByTestId('recovery-codes').waitFor();
    const codes = await page.getByTestId('recovery-code').allInnerTexts();
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
    await screenshot(page, 'harden2-recovery-codes');
    await page.getByTestId('recovery-codes-ok').click();
    await context.close();

    const next = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const again = await next.newPage();
    await loginAs(again, platform.baseUrl, USER.username, USER.password);
    await again.getByTestId('login-recovery-hint').waitFor();
    await again.getByTestId('login-totp-code').fill(codes[3]);
    await again.getByTestId('login-totp-submit').click();
    await again.waitForURL(/\/index\//);
    await next.close();

    const used = await browser.newContext({ locale: 'en-US' });
    const third = await used.newPage();
    await loginAs(third, platform.baseUrl, USER.username, USER.password);
    await third.getByTestId('login-totp-code').fill(codes[3]);
    await third.getByTestId('login-totp-submit').click();
    await third.getByTestId('login-error').waitFor();
    expect(third.url()).toMatch(/\/login$/);
    await used.close();
  });

  it("the admin resets the account's two-factor sign-in from the account list", async () => {
    expect((await apiLogin(platform.baseUrl, '/login', USER)).code).toBe(210);
    await admin.goto(`${platform.baseUrl}/index/agent/agentList`);
    await admin.getByTestId(`account-actions-${USER.username}`).click();
    await admin.getByText('Reset two-factor sign-in', { exact: true }).click();
    await admin.getByTestId('reset-two-factor-ok').click();
    await admin.getByText(`Two-factor sign-in of ${USER.username} is off`).waitFor();
    await screenshot(admin, 'harden2-reset-two-factor');
    expect(await apiLogin(platform.baseUrl, '/login', USER)).toEqual({ code: 200, restriction: null });
  });
});
