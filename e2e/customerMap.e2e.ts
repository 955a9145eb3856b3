// Issue 16, the customer map (riskPoint, checkCar area and point, bus routes, polygon fences) in Chromium against
// `npm start`: a tracker of ours (registered through the API, driven by the simulator over real TCP) is found by
// an area check drawn on the map and by a point check; a risk point whose name is markup is added with a click on
// the map (shown as text on the map: the escaper's guard fails the suite otherwise) and risk points are imported
// from pasted rows; a bus route is drawn with two stops and the tracker as its bus, and the monitor shows that
// bus with its next stop and ETA; a polygon fence is drawn on the Baidu map and redrawn on the AMap one.
// An agent granted the three permissions by the administrator reaches the screens; one without the grant does not.
// Screenshots: customer-map-area, customer-map-risk, customer-map-bus, customer-map-polygon.

import type { SimulatedDevice } from '@carhere/simulator';
import { VehicleTrack } from '@carhere/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminWithTracker,
  apiPost,
  completeFirstSignIn,
  launchBrowser,
  loginAs,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

const IMEI = '868120000016001';
const XSS_NAME = '<img src=x onerror="window.__xss=1">Yard';

async function pickOption(page: Page, selectTestId: string, text: string): Promise<void> {
  await page.getByTestId(selectTestId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

/** Centres the map on a WGS-84 point and returns the map's box and its centre in page pixels. */
async function centreOn(page: Page, lat: number, lon: number, zoom = 15) {
  await page.evaluate(
    ([la, lo, z]) => {
      const m = (window as unknown as { __carhereMap?: { setView(c: [number, number], z: number): void } })
        .__carhereMap;
      m?.setView([la, lo], z);
    },
    [lat, lon, zoom] as const,
  );
  await page.waitForTimeout(300);
  const box = await page.getByTestId('map').boundingBox();
  if (!box) throw new Error('no map');
  return { box, cx: box.x + box.width / 2, cy: box.y + box.height / 2 };
}

async function trackerPosition(page: Page): Promise<{ lat: number; lon: number }> {
  for (let i = 0; i < 60; i++) {
    const res = await apiPost<{ lat: number | null; lon: number | null }[]>(page, '/location/find', {
      terminalIDs: [IMEI],
    });
    const p = res.data?.[0];
    if (p?.lat && p.lon) return { lat: p.lat, lon: p.lon };
    await page.waitForTimeout(500);
  }
  throw new Error('the tracker never reported a position');
}

describe('customer map screens in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let tracker: SimulatedDevice;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser();
    const track = new VehicleTrack({ centerLat: 39.915, centerLon: 116.404, radiusKm: 0.3, maxSpeed: 30 });
    ({ page, tracker } = await adminWithTracker(platform, browser, IMEI, track));
    // It reports a position every 2 s (the checks look for where it is and where it passed).
    tracker.startTimer(2);
  });
  afterAll(async () => {
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
  });

  it('area check: a rectangle drawn around the tracker lists it now and over the last day', async () => {
    const here = await trackerPosition(page);
    await page.goto(`${platform.baseUrl}/index/checkCar/area`);
    await page.getByTestId('check-area-page').waitFor();
    const { cx, cy } = await centreOn(page, here.lat, here.lon);
    await page.getByTestId('check-draw').click();
    await page.mouse.click(cx - 150, cy - 150);
    await page.mouse.move(cx, cy, { steps: 3 });
    await page.mouse.click(cx + 150, cy + 150);
    await page.getByTestId('check-search').click();
    const row = page.locator('[data-testid="check-results"] tr').filter({ hasText: IMEI });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await page.getByTestId('check-when').getByText('Inside during a time window', { exact: false }).click();
    await page.getByTestId('check-search').click();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await screenshot(page, 'customer-map-area');
  });

  it('point check: the tracker passed within the radius, with its passages', async () => {
    const here = await trackerPosition(page);
    await page.goto(`${platform.baseUrl}/index/checkCar/point`);
    await page.getByTestId('check-point-page').waitFor();
    const { cx, cy } = await centreOn(page, here.lat, here.lon);
    await page.getByTestId('check-pick').click();
    await page.mouse.click(cx, cy);
    await page.getByTestId('check-point').waitFor();
    // antd puts the test id on the input itself or on its wrapper, depending on the version.
    await page.locator('input[data-testid="check-radius"], [data-testid="check-radius"] input').first().fill('2000');
    await page.getByTestId('check-search').click();
    const row = page.locator('[data-testid="check-results"] tr.ant-table-row').filter({ hasText: IMEI });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await row.locator('.ant-table-row-expand-icon').click();
    await expect.poll(() => page.locator('.ant-table-expanded-row tr.ant-table-row').count()).toBeGreaterThan(0);
  });

  it('risk points: one added on the map (its markup name shown as text), rows imported, visits listed', async () => {
    await page.goto(`${platform.baseUrl}/index/riskPoint`);
    await page.getByTestId('risk-page').waitFor();
    await page.getByTestId('risk-add').click();
    await page.getByTestId('risk-name').fill(XSS_NAME);
    const { cx, cy } = await centreOn(page, 39.915, 116.404);
    await page.getByTestId('risk-pick').click();
    await page.mouse.click(cx, cy);
    await page.getByTestId('risk-point').waitFor();
    await page.getByTestId('risk-save').click();
    const row = page.locator('[data-testid="risk-list"] tr').filter({ hasText: 'Yard' });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.textContent()).toContain('<img');
    // The circle's tooltip shows the name as text.
    await page.mouse.move(cx, cy);
    await expect.poll(() => page.locator('.leaflet-tooltip').filter({ hasText: '<img' }).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await screenshot(page, 'customer-map-risk');

    await page.getByTestId('risk-import').click();
    await page
      .getByTestId('risk-import-text')
      .fill('Border post\tborder\t40.1\t116.9\t1000\t15\t\nBad row\tother\t40.1\t116.9\t\t15\t');
    await page.getByTestId('risk-import-run').click();
    await expect.poll(() => page.getByTestId('risk-import-result').textContent()).toContain('1 added, 1 refused');
    await page.locator('.ant-modal-close').click();
    const points = await apiPost<{ total: number }>(page, '/riskPoint/find', {});
    expect(points.data.total).toBe(2);

    await page.getByTestId('risk-tabs').getByText('Visits report').click();
    await page.getByTestId('risk-visits').waitFor();
  });

  it('bus route: two stops clicked on the map, the tracker as its bus, next stop and ETA here and on the monitor', async () => {
    await page.goto(`${platform.baseUrl}/index/bus/busLineList`);
    await page.getByTestId('bus-page').waitFor();
    await page.getByTestId('bus-add').click();
    await page.getByTestId('bus-name').fill('Line <b>1</b>');
    const { cx, cy } = await centreOn(page, 39.915, 116.404, 14);
    await page.mouse.click(cx, cy + 200);
    await page.mouse.click(cx, cy - 200);
    await expect.poll(() => page.locator('[data-testid="bus-stops"] .ant-list-item').count()).toBe(2);
    await pickOption(page, 'bus-devices', IMEI);
    await page.getByTestId('bus-name').click();
    await page.getByTestId('bus-save').click();
    const row = page.locator('[data-testid="bus-list"] tr').filter({ hasText: 'Line <b>1</b>' });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    const live = page.locator('[data-testid="bus-live"] tr.ant-table-row').filter({ hasText: IMEI });
    await expect.poll(() => live.count(), { timeout: 15_000 }).toBe(1);
    expect(await live.getByTestId('bus-eta').textContent()).toMatch(/min|minute|-/);
    await screenshot(page, 'customer-map-bus');

    await page.goto(`${platform.baseUrl}/index/home`);
    await page.getByTestId('monitor-bus-button').click();
    await pickOption(page, 'monitor-bus-route', 'Line <b>1</b>');
    await expect
      .poll(() => page.locator('[data-testid="bus-live"] tr.ant-table-row').filter({ hasText: IMEI }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
  });

  it('polygon fence: drawn on the Baidu map, redrawn on the AMap one, stored in WGS-84', async () => {
    await page.evaluate(() => localStorage.setItem('useMapType', 'baidu'));
    await page.goto(`${platform.baseUrl}/index/fence`);
    await page.getByTestId('fence-page').waitFor();
    expect(await page.getByTestId('map').getAttribute('data-map-type')).toBe('baidu');
    await page.getByTestId('fence-new').click();
    await page.getByTestId('fence-name').fill('Depot polygon');
    await page.getByTestId('fence-shape').getByText('Polygon').click();
    // A new fence starts in drawing mode (the draw button would end it); the shape chosen applies at once.
    const { cx, cy } = await centreOn(page, 39.915, 116.404, 15);
    for (const [dx, dy] of [
      [-100, -80],
      [100, -80],
      [120, 90],
      [-90, 100],
    ]) {
      await page.mouse.click(cx + dx, cy + dy);
      // Clicks further apart than a double-click, which would end the polygon early.
      await page.waitForTimeout(600);
    }
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('fence-geometry').textContent()).toBe('4 corners');
    await screenshot(page, 'customer-map-polygon');
    await page.getByTestId('fence-save').click();
    const find = () =>
      apiPost<{ list: { id: string; shape: string; points: [number, number][] }[] }>(page, '/fence/find', {
        name: 'Depot polygon',
      });
    await expect.poll(async () => (await find()).data.list[0]?.points?.length ?? 0, { timeout: 10_000 }).toBe(4);
    const stored = (await find()).data.list[0];
    expect(stored.shape).toBe('polygon');
    // The centre of the drawn shape is the map's centre, in WGS-84, whatever the provider's own datum.
    const lat = stored.points.reduce((s, p) => s + p[0], 0) / 4;
    const lon = stored.points.reduce((s, p) => s + p[1], 0) / 4;
    expect(lat).toBeCloseTo(39.915, 2);
    expect(lon).toBeCloseTo(116.404, 2);

    await page.evaluate(() => localStorage.setItem('useMapType', 'amap'));
    await page.reload();
    await page.getByTestId('fence-page').waitFor();
    expect(await page.getByTestId('map').getAttribute('data-map-type')).toBe('amap');
    const row = page.locator('[data-testid="fence-table"] tr').filter({ hasText: 'Depot polygon' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await page.getByTestId('fence-draw').click();
    const again = await centreOn(page, 39.915, 116.404, 15);
    for (const [dx, dy] of [
      [-100, 80],
      [0, -100],
      [100, 80],
    ]) {
      await page.mouse.click(again.cx + dx, again.cy + dy);
      await page.waitForTimeout(600);
    }
    await page.mouse.dblclick(again.cx + 100, again.cy + 80);
    await expect.poll(() => page.getByTestId('fence-geometry').textContent()).toBe('3 corners');
    await page.getByTestId('fence-save').click();
    await expect.poll(async () => (await find()).data.list[0]?.points?.length ?? 0, { timeout: 10_000 }).toBe(3);
  });

  it('an agent granted riskPoint, checkCar and bus reaches the screens; one without the grant gets notFound', async () => {
    const mk = async (username: string) => {
      const res = await apiPost<{ id: string }>(page, '/user/insertUser', {
        username,
        password: 'Agent-pass-16',
        role: 2,
        nickname: username,
      });
      expect(res.meta.success, res.meta.message).toBe(true);
      return res.data.id;
    };
    const granted = await mk('cm-agent-granted');
    await mk('cm-agent-plain');
    // A password the creator typed is changed at first sign-in (issue 12), as each agent would.
    await completeFirstSignIn(platform.baseUrl, 'cm-agent-granted', 'Agent-pass-16');
    await completeFirstSignIn(platform.baseUrl, 'cm-agent-plain', 'Agent-pass-16');
    const grant = await apiPost(page, '/user/updateGrants', {
      id: granted,
      permissions: ['main:risk_point', 'main:check_car', 'main:bus'],
    });
    expect(grant.meta.success, grant.meta.message).toBe(true);

    for (const [username, allowed] of [
      ['cm-agent-granted', true],
      ['cm-agent-plain', false],
    ] as const) {
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
      const agent = await context.newPage();
      await loginAs(agent, platform.baseUrl, username, 'Agent-pass-16');
      await agent.waitForURL('**/index/**');
      for (const path of ['riskPoint', 'checkCar/area', 'checkCar/point', 'bus/busLineList']) {
        await agent.goto(`${platform.baseUrl}/index/${path}`);
        if (allowed) await agent.getByTestId('map').waitFor({ timeout: 15_000 });
        else await agent.waitForURL('**/notFound', { timeout: 15_000 });
      }
      await context.close();
    }
  });
});
