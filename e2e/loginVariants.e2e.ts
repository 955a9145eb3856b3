// Login variants in Chromium (issue 16), against `npm start`.
// Per-brand login pages: the administrator adds a brand with a logo on the special-brand page; a visitor of
// /b/<key> gets its login page (title, logo, colours, app link, its default language), and after signing in the
// layout keeps the brand's name, logo and header colour. The brand's host name selects it without a path; an
// unbranded visitor sees the platform's own login page.
// The seller's sign-in link: from a device's row the seller makes /loginByCert?imei=…&link=…; the customer who
// opens it chooses the device account's password and lands on the device; the link works once.
// Under load every wait is on an event (an element, a URL, a value polled until it arrives) with long bounds:
// a page may take many seconds to load on a busy machine, and nothing is read before it has appeared.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  apiPost,
  launchBrowser,
  loginAs,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

// A 2×2 red PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const APP_LINK = 'https://apps.acme.example/fleet.apk';
const IMEI = `8613${String(Date.now()).slice(-8)}001`;
/** Bounds of every wait (Playwright's own and the polls'): generous, since each ends on its event. */
const WAIT_MS = 90_000;
/** A value read again until it matches (vitest's default would give up after one second). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: WAIT_MS, interval: 200 });

describe('login variants in Chromium', { timeout: 300_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  const fresh = async (locale = 'en-US'): Promise<Page> => {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(WAIT_MS);
    context.setDefaultNavigationTimeout(WAIT_MS);
    return context.newPage();
  };

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('the administrator adds a brand with its logo, colours, language and host name', async () => {
    const page = await fresh();
    await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/**');
    await page.goto(`${platform.baseUrl}/index/specialBrand`);
    await page.getByTestId('brand-add').click();
    const form = page.getByTestId('brand-form');
    await form.locator('#key').fill('acme');
    await form.locator('#host').fill('localhost');
    await form.locator('#name').fill('Acme Fleet');
    await form.locator('#title').fill('Acme vehicle tracking');
    const dir = mkdtempSync(join(tmpdir(), 'brand-'));
    writeFileSync(join(dir, 'logo.png'), PNG);
    await page.getByTestId('brand-logo-file').setInputFiles(join(dir, 'logo.png'));
    await page.getByTestId('brand-logo-preview').waitFor();
    await page.getByTestId('brand-primary').fill('#aa3300');
    await page.getByTestId('brand-header').fill('#221100');
    await form.locator('#appUrl').fill(APP_LINK);
    // A busy machine can take a click on an option while its list is still opening: pick again until the
    // select shows the choice (a brand once saved without its language made the next test fail twice).
    const pick = async (testId: string, option: string | RegExp, shown: string) => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const item = page.locator('.ant-select-item-option', { hasText: option });
        // Open the list unless a previous attempt left it open (a second click would close it).
        if (!(await item.isVisible())) await page.getByTestId(testId).click();
        const clicked = await item
          .click({ timeout: 5_000 })
          .then(() => true)
          .catch(() => false);
        if (!clicked) continue;
        const ok = await page
          .getByTestId(testId)
          .filter({ hasText: shown })
          .waitFor({ timeout: 5_000 })
          .then(() => true)
          .catch(() => false);
        if (ok) return;
      }
      throw new Error(`${testId}: ${shown} not chosen`);
    };
    await pick('brand-lang', 'Français', 'Français');
    await pick('brand-map', /^Google Maps$/, 'Google Maps');
    await page.getByTestId('brand-save').click();
    await page.getByTestId('brand-edit-acme').waitFor();
    await poll(() => page.getByTestId('brands-section').textContent()).toContain('/b/acme');
    await page.getByTestId('brand-form').waitFor({ state: 'detached' });
    await screenshot(page, 'brands-admin');
    await page.context().close();
  });

  it('/b/acme shows the brand’s login page in its language, and the layout keeps the brand', async () => {
    const page = await fresh();
    await page.goto(`${platform.baseUrl}/b/acme`);
    await page.waitForURL('**/login');
    await poll(() => page.getByTestId('login-title').textContent()).toBe('Acme vehicle tracking');
    await poll(() => page.locator('[data-brand]').getAttribute('data-brand')).toBe('acme');
    await poll(() => page.getByTestId('brand-logo').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await poll(() => page.getByTestId('login-app-link').getAttribute('href')).toBe(APP_LINK);
    // The brand's default language for a visitor who never chose one (the browser says English).
    await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await poll(() => page.evaluate(() => document.title)).toBe('Acme vehicle tracking');
    await poll(() => page.locator('[data-brand]').evaluate((el) => getComputedStyle(el).backgroundImage)).toContain(
      'rgb(170, 51, 0)',
    );
    await screenshot(page, 'brands-login');

    await page.getByTestId('username').fill('admin');
    await page.getByTestId('password').fill(ADMIN_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/index/**');
    await poll(() => page.getByTestId('header-title').textContent()).toBe('Acme Fleet');
    await page.getByTestId('header-logo').waitFor();
    await poll(() => page.getByTestId('app-header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(34, 17, 0)',
    );
    // The brand's default map for a user who never chose one.
    await page.goto(`${platform.baseUrl}/index/home`);
    await poll(() => page.getByTestId('map').getAttribute('data-map-type')).toBe('google');
    // A reload keeps the brand (remembered key).
    await page.reload();
    await poll(() => page.getByTestId('header-title').textContent()).toBe('Acme Fleet');
    await page.context().close();
  });

  it('the brand’s host name selects it without a path; other hosts get the platform’s own page', async () => {
    const plain = await fresh();
    await plain.goto(`${platform.baseUrl}/login`);
    // The brand is looked up before the first render: once the title shows, the page is as it stays.
    await plain.getByTestId('login-title').waitFor();
    expect(await plain.locator('[data-brand]').getAttribute('data-brand')).toBe('');
    expect(await plain.getByTestId('brand-logo').count()).toBe(0);
    await plain.context().close();

    const byHost = await fresh();
    await byHost.goto(platform.baseUrl.replace('127.0.0.1', 'localhost') + '/login');
    await poll(() => byHost.getByTestId('login-title').textContent()).toBe('Acme vehicle tracking');
    await poll(() => byHost.locator('[data-brand]').getAttribute('data-brand')).toBe('acme');
    await byHost.context().close();
  });

  it('the seller’s sign-in link: the customer chooses the password, lands on the device, and the link works once', async () => {
    const admin = await fresh();
    await loginAs(admin, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/**');
    const imported = await apiPost(admin, '/device/import', { text: IMEI, protocol: 2, deviceType: 12, wait: true });
    expect(imported.meta.success, imported.meta.message).toBe(true);
    const sale = await apiPost(admin, '/device/userSale', { terminalIDs: [IMEI], asDeviceAccounts: true });
    expect(sale.meta.success, sale.meta.message).toBe(true);
    await admin.goto(`${platform.baseUrl}/index/device/deviceList`);
    await admin.locator('tr', { hasText: IMEI }).getByTestId('device-row-actions').click();
    await admin.getByTestId('device-action-signInLink').click();
    await admin.getByTestId('sign-in-link-make').click();
    const linkText = async () => (await admin.getByTestId('sign-in-link-url').textContent()) ?? '';
    await poll(linkText).toContain(`${platform.baseUrl}/loginByCert?imei=${IMEI}&link=`);
    const url = await linkText();
    expect(url.startsWith(`${platform.baseUrl}/loginByCert?imei=${IMEI}&link=`)).toBe(true);
    await screenshot(admin, 'login-variants-sign-in-link');
    await admin.context().close();

    const customer = await fresh();
    await customer.goto(url);
    await poll(() => customer.getByTestId('cert-imei').inputValue()).toBe(IMEI);
    await customer.getByTestId('cert-password').fill('Customer-pass-1');
    await customer.getByTestId('cert-confirm').fill('Customer-pass-2');
    await customer.getByTestId('cert-submit').click();
    await customer.getByText('The two passwords do not match').waitFor();
    await customer.getByTestId('cert-confirm').fill('Customer-pass-1');
    await customer.getByTestId('cert-submit').click();
    await customer.waitForURL('**/index/home');
    const row = customer.locator(`[data-testid="device-row"][data-terminal-id="${IMEI}"]`);
    await poll(() => row.getAttribute('aria-selected')).toBe('true');
    await customer.context().close();

    const again = await fresh();
    await again.goto(url);
    await again.getByTestId('cert-password').fill('Another-pass-1');
    await again.getByTestId('cert-confirm').fill('Another-pass-1');
    await again.getByTestId('cert-submit').click();
    await poll(() => again.getByTestId('cert-error').textContent()).toContain('link');
    expect(again.url()).toContain('/loginByCert');
    await again.context().close();
  });
});
