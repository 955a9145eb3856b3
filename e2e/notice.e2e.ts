// Spec §1 "on start": a maintenance notice the admin set to show on start opens over the login page, before
// anyone signs in; without that setting the login page stays clear (the notice shows after login only).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, launchBrowser, type RunningPlatform, screenshot, startPlatform } from './harness.ts';

const FAR_FUTURE = '2099-01-01T00:00:00.000Z';

async function apiLogin(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return String(res.headers.get('set-cookie')).split(';')[0];
}

async function setNotice(baseUrl: string, cookie: string, content: string, showOnStart: boolean) {
  const res = await fetch(`${baseUrl}/api/notice/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, lang: 'en' },
    body: JSON.stringify({ title: 'Maintenance', content, endsAt: FAR_FUTURE, showOnStart }),
  });
  const body = (await res.json()) as { meta: { success: boolean } };
  expect(body.meta.success).toBe(true);
}

describe('maintenance notice on start (login page) in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let admin: string;

  const freshLoginPage = async (): Promise<Page> => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // The login page reads the public notice; wait for that answer so that "not shown" means something.
    const noticeRead = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/notice', { timeout: 15_000 });
    await page.goto(`${platform.baseUrl}/login`);
    await page.getByTestId('login-title').waitFor();
    await noticeRead;
    return page;
  };

  beforeAll(async () => {
    platform = await startPlatform();
    admin = await apiLogin(platform.baseUrl, 'admin', ADMIN_PASSWORD);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('a notice not set to show on start stays off the login page', async () => {
    await setNotice(platform.baseUrl, admin, 'Only after login.', false);
    const page = await freshLoginPage();
    await page.waitForTimeout(500);
    expect(await page.getByText('Only after login.').count()).toBe(0);
    await page.context().close();
  });

  it('a notice set to show on start opens over the login page and closes with OK', async () => {
    await setNotice(platform.baseUrl, admin, 'The server is down from 00:00 to 01:00.', true);
    const page = await freshLoginPage();
    await page.getByText('The server is down from 00:00 to 01:00.').waitFor();
    await screenshot(page, 'notice-on-start-login');
    await page.getByRole('button', { name: 'I understand' }).click();
    await expect.poll(() => page.getByText('The server is down from 00:00 to 01:00.').isVisible()).toBe(false);
    await page.context().close();
  });
});
