// Issue 2's browser suite: log in as admin and see the home map; switch to English; log out; a wrong
// password shows the spec's message; an unknown path shows the 404 text.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, launchBrowser, loginAs, type RunningPlatform, screenshot, startPlatform } from './harness.ts';

describe('foundation in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'zh-CN' });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('redirects an anonymous visitor from / to the login page, in Chinese by default', async () => {
    await page.goto(platform.baseUrl);
    await page.waitForURL('**/login');
    expect(await page.getByTestId('login-title').textContent()).toBe('车在这儿 GPS 定位平台');
  });

  it('a wrong password shows the spec message', async () => {
    await loginAs(page, platform.baseUrl, 'admin', 'not-the-password');
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('用户名或密码错误');
    await page.getByTestId('login-lang-en').click();
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('wrong username or password');
    // The other nine languages are one select away on the login page (loaded on demand).
    await page.getByTestId('login-lang-more').selectOption('th');
    await expect.poll(() => page.getByTestId('login-submit').textContent()).toContain('เข้าสู่ระบบ');
    await page.getByTestId('login-lang-cn').click();
  });

  it('logs in as admin and sees the home map centred on Beijing', async () => {
    await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/home');
    await page.getByTestId('map').waitFor();
    const center = await page.evaluate(() => {
      const m = (window as unknown as { __carhereMap?: { getCenter(): { lat: number; lng: number } } }).__carhereMap;
      return m?.getCenter();
    });
    expect(center?.lat).toBeCloseTo(39.915, 3);
    expect(center?.lng).toBeCloseTo(116.404, 3);
    expect(await page.getByTestId('current-user').textContent()).toContain('Administrator');
    expect(await page.getByText('实时监控').count()).toBeGreaterThan(0);
    await screenshot(page, 'foundation-home');
  });

  it('a logged-in user opening /login goes home', async () => {
    await page.goto(`${platform.baseUrl}/login`);
    await page.waitForURL('**/index/home');
  });

  it('switches the interface to English', async () => {
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English', exact: true }).click();
    await expect.poll(() => page.getByTestId('logout').textContent()).toContain('Log out');
    expect(await page.getByText('Monitoring').count()).toBeGreaterThan(0);
  });

  it('an unknown path shows the 404 text', async () => {
    await page.goto(`${platform.baseUrl}/no/such/page`);
    await page.waitForURL('**/notFound');
    expect(await page.getByTestId('not-found-text').textContent()).toContain('Whoops! The old driver is gone');
  });

  it('logs out and lands on the login page; protected pages then need a login', async () => {
    await page.goto(`${platform.baseUrl}/index/home`);
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login');
    await page.goto(`${platform.baseUrl}/index/home`);
    await page.waitForURL('**/login');
  });
});
