// Spec §6 roles in Chromium: a superAgent (role 13, no permission, no home page) created by the admin under an
// agent logs in, lands on the "no functions yet" page that names its superior, switches language and logs out.
// Then the admin ends the superAgent's sessions from the account list (/user/clear) and its open page loses
// its session.
import type { Browser, Page } from 'playwright-core';
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

const AGENT = { username: 'e2e-roles-agent', password: 'Agent-pass-1', nickname: 'Roles Agent Ltd' };
const SUPER_AGENT = { username: 'e2e-super-agent', password: 'Super-pass-1', nickname: 'Super Agent Sam' };

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

describe('roles without functions in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    platform = await startPlatform();
    const admin = await apiLogin(platform.baseUrl, 'admin', ADMIN_PASSWORD);
    const agent = await call(platform.baseUrl, admin, '/user/insertUser', { ...AGENT, role: 2 });
    expect(agent.meta.success).toBe(true);
    const sa = await call(platform.baseUrl, admin, '/user/insertUser', {
      ...SUPER_AGENT,
      role: 13,
      parentId: agent.data.id,
    });
    expect(sa.meta).toMatchObject({ success: true });
    await completeFirstSignIn(platform.baseUrl, AGENT.username, AGENT.password);
    await completeFirstSignIn(platform.baseUrl, SUPER_AGENT.username, SUPER_AGENT.password);
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('a superAgent lands on the no-functions page naming its superior, not on /notFound', async () => {
    await loginAs(page, platform.baseUrl, SUPER_AGENT.username, SUPER_AGENT.password);
    await page.waitForURL('**/noFunction');
    await expect(page.getByTestId('no-function-title').innerText()).resolves.toContain(SUPER_AGENT.nickname);
    await page.getByTestId('no-function-superior').filter({ hasText: AGENT.nickname }).waitFor();
    expect(await page.getByTestId('no-function-text').innerText()).toBe(
      'No function has been given to this account so far.',
    );
    // A feature address still does not open for it.
    await page.goto(`${platform.baseUrl}/index/home`);
    await page.waitForURL('**/notFound');
    await page.getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL('**/noFunction');
    await page.getByTestId('no-function-superior').filter({ hasText: AGENT.nickname }).waitFor();
    await screenshot(page, 'roles-super-agent-no-function');
  });

  it('the language switch works on that page', async () => {
    await page.getByTestId('language-switch').hover();
    await page.getByText('Français', { exact: true }).click();
    await page.getByTestId('no-function-text').filter({ hasText: "Aucune fonction n'a encore" }).waitFor();
    await page.getByTestId('language-switch').hover();
    await page.getByText('English', { exact: true }).click();
    await page.getByTestId('no-function-text').filter({ hasText: 'No function has been given' }).waitFor();
  });

  it('logout ends the session and returns to the login page', async () => {
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login');
    await page.goto(`${platform.baseUrl}/noFunction`);
    await page.waitForURL('**/login');
  });

  it("the admin ends the superAgent's sessions from the account list, with confirmation", async () => {
    await loginAs(page, platform.baseUrl, SUPER_AGENT.username, SUPER_AGENT.password);
    await page.waitForURL('**/noFunction');
    const session = async () =>
      page.evaluate(async () => (await (await fetch('/api/session')).json()) as { data: unknown });
    expect((await session()).data).not.toBeNull();

    const adminContext = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const admin = await adminContext.newPage();
    await loginAs(admin, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/home');
    await admin.goto(`${platform.baseUrl}/index/agent/agentList`);
    await admin.locator('[data-testid="account-name"]', { hasText: AGENT.username }).click();
    await admin.getByTestId(`account-actions-${SUPER_AGENT.username}`).click();
    await admin.getByText('End sessions', { exact: true }).click();
    await admin
      .locator('.ant-modal-confirm-title', { hasText: `End every session of ${SUPER_AGENT.username}?` })
      .waitFor();
    await screenshot(admin, 'roles-end-sessions-confirm');
    await admin.getByTestId('clear-sessions-ok').click();
    await admin.getByText('Sessions ended: 1').waitFor();
    await adminContext.close();

    expect((await session()).data).toBeNull();
    await page.reload();
    await page.waitForURL('**/login');
  });
});
