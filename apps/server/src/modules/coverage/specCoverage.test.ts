// docs/spec-coverage.md stays honest: every route of the domain route table (spec §2) and every operation of the
// OpenAPI document (spec §7 and beyond) is named in it. `npm run -s spec-coverage` prints what is missing.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageGaps, operationsOf, SPEC_COVERAGE_DOC } from '../../cli/specCoverage.ts';
import { createTestServer, type TestServer } from '../../testing/harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('docs/spec-coverage.md', () => {
  it('names every route and every API operation', async () => {
    const doc = await readFile(SPEC_COVERAGE_DOC, 'utf8');
    const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const operations = operationsOf(res.json());
    expect(operations.length).toBeGreaterThan(100);
    const gaps = coverageGaps(doc, operations);
    expect(gaps.routes.map((r) => r.path)).toEqual([]);
    expect(gaps.operations.map((o) => o.name)).toEqual([]);
  });

  it('would catch a route or an operation that is not named', () => {
    const gaps = coverageGaps('`/index/home` `POST /user/findById`', [
      { name: 'POST /user/findById', summary: '', permissions: [] },
      { name: 'POST /user/notInTheDoc', summary: '', permissions: [] },
    ]);
    expect(gaps.operations.map((o) => o.name)).toEqual(['POST /user/notInTheDoc']);
    expect(gaps.routes.map((r) => r.path)).toContain('/index/track');
    expect(gaps.routes.map((r) => r.path)).not.toContain('/index/home');
  });
});
