// The screenshot suite (issue 17): every screen a role can open — as the admin, an agent, an end user and a
// factory role — in Chinese and English, at 1440×900 and at a phone's 390×844, with every outside host blocked
// (no map tiles, no geocoder), on the demo install. Each visit keeps a screenshot (JPEG, e2e/screenshots/screens/,
// kept by CI as artifacts, not committed) and fails the screen on: a label cut off without a tooltip (its
// scroll width larger than its client width), the page scrolling sideways, a console error or uncaught
// exception, a map without its offline base drawn, or a list that is empty without saying what to do next
// (antd's bare "No data"). The admin's main screens are also visited in the other nine languages (desktop
// only: labels cut, sideways scroll, console errors), and three lists are caught loading (their answers held
// back) to see the skeleton in place of the empty text.
//
// This module holds the checks; three test files run them, each on its own platform so the browser suite's
// workers can run them side by side: screens-admin.e2e.ts (the admin), screens-roles.e2e.ts (agent, end user,
// factory role) and screens-languages.e2e.ts (the nine other languages, the skeletons). Every file starts the
// same demo install with the same three extra accounts.
//
// Run time: one browser per file, one page per role, reused across languages and widths; screens are changed
// inside the single-page app (history.pushState), not reloaded; no sleeps — a visit waits until no spinner or
// skeleton is left (or 6 s have passed). All problems are collected and reported together at the end of each role.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { canAccessRoute, forcesChineseInterface, permissionsFor, ROLES, ROUTES } from '@carhere/domain';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  ADMIN_PASSWORD,
  apiPost,
  completeFirstSignIn,
  launchBrowser,
  loginAs,
  type RunningPlatform,
  SCREENSHOTS,
  startPlatform,
} from './harness.ts';

const OUT = join(SCREENSHOTS, 'screens');
const PASSWORD = 'Screens-pass-1';
const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const LANGS = ['cn', 'en'] as const;
/** The other nine languages, checked once each over MAIN_SCREENS as the admin at 1440×900. */
const MORE_LANGS = ['en-IN', 'es', 'fr', 'pt', 'ru', 'my', 'km', 'th', 'vi'] as const;
const MAIN_SCREENS = [
  '/index/home',
  '/index/dashboard',
  '/index/alarms',
  '/index/device/deviceList',
  '/index/device/deviceImport',
  '/index/agent/agentList',
  '/index/fence',
  '/index/directive',
  '/index/count/countMileage',
  '/index/system/mapKey',
];

/** Labels whose text must fit or carry a tooltip. */
const LABELS = [
  '.ant-menu-title-content',
  '.ant-form-item-label > label',
  '.ant-btn',
  '.ant-table-thead th',
  '.ant-tabs-tab-btn',
  '.ant-card-head-title',
  '.ant-breadcrumb-link',
  '.ant-statistic-title',
  '.ant-radio-button-wrapper > span:last-child',
  '.ant-segmented-item-label',
].join(',');

/** Console messages that are not faults of the page: the blocked outside hosts' refusals. */
function isOutsideRefusal(text: string, url: string | undefined): boolean {
  if (!/Failed to load resource|net::ERR_FAILED|ERR_BLOCKED/.test(text)) return false;
  return url !== undefined && url !== '' && !url.startsWith('http://127.0.0.1');
}

/** The screens (leaf routes, no parameters) a role opens. */
function screensOf(role: number): string[] {
  const parents = new Set(ROUTES.map((r) => r.parent));
  const held = [...permissionsFor(role, 'live')];
  return ROUTES.filter(
    (r) =>
      !r.public &&
      !r.redirectsHome &&
      !parents.has(r.path) &&
      !r.path.includes(':') &&
      r.path !== '/index/404' &&
      canAccessRoute(r.path, held),
  ).map((r) => r.path);
}

/**
 * No visible spinner or skeleton (the app's boot indicator while it asks for its session and brand, a lazy
 * screen's chunk, a list's first page) and the fonts loaded; at most 6 s. The boot indicator matters after a
 * reload: until the app has booted the page shows nothing else, so without it a visit right after a reload
 * "settled" at once and the next step raced the boot (seen: answers held back for the skeleton check while the
 * app was still waiting for its brand, so nothing rendered for 20 s).
 */
async function quiet(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document.fonts.status === 'loaded' &&
        ![...document.querySelectorAll('[data-boot], .ant-spin-spinning, .ant-skeleton-active')].some(
          (e) => e.getClientRects().length > 0,
        ),
      undefined,
      { timeout: 6_000, polling: 100 },
    )
    .catch(() => undefined);
}

/** After a (re)load: the app has booted (its boot indicator gone, the signed-in layout drawn); at most 30 s. */
async function booted(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.querySelector('[data-boot]') && document.querySelector('.ant-layout') !== null,
    undefined,
    { timeout: 30_000, polling: 100 },
  );
}

/**
 * Waits for the screen to settle: quiet (its code and first data are in), then every visible map has drawn
 * (or failed to draw) its offline base — at most 15 s, the first map decodes the shipped land and borders —
 * quiet again, then two animation frames so canvases have painted. Checks anyway after the time limits.
 */
async function settle(page: Page): Promise<void> {
  await quiet(page);
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLElement>('[data-testid="map"]')]
          .filter((m) => m.getClientRects().length > 0 && m.clientWidth >= 20 && m.clientHeight >= 20)
          .every((m) => m.dataset.offlineBase),
      undefined,
      { timeout: 15_000, polling: 100 },
    )
    .catch(() => undefined);
  await quiet(page);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

interface Findings {
  cut: string[];
  sideways: number;
  blankMap: boolean;
}

/** The page's layout faults, measured in the page. */
function measure(page: Page, selector: string): Promise<Findings> {
  return page.evaluate((labels) => {
    const cut: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(labels)) {
      // Hidden labels, and the collapsed side menu's (antd names each item in a tooltip there).
      if (el.getClientRects().length === 0) continue;
      if (el.closest('[aria-hidden="true"], .ant-select-dropdown, .ant-menu-inline-collapsed')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      // Where the laid-out text ends against where its box lets it show (an inline label: its parent's box).
      // Not scrollWidth: a fixed column's shadow or an icon overflows its cell without cutting any text.
      const range = document.createRange();
      range.selectNodeContents(el);
      const ends = range.getBoundingClientRect().right;
      const boxEl = style.display === 'inline' && el.parentElement ? el.parentElement : el;
      const boxStyle = getComputedStyle(boxEl);
      const shows =
        boxEl.getBoundingClientRect().right -
        Number.parseFloat(boxStyle.paddingRight) -
        Number.parseFloat(boxStyle.borderRightWidth);
      if (ends <= shows + 1) continue;
      // A tooltip on the label (or its cell / menu item) names the whole text.
      if (el.closest('[title]') || el.querySelector('[title]')) continue;
      const words = (el.textContent ?? '').trim();
      if (words) cut.push(words.slice(0, 40));
    }
    const root = document.scrollingElement ?? document.documentElement;
    const sideways = root.scrollWidth - root.clientWidth;
    let blankMap = false;
    for (const map of document.querySelectorAll<HTMLElement>('[data-testid="map"]')) {
      if (map.getClientRects().length === 0 || map.clientWidth < 20 || map.clientHeight < 20) continue;
      let painted = 0;
      for (const canvas of map.querySelectorAll<HTMLCanvasElement>('.leaflet-carhereOfflineBase-pane canvas')) {
        const ctx = canvas.getContext('2d');
        if (!ctx || canvas.width === 0) continue;
        const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < d.length; i += 64) if (d[i] > 0) painted++;
      }
      if (painted === 0) blankMap = true;
    }
    return { cut, sideways, blankMap };
  }, selector);
}

/**
 * Visible lists (not loading) that are empty without a word of what to do: antd's bare default text, or
 * nothing at all. Every list gets the screen's hint (app/EmptyState.tsx) or its own text.
 */
function bareEmptyLists(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>('.ant-table-placeholder, .ant-list-empty-text')].filter((e) => {
        if (e.getClientRects().length === 0 || e.closest('[aria-busy="true"], [aria-hidden="true"]')) return false;
        const text = (e.textContent ?? '').trim();
        return text === '' || text === 'No data' || text === '暂无数据';
      }).length,
  );
}

async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** The demo install and the browser a screenshot file's tests run against. */
export interface ScreensRun {
  platform: RunningPlatform;
  browser: Browser;
}

/**
 * Registers the file's beforeAll/afterAll: the demo install (DEMO=1) with an agent, an end user under it and a
 * factory role (each through its first sign-in), and one browser. The object is filled before the first test.
 */
export function screensRun(name: string): ScreensRun {
  const run = {} as ScreensRun;
  const started = Date.now();
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    const platform = await startPlatform({ DEMO: '1' });
    const browser = await launchBrowser();
    Object.assign(run, { platform, browser });
    const page = await browser.newPage();
    await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/home');
    const agent = await apiPost<{ id: string }>(page, '/user/insertUser', {
      username: 'screens-agent',
      nickname: 'Screens Agent Ltd',
      password: PASSWORD,
      role: ROLES.agent,
    });
    expect(agent.meta.success, agent.meta.message).toBe(true);
    for (const [username, role, parentId] of [
      ['screens-user', ROLES.user, agent.data.id],
      ['screens-factory', ROLES.test, undefined],
    ] as const) {
      const res = await apiPost(page, '/user/insertUser', { username, password: PASSWORD, role, parentId });
      expect(res.meta.success, `${username}: ${res.meta.message}`).toBe(true);
    }
    await page.close();
    for (const u of ['screens-agent', 'screens-user', 'screens-factory'])
      await completeFirstSignIn(platform.baseUrl, u, PASSWORD);
  });
  afterAll(async () => {
    console.log(`screenshot suite (${name}): ${Math.round((Date.now() - started) / 1000)} s`);
    await run.browser?.close();
    await run.platform?.stop();
  });
  return run;
}

/**
 * What a screen must show the account (checked on every visit): a new agent has no devices and no import
 * quota, so its monitor offers the import and its import screen says whom to ask instead of failing.
 */
const MUST_SHOW: Record<string, Record<string, string>> = {
  agent: { '/index/home': 'device-list-import', '/index/device/deviceImport': 'import-no-quota' },
};
export const ACCOUNTS = [
  { who: 'admin', username: 'admin', password: ADMIN_PASSWORD, role: ROLES.admin },
  { who: 'agent', username: 'screens-agent', password: PASSWORD, role: ROLES.agent },
  { who: 'user', username: 'screens-user', password: PASSWORD, role: ROLES.user },
  { who: 'factory', username: 'screens-factory', password: PASSWORD, role: ROLES.test },
];

/**
 * A page that reaches nothing but Carhere itself (no tiles, no geocoder), with the console errors and uncaught
 * exceptions it logs collected in `errors` (refusals of outside requests left out).
 */
async function localPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: WIDTHS[0] });
  await context.route('**/*', (route) =>
    new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (isOutsideRefusal(msg.text(), msg.location().url)) return;
    errors.push(msg.text().slice(0, 200));
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message.slice(0, 200)}`));
  return { context, page, errors };
}

/** Every screen of the account's role, in cn and en (cn only where the role forces it), at both widths. */
export async function everyScreen(run: ScreensRun, account: (typeof ACCOUNTS)[number]): Promise<void> {
  const { platform, browser } = run;
  const screens = screensOf(account.role);
  expect(screens.length).toBeGreaterThan(0);
  const { context, page, errors } = await localPage(browser);
  const problems: string[] = [];
  try {
    await loginAs(page, platform.baseUrl, account.username, account.password);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    const langs = forcesChineseInterface(account.role) ? (['cn'] as const) : LANGS;
    for (const lang of langs) {
      await page.evaluate((l) => localStorage.setItem('useLang', l), lang);
      await page.reload();
      await booted(page);
      for (const size of WIDTHS) {
        await page.setViewportSize({ width: size.width, height: size.height });
        for (const path of screens) {
          errors.length = 0;
          await go(page, path);
          await settle(page);
          const where = `${account.who} ${lang} ${size.width}px ${path}`;
          let f = await measure(page, LABELS);
          if (f.blankMap) {
            // A slow answer (the machine is shared) can hold a map's first draw back: give it 20 s more.
            await page
              .waitForFunction(
                () =>
                  [...document.querySelectorAll<HTMLElement>('[data-testid="map"]')]
                    .filter((m) => m.getClientRects().length > 0 && m.clientWidth >= 20)
                    .every((m) => m.dataset.offlineBase),
                undefined,
                { timeout: 20_000, polling: 200 },
              )
              .catch(() => undefined);
            await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            f = await measure(page, LABELS);
          }
          if (f.cut.length > 0) problems.push(`${where}: cut off ${JSON.stringify(f.cut.slice(0, 5))}`);
          if (f.sideways > 1) problems.push(`${where}: page scrolls sideways by ${f.sideways}px`);
          if (f.blankMap) problems.push(`${where}: a map without its offline base`);
          const bare = await bareEmptyLists(page);
          if (bare > 0) problems.push(`${where}: ${bare} empty list(s) without a hint`);
          const must = MUST_SHOW[account.who]?.[path];
          if (must) {
            const shown = await page
              .getByTestId(must)
              .first()
              .waitFor({ timeout: 10_000 })
              .then(() => true)
              .catch(() => false);
            if (!shown) problems.push(`${where}: ${must} is not shown`);
          }
          if (errors.length > 0) problems.push(`${where}: console ${JSON.stringify(errors.slice(0, 3))}`);
          const name = `${account.who}-${lang}-${size.name}${path.replaceAll('/', '_')}.jpg`;
          await page.screenshot({ path: join(OUT, name), type: 'jpeg', quality: 55 });
        }
      }
    }
  } finally {
    await context.close();
  }
  expect(problems, problems.join('\n')).toEqual([]);
}

/** The admin's main screens in the other nine languages, then three lists caught loading. */
export async function otherLanguagesAndSkeletons(run: ScreensRun): Promise<void> {
  const { platform, browser } = run;
  const { context, page, errors } = await localPage(browser);
  const problems: string[] = [];
  try {
    await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    for (const lang of MORE_LANGS) {
      await page.evaluate((l) => localStorage.setItem('useLang', l), lang);
      await page.reload();
      await booted(page);
      for (const path of MAIN_SCREENS) {
        errors.length = 0;
        await go(page, path);
        await settle(page);
        const where = `admin ${lang} 1440px ${path}`;
        const f = await measure(page, LABELS);
        if (f.cut.length > 0) problems.push(`${where}: cut off ${JSON.stringify(f.cut.slice(0, 5))}`);
        if (f.sideways > 1) problems.push(`${where}: page scrolls sideways by ${f.sideways}px`);
        if (errors.length > 0) problems.push(`${where}: console ${JSON.stringify(errors.slice(0, 3))}`);
        await page.screenshot({
          path: join(OUT, `admin-${lang}-desktop${path.replaceAll('/', '_')}.jpg`),
          type: 'jpeg',
          quality: 55,
        });
      }
    }
    // Loading: every answer of the screen held back, its list shows skeleton rows (not an empty text).
    await page.evaluate(() => localStorage.setItem('useLang', 'en'));
    await page.reload();
    await booted(page);
    for (const path of ['/index/system/apiKey', '/index/alarms', '/index/agent/agentList']) {
      await go(page, '/index/dashboard');
      await settle(page);
      let release = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      const hold = async (route: Route) => {
        await held;
        await route.continue().catch(() => undefined);
      };
      await page.route('**/api/**', hold);
      await go(page, path);
      const skeleton = await page
        .waitForFunction(
          () =>
            [
              ...document.querySelectorAll<HTMLElement>('[aria-busy="true"] .ant-table-placeholder .ant-table-cell'),
            ].some((c) => c.getClientRects().length > 0 && getComputedStyle(c, '::after').content !== 'none'),
          undefined,
          { timeout: 20_000, polling: 100 },
        )
        .then(() => true)
        .catch(() => false);
      if (!skeleton) problems.push(`${path}: no skeleton while its list loads`);
      else
        await page.screenshot({
          path: join(OUT, `admin-en-loading${path.replaceAll('/', '_')}.jpg`),
          type: 'jpeg',
          quality: 55,
        });
      release();
      await page.unroute('**/api/**', hold);
      await settle(page);
    }
  } finally {
    await context.close();
  }
  expect(problems, problems.join('\n')).toEqual([]);
}
