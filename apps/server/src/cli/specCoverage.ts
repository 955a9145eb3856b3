// `carhere spec-coverage [--missing]`: checks docs/spec-coverage.md against what the product has: every route of
// the domain route table (spec §2) and every operation of the OpenAPI document (spec §7) must be named in it.
// With --missing it prints the rows to add, ready to paste into the doc's tables (the lead completes the doc after
// merging branches that add screens or endpoints). The test specCoverage.test.ts runs the same check.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTES } from '@carhere/domain';
import { loadConfig } from '../config.ts';

export const SPEC_COVERAGE_DOC = join(dirname(fileURLToPath(import.meta.url)), '../../../../docs/spec-coverage.md');

export interface Operation {
  /** 'POST /user/findById': method and path without the /api base, as the doc names it. */
  name: string;
  summary: string;
  permissions: string[];
}

/** Routes and operations the doc does not name (each in backticks: `/index/track`, `POST /track/find`). */
export function coverageGaps(doc: string, operations: readonly Operation[]) {
  const named = new Set([...doc.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]?.trim()));
  return {
    routes: ROUTES.filter((r) => !named.has(r.path)),
    operations: operations.filter((o) => !named.has(o.name)),
  };
}

/** The operations of the running app's OpenAPI document. */
export function operationsOf(doc: {
  paths: Record<string, Record<string, { summary?: string; 'x-permissions'?: string[] }>>;
}): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      out.push({
        name: `${method.toUpperCase()} ${path.replace(/^\/api(?=\/)/, '')}`,
        summary: op.summary ?? '',
        permissions: op['x-permissions'] ?? [],
      });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export async function loadOperations(): Promise<Operation[]> {
  const { startServer } = await import('../main.ts');
  const base = loadConfig({ ...process.env, DATA_DIR: 'memory://', PORT: '0', DEMO: '0' });
  const running = await startServer(
    {
      ...base,
      dataDir: 'memory://',
      databaseUrl: undefined,
      adminPassword: 'Spec-coverage-1',
      webDist: '/nonexistent',
    },
    { listen: false },
  );
  try {
    const res = await running.app.inject({ method: 'GET', url: '/api/openapi.json' });
    return operationsOf(res.json());
  } finally {
    await running.stop();
  }
}

export async function runSpecCoverageCli(args: string[]): Promise<number> {
  const doc = await readFile(SPEC_COVERAGE_DOC, 'utf8');
  const gaps = coverageGaps(doc, await loadOperations());
  const total = gaps.routes.length + gaps.operations.length;
  if (args.includes('--missing') || total > 0) {
    if (gaps.routes.length > 0) {
      console.log(`Routes missing from docs/spec-coverage.md (${gaps.routes.length}) — rows for "Screens":`);
      for (const r of gaps.routes) console.log(`| ${r.name} | \`${r.path}\` | ${r.permissions.join(', ') || '—'} | |`);
    }
    if (gaps.operations.length > 0) {
      console.log(`Operations missing from docs/spec-coverage.md (${gaps.operations.length}) — rows for "Calls":`);
      for (const o of gaps.operations) console.log(`| | \`${o.name}\` | ${o.summary} |`);
    }
  }
  if (total === 0) console.log('docs/spec-coverage.md names every route and every operation.');
  return total === 0 ? 0 : 1;
}
