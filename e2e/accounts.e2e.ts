// Issue 6's browser suite: an agent creates a sub-agent, imports three devices and transfers one to the
// sub-agent; the sub-agent logs in and sees exactly that device; a duplicate username shows the spec's message;
// a user without the permission who opens a management route lands on the not-found page.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  completeFirstSignIn,
  launchBrowser,
  loginAs,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

const AGENT = { username: 'e2e-agent', password: 'Agent-pass-1' };
const SUB = { username: 'e2e-sub', password: 'Sub-pass-12' };
const PLAIN = { username: 'e2e-user', password: 'User-pass-1' };
const IMEIS = ['864000000000011', '864000000000012', '864000000000013'];

/** A JSON call with a session cookie; answers the envelope. */
async function call(baseUrl: string, cookie: string, path: string, body: unknown) {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, lang: 'en' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { meta: { success: boolean; message: string }; data: { id?: string } };
}

async function apiLogin(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return String(res.headers.get('set-cookie')).split(';')[0];
}

describe('accounts and device ownership in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let agentContext: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    platform = await startPlatform();
    const admin = await apiLogin(platform.baseUrl, 'admin', ADMIN_PASSWORD);
    const agent = await call(platform.baseUrl, admin, '/user/insertUser', { ...AGENT, role: 2, nickname: 'E2E Agent' });
    expect(agent.meta.success).toBe(true);
    const quota = await call(platform.baseUrl, admin, '/user/addAgentImportNum', { id: agent.data.id, num: 10 });
    expect(quota.meta.success).toBe(true);
    const plain = await call(platform.baseUrl, admin, '/user/insertUser', {
      ...PLAIN,
      role: 3,
      parentId: agent.data.id,
    });
    expect(plain.meta.success).toBe(true);
    // The admin typed these passwords: each owner changes it at first sign-in (done here through the API).
    await completeFirstSignIn(platform.baseUrl, AGENT.username, AGENT.password);
    await completeFirstSignIn(platform.baseUrl, PLAIN.username, PLAIN.password);
    browser = await launchBrowser();
    agentContext = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    page = await agentContext.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('the agent creates a sub-agent from the account list', async () => {
    await loginAs(page, platform.baseUrl, AGENT.username, AGENT.password);
    await page.waitForURL('**/index/home');
    await page.goto(`${platform.baseUrl}/index/agent/agentList`);
    await page.getByTestId('account-add').click();
    await page.getByTestId('account-username').fill(SUB.username);
    await page.getByTestId('account-password').fill(SUB.password);
    await page.getByTestId('account-confirm-password').fill(SUB.password);
    await page.getByTestId('account-role').click();
    await page.getByTitle('Agent', { exact: true }).click();
    await page.getByTestId('account-nickname').fill('E2E Sub');
    await page.getByTestId('account-form-ok').click();
    await page.locator('[data-testid="account-name"]', { hasText: SUB.username }).waitFor();
    await screenshot(page, 'accounts-agent-list');
  });

  it('a duplicate username shows the spec message', async () => {
    await page.getByTestId('account-add').click();
    await page.getByTestId('account-username').fill(SUB.username);
    await page.getByText('The user name is already in use!').waitFor();
    await screenshot(page, 'accounts-duplicate-username');
    await page.keyboard.press('Escape');
  });

  it('the agent imports three devices and sees the import result', async () => {
    await page.goto(`${platform.baseUrl}/index/device/deviceImport`);
    await page.getByTestId('import-imeis').fill(IMEIS.join('\n'));
    await page.getByTestId('import-start').click();
    const result = page.getByTestId('import-result');
    await result.waitFor();
    const count = (name: string) =>
      page.getByTestId(`import-count-${name}`).locator('.ant-statistic-content').textContent();
    await expect.poll(() => count('success'), { timeout: 30_000 }).toBe('3');
    expect(await count('failure')).toBe('0');
    expect(await count('alreadyStocked')).toBe('0');
    expect(await page.getByTestId('import-progress').textContent()).toBe('3 of 3 written');
    await screenshot(page, 'accounts-device-import');
  });

  it('the agent transfers one device to the sub-agent from the device list', async () => {
    await page.goto(`${platform.baseUrl}/index/device/deviceList`);
    await expect.poll(() => page.getByTestId('device-imei').count(), { timeout: 30_000 }).toBe(3);
    await page.locator('tr', { hasText: IMEIS[0] }).locator('input[type="checkbox"]').check();
    await page.getByTestId('device-batch-transfer').click();
    await page.getByTestId('batch-target').click();
    await page.keyboard.type(SUB.username);
    await page.locator('.ant-select-tree-title', { hasText: SUB.username }).click();
    await page.getByTestId('batch-submit-transfer').click();
    await expect.poll(() => page.getByTestId('batch-result').textContent()).toContain('Succeeded: 1, failed: 0');
    await screenshot(page, 'accounts-device-transfer');
    await page.locator('.ant-modal-close').click();
    await page.locator('.ant-modal').waitFor({ state: 'hidden' });
  });

  it('the device edit drawer checks the SIM number with the spec message and saves a plate', async () => {
    await page.locator('tr', { hasText: IMEIS[1] }).getByTestId('device-edit').click();
    await page.getByTestId('device-sim').fill('12345');
    await page.getByText('Please enter the correct SIM card number').waitFor();
    await page.getByTestId('device-sim').fill('13800138000');
    await page.getByTestId('device-plate').fill('京A12345');
    await screenshot(page, 'accounts-device-edit');
    await page.getByTestId('device-edit-save').click();
    await page.locator('tr', { hasText: IMEIS[1] }).getByText('京A12345').first().waitFor();
  });

  it('the import quota page shows the import in the usage records', async () => {
    await page.goto(`${platform.baseUrl}/index/agent/setImportRecords`);
    await page.getByText('Devices imported').waitFor();
    expect(await page.locator('tr', { hasText: 'Devices imported' }).textContent()).toContain('-3');
    await screenshot(page, 'accounts-import-records');
  });

  it('the sub-agent logs in and sees exactly that device', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const sub = await context.newPage();
    await completeFirstSignIn(platform.baseUrl, SUB.username, SUB.password);
    await loginAs(sub, platform.baseUrl, SUB.username, SUB.password);
    await sub.waitForURL('**/index/home');
    await sub.goto(`${platform.baseUrl}/index/device/deviceList`);
    await expect.poll(() => sub.getByTestId('device-imei').allTextContents(), { timeout: 30_000 }).toEqual([IMEIS[0]]);
    await expect.poll(() => sub.getByTestId('device-tab-all').textContent()).toBe('All (1)');
    await screenshot(sub, 'accounts-sub-agent-devices');
    await context.close();
  });

  it('a user without the permission who opens a management route lands on the not-found page', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const user = await context.newPage();
    await loginAs(user, platform.baseUrl, PLAIN.username, PLAIN.password);
    await user.waitForURL('**/index/home');
    await user.goto(`${platform.baseUrl}/index/device/deviceList`);
    await user.waitForURL('**/notFound');
    expect(await user.getByTestId('not-found-text').textContent()).toContain('Whoops! The old driver is gone');
    await user.goto(`${platform.baseUrl}/index/agent/setImportRecords`);
    await user.waitForURL('**/notFound');
    await context.close();
  });
});
