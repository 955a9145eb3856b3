// The knip step of CI: `node scripts/knip.mjs [--strict]`.
//
// Two passes of knip (config: knip.jsonc):
//  1. production mode with entry exports included: unused files and dependencies of the shipped code, and every
//     export of packages/domain and packages/protocols that nothing outside tests calls;
//  2. the default mode (tests, benchmarks, e2e and scripts count as callers): unused files, dependencies that are
//     used without being listed, unused exports of the apps (an app export only its tests use is fine).
// Exceptions, each export with its reason, are in scripts/knip-exceptions.json:
//  - "public": public on purpose; never reported.
//  - "pending": an export another branch is wiring right now (or that is known and not wired yet). Printed as a
//    to-do list on every run; `--strict` (or KNIP_STRICT=1) fails on them too. Delete an entry once its caller
//    lands: the run fails on an entry that knip no longer reports, so the list cannot go stale.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const strict = process.argv.includes('--strict') || process.env.KNIP_STRICT === '1';
const exceptions = JSON.parse(readFileSync(join(root, 'scripts/knip-exceptions.json'), 'utf8'));

/** Issue types of knip's JSON report that name symbols or files, as [type, label]. */
const TYPES = [
  ['files', 'unused file'],
  ['dependencies', 'unused dependency'],
  ['devDependencies', 'unused devDependency'],
  ['optionalPeerDependencies', 'unused optional peer dependency'],
  ['unlisted', 'used but not listed in package.json'],
  ['binaries', 'binary not listed'],
  ['unresolved', 'unresolved import'],
  ['exports', 'unused export'],
  ['types', 'unused exported type'],
  ['enumMembers', 'unused enum member'],
  ['duplicates', 'duplicate export'],
];

function knip(args) {
  const bin = join(root, 'node_modules/knip/bin/knip.js');
  let out;
  try {
    out = execFileSync(process.execPath, [bin, '--reporter', 'json', '--no-exit-code', ...args], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  } catch (err) {
    console.error('knip did not run:', err.message);
    process.exit(2);
  }
  const findings = [];
  for (const issue of JSON.parse(out).issues) {
    for (const [type, label] of TYPES) {
      for (const item of issue[type] ?? []) {
        const names = Array.isArray(item) ? item.map((d) => d.name).join(' = ') : item.name;
        findings.push({ file: issue.file, type, label, name: names });
      }
    }
  }
  return findings;
}

const isPackageSource = (f) => f.file.startsWith('packages/');
const isSymbol = (f) => ['exports', 'types', 'enumMembers', 'duplicates'].includes(f.type);

// Pass 1: production. Symbols only for the two packages (an app's export that its tests use is not dead code).
const production = knip(['--production', '--include-entry-exports']).filter((f) => !isSymbol(f) || isPackageSource(f));
// Pass 2: default mode. Files, dependencies, and the apps' symbols (the packages' are pass 1's, stricter).
const development = knip([]).filter((f) => !isSymbol(f) || !isPackageSource(f));

const key = (f) => `${f.file}\u0000${f.name}`;
const seen = new Set();
const findings = [...production, ...development].filter((f) => !seen.has(key(f)) && seen.add(key(f)));

function entriesOf(list) {
  const out = new Map();
  for (const entry of list) {
    if (!entry.reason?.trim()) throw new Error(`knip-exceptions.json: ${entry.file} ${entry.names} has no reason`);
    for (const name of entry.names) out.set(`${entry.file}\u0000${name}`, entry);
  }
  return out;
}
const publicOnes = entriesOf(exceptions.public);
const pendingOnes = entriesOf(exceptions.pending);

const failures = [];
const pending = [];
const used = new Set();
for (const f of findings) {
  const k = key(f);
  if (publicOnes.has(k)) used.add(k);
  else if (pendingOnes.has(k)) {
    used.add(k);
    pending.push({ ...f, reason: pendingOnes.get(k).reason });
  } else failures.push(f);
}
const stale = [...publicOnes.keys(), ...pendingOnes.keys()].filter((k) => !used.has(k));

const show = (f) => `  ${f.file}: ${f.name}  (${f.label})`;
if (pending.length > 0) {
  console.log(`knip: ${pending.length} pending export(s) — wire them (a caller outside tests) or un-export them,`);
  console.log('then delete their entries from scripts/knip-exceptions.json ("pending"):');
  const byReason = new Map();
  for (const p of pending) byReason.set(p.reason, [...(byReason.get(p.reason) ?? []), p]);
  for (const [reason, list] of byReason) {
    console.log(`  - ${reason}`);
    for (const f of list) console.log(`  ${show(f)}`);
  }
}
if (stale.length > 0) {
  console.log('knip: exceptions that knip no longer reports — delete them from scripts/knip-exceptions.json:');
  for (const k of stale) console.log(`  ${k.replace('\u0000', ': ')}`);
}
if (failures.length > 0) {
  console.log(`knip: ${failures.length} finding(s):`);
  for (const f of failures) console.log(show(f));
  console.log('Fix them (delete, un-export, list the package), or add a "public" entry with its reason.');
}
const failed = failures.length > 0 || stale.length > 0 || (strict && pending.length > 0);
console.log(
  failed ? 'knip: FAILED' : `knip: clean (${publicOnes.size} public exceptions, ${pending.length} pending export(s))`,
);
process.exit(failed ? 1 : 0);
