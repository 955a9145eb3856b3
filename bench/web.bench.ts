// Web benchmark (issue 7): initial JavaScript (gzip) of the login and monitoring routes; a 777,600-fix track
// (decode, stops, decimation); time to filter a
// 10,000-device list per keystroke in Chromium (baseline: an unvirtualised naive render of the same list);
// frame rate of the monitoring map with 10,000 clustered devices receiving 1,000 updates/s (baseline:
// leaflet.markercluster moving each marker as its message arrives). Ends with the JSON line (frame rate).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { launchBrowser } from '../e2e/harness.ts';
import { entryKey, gzipBytes, readManifest, staticClosure } from './web/bundleSize.ts';
import { FLEET_SIZE, makeFleet } from './web/fleet.ts';
import { LONG_TRACK_FIXES, longCompactTrack, longTrackFigures } from './web/longTrack.ts';
import { filterTimes, frameRate, naiveFilterTimes } from './web/measure.ts';
import { ok, startMockServer } from './web/mockServer.ts';

const WEB = join(import.meta.dirname, '..', 'apps', 'web');
const HOME_MODULE = 'src/features/home/HomePage.tsx';
// /index/home renders inside the lazily loaded signed-in layout (menus, antd App): it counts for the route too.
const LAYOUT_MODULE = 'src/app/MainLayout.tsx';
const LOGIN_TARGET_KB = 350;
const UPDATES_PER_SECOND = 1000;
const MEASURE_MS = 8000;
const ROW_HEIGHT = 52;

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB (${(bytes / 1024).toFixed(1)} KiB)`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

const work = mkdtempSync(join(tmpdir(), 'carhere-web-bench-'));
const dist = join(work, 'web');
const baselineDist = join(work, 'baseline');

// 1. Initial JavaScript per route, from a production build with its manifest.
await build({
  root: WEB,
  configFile: join(WEB, 'vite.config.ts'),
  logLevel: 'warn',
  build: { outDir: dist, emptyOutDir: true, manifest: true },
});
const manifest = readManifest(dist);
const entry = entryKey(manifest);
const loginBytes = gzipBytes(dist, manifest, staticClosure(manifest, [entry]));
const monitorBytes = gzipBytes(dist, manifest, staticClosure(manifest, [entry, LAYOUT_MODULE, HOME_MODULE]));
console.log(`initial JS, login route:      ${kb(loginBytes)} gzip (target ≤ ${LOGIN_TARGET_KB} kB)`);
console.log(
  `initial JS, monitoring route: ${kb(monitorBytes)} gzip (login + the signed-in layout + the monitoring page; map providers and 9 languages lazy)`,
);

// 2. A 90-day track (777,600 fixes): decode, stops, decimation for drawing.
const long = longTrackFigures();
console.log(
  `track of ${LONG_TRACK_FIXES} fixes (${long.encodedMB.toFixed(1)} MB compact): decode + distances ${long.decodeMs.toFixed(0)} ms, ${long.stops} stops found in ${long.stopsMs.toFixed(0)} ms`,
);
for (const s of long.simplifyMs) {
  console.log(
    `  drawn at zoom ${s.zoom}: ${s.points} points (${((s.points / LONG_TRACK_FIXES) * 100).toFixed(2)} %), ${s.ms.toFixed(0)} ms`,
  );
}

await build({
  root: join(import.meta.dirname, 'web', 'baseline'),
  configFile: false,
  base: '/baseline/',
  logLevel: 'warn',
  build: { outDir: baselineDist, emptyOutDir: true },
});

const fleet = makeFleet();
const longAnswer = ok([
  {
    deviceId: fleet[0].deviceId,
    terminalID: fleet[0].terminalID,
    count: LONG_TRACK_FIXES,
    format: 'compact',
    compact: longCompactTrack(),
  },
]);
const server = await startMockServer(dist, fleet, { '/baseline/': baselineDist }, () => longAnswer);
const browser = await launchBrowser();
let fps = 0;
let baselineFps = 0;
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  // tsx compiles the measuring functions with esbuild's keepNames, which calls a __name helper in the page.
  await context.addInitScript('window.__name = (fn) => fn;');

  // 3. Filtering 10,000 devices per keystroke.
  const page = await context.newPage();
  await page.goto(`${server.url}/index/home`);
  await page.getByTestId('device-row').first().waitFor({ timeout: 60_000 });
  const typed = 'car 0123';
  const values = [...typed].map((_, i) => typed.slice(0, i + 1));
  values.push(...values.slice(0, -1).reverse(), '');
  const count = (v: string) => {
    const q = v.trim().toLowerCase();
    return fleet.filter((d) => `${d.displayName}\u0000${d.terminalID}\u0000${d.carNumber}`.toLowerCase().includes(q))
      .length;
  };
  const steps = values.map((value) => ({ value, expected: count(value) }));
  await filterTimes(page, steps, ROW_HEIGHT); // warm-up
  const ours = await filterTimes(page, steps, ROW_HEIGHT);
  await naiveFilterTimes(page, values); // warm-up
  const naive = await naiveFilterTimes(page, values);
  console.log(
    `filter ${FLEET_SIZE} devices per keystroke: median ${median(ours).toFixed(1)} ms, p95 ${p95(ours).toFixed(1)} ms, max ${Math.max(...ours).toFixed(1)} ms (target < 100 ms)`,
  );
  console.log(
    `  baseline (unvirtualised naive render): median ${median(naive).toFixed(1)} ms, p95 ${p95(naive).toFixed(1)} ms, max ${Math.max(...naive).toFixed(1)} ms`,
  );

  // 4. Map frame rate with 10,000 clustered devices and 1,000 updates/s.
  server.setUpdateRate(UPDATES_PER_SECOND);
  await page.waitForTimeout(2000);
  const oursFrames = await frameRate(page, MEASURE_MS);
  fps = oursFrames.fps;
  const shown = await page.locator('.leaflet-marker-icon').count();
  console.log(
    `map, ${FLEET_SIZE} devices, ${UPDATES_PER_SECOND} updates/s: ${fps.toFixed(1)} fps, longest frame ${oursFrames.longestFrameMs.toFixed(0)} ms (${shown} markers and clusters drawn; target ≥ 30 fps)`,
  );
  // Off-screen moves are applied later: after the stream stops and the user pans, every marker in view
  // must be where its device last reported.
  server.setUpdateRate(0);
  await page.waitForTimeout(2500);
  for (const [dx, dy] of [
    [500, 300],
    [-1200, -200],
  ]) {
    await page.evaluate(
      ([x, y]) =>
        (window as unknown as { __carhereMap: { panBy(p: [number, number]): void } }).__carhereMap.panBy([x, y]),
      [dx, dy],
    );
    await page.waitForTimeout(1500);
  }
  const drawn = await page.evaluate(() => {
    type Layer = { options?: { title?: string }; getLatLng?: () => { lat: number; lng: number } };
    const out: [string, number, number][] = [];
    (window as unknown as { __carhereMap: { eachLayer(fn: (l: Layer) => void): void } }).__carhereMap.eachLayer((l) => {
      const at = l.getLatLng?.();
      if (l.options?.title && at) out.push([l.options.title, at.lat, at.lng]);
    });
    return out;
  });
  const byName = new Map(fleet.map((d) => [d.displayName, d]));
  const stale = drawn.filter(([name, lat, lng]) => {
    const d = byName.get(name);
    return !d || Math.abs(d.lat - lat) > 1e-9 || Math.abs(d.lon - lng) > 1e-9;
  });
  console.log(
    `  after panning: ${drawn.length} single markers in view checked, ${stale.length} not at their device's last position`,
  );
  for (const [name, lat, lng] of stale.slice(0, 5)) {
    const d = byName.get(name);
    console.log(`  stale: ${name} drawn at ${lat}, ${lng}; last reported ${d?.lat}, ${d?.lon}`);
  }
  if (drawn.length === 0 || stale.length > 0) throw new Error('markers in view are not at their last positions');
  await page.close();

  // 5. The 90-day track in the browser: from the query to the drawn track, then playing at 32×.
  const trackPage = await context.newPage();
  server.setUpdateRate(0);
  const queried = Date.now();
  await trackPage.goto(`${server.url}/index/track?terminalID=${fleet[0].terminalID}`);
  await trackPage.getByTestId('track-summary').waitFor({ timeout: 120_000 });
  await trackPage.getByTestId('speed-chart').waitFor();
  const shownMs = Date.now() - queried;
  const stopGroups = await trackPage.locator('[data-testid="stop-group"]').count();
  const pins = await trackPage.locator('.leaflet-marker-icon').count();
  await trackPage.getByTestId('playback-speed').click();
  await trackPage.getByTitle('32×').click();
  await trackPage.getByTestId('playback-play').click();
  const playing = await frameRate(trackPage, 5000);
  console.log(
    `90-day track (${LONG_TRACK_FIXES} fixes) in the browser: page open to track drawn ${shownMs} ms; playing at 32×: ${playing.fps.toFixed(1)} fps, longest frame ${playing.longestFrameMs.toFixed(0)} ms`,
  );
  console.log(
    `  stop pins: ${long.stops} stops drawn as ${pins} markers in view (${stopGroups} of them groups; start, end and car included)`,
  );
  await trackPage.screenshot({ path: join(work, 'long-track.png') }).then(() => {
    if (process.env.BENCH_SCREENSHOT) copyFileSync(join(work, 'long-track.png'), process.env.BENCH_SCREENSHOT);
  });
  await trackPage.close();
  server.setUpdateRate(UPDATES_PER_SECOND);

  const base = await context.newPage();
  await base.goto(`${server.url}/baseline/`);
  await base.waitForFunction(
    () => (window as unknown as { __baselineReady?: boolean }).__baselineReady === true,
    null,
    { timeout: 60_000 },
  );
  await base.waitForTimeout(2000);
  const baseFrames = await frameRate(base, MEASURE_MS);
  baselineFps = baseFrames.fps;
  console.log(
    `  baseline (leaflet.markercluster, each message applied at once): ${baselineFps.toFixed(1)} fps, longest frame ${baseFrames.longestFrameMs.toFixed(0)} ms`,
  );
  await base.close();
} finally {
  await browser.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

console.log(
  JSON.stringify({
    bench: 'web',
    value: Math.round(fps * 10) / 10,
    unit: 'fps (10,000 clustered devices, 1,000 updates/s)',
    baseline: Math.round(baselineFps * 10) / 10,
    ratio: Math.round((fps / Math.max(0.1, baselineFps)) * 100) / 100,
  }),
);
process.exit(0);
