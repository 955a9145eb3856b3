// Offline reverse geocoding (addresses without a geocoding key): lookups per second on one core through
// the server's place index (apps/server/src/modules/map/offline/places.ts: nearest of ~135,000 GeoNames
// places, box search over a KDBush index), and the index's start-up cost (worker decode + build, heap).
// Target: ≥ 100,000 lookups/s on one core, measured in CPU time of this process (process.cpuUsage). Baseline in the same run: geokdbush's exact great-circle
// nearest-neighbour search (`around(index, lon, lat, 1)`) over the same index and the same points; the
// two must agree on the place (the agreement is printed).
//
//   npm run bench -- geocode
import { performance } from 'node:perf_hooks';
import {
  describePlace,
  nearestPlace,
  nearestPlaceExact,
  warmPlaces,
} from '../apps/server/src/modules/map/offline/places.ts';

const LOOKUPS = 300_000;

const t0 = performance.now();
const cpu0 = process.cpuUsage(); // the whole process, the decoding worker's thread included
const places = await warmPlaces();
const startMs = performance.now() - t0;
const startCpu = process.cpuUsage(cpu0);
const startCpuMs = (startCpu.user + startCpu.system) / 1000;
// What the index holds: KDBush's buffer, coordinates and country codes by id, and the names (UTF-16).
let nameBytes = 0;
for (const n of places.names) nameBytes += 2 * n.length;
const heapMb =
  (places.index.data.byteLength + places.lonLat.byteLength + places.countries.byteLength + nameBytes) / 1e6;
console.log(
  `index: ${places.size} places, ready in ${Math.round(startMs)} ms wall clock, ${Math.round(startCpuMs)} ms CPU (off the event loop), holding ${heapMb.toFixed(1)} MB`,
);

// Query points where vehicles are: around real places (up to ±0.3°, ~30 km), spread over the world by
// taking every k-th place; a deterministic generator so runs compare.
let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const lat = new Float64Array(LOOKUPS);
const lon = new Float64Array(LOOKUPS);
for (let i = 0; i < LOOKUPS; i++) {
  const id = Math.floor(rand() * places.size);
  lat[i] = Math.max(-89.9, Math.min(89.9, places.lonLat[2 * id + 1] + (rand() - 0.5) * 0.6));
  lon[i] = Math.max(-179.9, Math.min(179.9, places.lonLat[2 * id] + (rand() - 0.5) * 0.6));
}

/**
 * Lookups per second of CPU time (user + system of this process, which does nothing else meanwhile): on a
 * machine shared with other work, wall-clock time counts the waits for a core, CPU time does not. The
 * wall-clock rate is printed beside it.
 */
function run(label: string, fn: (i: number) => number | null, n: number): number {
  // warm-up
  for (let i = 0; i < Math.min(n, 5000); i++) fn(i);
  const t = performance.now();
  const cpu = process.cpuUsage();
  let found = 0;
  for (let i = 0; i < n; i++) if (fn(i) !== null) found++;
  const used = process.cpuUsage(cpu);
  const wall = (performance.now() - t) / 1000;
  const cpuS = (used.user + used.system) / 1e6;
  const rate = n / cpuS;
  const fmt = (x: number) => Math.round(x).toLocaleString('en');
  console.log(
    `${label}: ${n} lookups in ${(cpuS * 1000).toFixed(0)} ms CPU = ${fmt(rate)}/s of CPU time (wall clock: ${(wall * 1000).toFixed(0)} ms = ${fmt(n / wall)}/s; ${found} found)`,
  );
  return rate;
}

const ours = run('carhere box search', (i) => (nearestPlace(places, lat[i], lon[i]) ? 1 : null), LOOKUPS);
const baselineN = LOOKUPS / 10; // the exact search is slower; a tenth of the points is enough for its rate
const baseline = run('geokdbush around(…, 1)', (i) => nearestPlaceExact(places, lat[i], lon[i]), baselineN);

// Agreement: the fast search must find the same place as the exact one (ties at equal distance aside).
let same = 0;
let checked = 0;
for (let i = 0; i < baselineN; i++) {
  const exact = nearestPlaceExact(places, lat[i], lon[i]);
  const fast = nearestPlace(places, lat[i], lon[i]);
  if (exact === null || fast === null) continue;
  checked++;
  if (places.names[exact] === fast.name) same++;
}
console.log(`agreement with the exact search: ${same}/${checked}`);
const sample = nearestPlace(places, 22.5555, 113.95);
if (sample) console.log(`example: ${describePlace(sample, 'en')} | ${describePlace(sample, 'cn')}`);

const round = (x: number) => Math.round(x);
console.log(
  JSON.stringify({
    bench: 'geocode',
    value: round(ours),
    unit: 'lookups/s (CPU time)',
    baseline: round(baseline),
    ratio: Math.round((ours / baseline) * 100) / 100,
    startupMs: round(startMs),
    startupCpuMs: round(startCpuMs),
    indexMb: Math.round(heapMb * 10) / 10,
    agreement: checked ? Math.round((same / checked) * 10000) / 10000 : null,
    target: 100_000,
  }),
);
process.exit(0);
