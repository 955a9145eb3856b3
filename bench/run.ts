// Runs benchmarks: `npm run bench` runs every bench/*.bench.ts, `npm run bench -- NAME` runs bench/NAME.bench.ts.
// Each benchmark prints its figures and ends with one JSON line {"bench","value","unit","baseline","ratio"}.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? wanted : all;
let failed = 0;
for (const name of names) {
  if (!all.includes(name)) {
    console.error(`unknown benchmark "${name}"; known: ${all.join(', ')}`);
    failed++;
    continue;
  }
  console.log(`\n=== bench ${name}`);
  // Each benchmark runs in its own process so one cannot warm or pollute another.
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${name}.bench.ts`)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
