// Property-based test over the whole API: every operation of /api/openapi.json (read at run time) gets generated
// bad bodies and query strings — wrong types, boundary numbers, huge and odd strings (NUL, lone surrogates),
// deep nesting — from a permitted caller (an agent, then the admin). Never a 5xx; and the agent changes nothing
// outside its own subtree. Seeded and bounded (a few runs per operation) so it stays fast on PGlite.
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayTestServer, type GatewayTestServer } from '../gateway/test-support.ts';
import { buildTree, importDevices, nextImei, type Tree } from '../modules/agent/fixtures.ts';
import { type ApiOperation, apiOperations, type JsonSchema } from '../testing/openapi.ts';
import { snapshotOutsideTree } from '../testing/snapshot.ts';
import { holdsPermission, permissionsOf } from './access.ts';
import { SESSION_COOKIE } from './session.ts';

/** Operations the fuzzer leaves out, each with its reason. The test fails on any other skipped operation. */
const SKIPPED: Record<string, string> = {
  'POST /api/logout': 'ends the very session the fuzzer calls with; covered by the auth tests',
};
const RUNS_PER_OPERATION = 6;
/** Hundreds of operations × RUNS_PER_OPERATION requests: about 25 s on a quiet machine, far more on a loaded one. */
const FUZZ_TIMEOUT_MS = 300_000;
const SEED = 20261125;

const BOUNDARY_NUMBERS = [
  0,
  -1,
  1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  -1e21,
  1e308,
  -1e308,
  5e-324,
  0.5,
  8.64e15,
  8.64e15 + 1,
  253402300800000,
  -62135596800001,
];
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF',
  '%00',
  "' OR 1=1 --",
  '<img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '9'.repeat(40),
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x1F',
  '275760-09-13T00:00:00.001Z',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '9999-99-99',
  '1970-01-01T00:00:00Z',
  '\u202E\uFEFF',
  '𝕏'.repeat(30),
  'null',
  '{}',
];

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...BOUNDARY_NUMBERS),
  fc.constantFrom<unknown>(...ODD_STRINGS),
  fc.constantFrom<unknown>(null, true, false, [], {}),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.nat({ max: 200_000 }).map((n) => 'x'.repeat(n)),
);

/** 1–300 levels of arrays or objects around a value. */
const deep: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 1, max: 300 }), fc.boolean(), leaf)
  .map(([depth, arrays, v]) => {
    let out: unknown = v;
    for (let i = 0; i < depth; i++) out = arrays ? [out] : { a: out };
    return out;
  });

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: leaf },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.nat({ max: 5000 }).map((n) => Array.from({ length: n }, (_, i) => String(i))) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8, unit: 'binary' }), leaf, { maxKeys: 4 }) },
);

function fieldNames(schema: JsonSchema | null): string[] {
  if (!schema) return [];
  const names = new Set(Object.keys(schema.properties ?? {}));
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const n of fieldNames(alt)) names.add(n);
  return [...names];
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);

/**
 * Values that pass the schema's own shape (types, enums, patterns, bounds) but sit at its edges: boundary numbers
 * inside the declared range, odd strings within the declared length. These reach the handler and the database.
 */
function edgeValue(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return leaf;
  const alts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (alts.length > 0) return fc.oneof(...alts.map((a) => edgeValue(a, depth + 1)));
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') {
    const min = num(schema.minimum, -Number.MAX_VALUE);
    const max = num(schema.maximum, Number.MAX_VALUE);
    const inRange = [...BOUNDARY_NUMBERS, min, max].filter(
      (n) => n >= min && n <= max && Number.isFinite(n) && (type === 'number' || Number.isInteger(n)),
    );
    return inRange.length > 0 ? fc.constantFrom(...inRange) : fc.constant(min);
  }
  if (type === 'string') {
    const minLength = num(schema.minLength, 0);
    const maxLength = num(schema.maxLength, 100_000);
    if (typeof schema.pattern === 'string') {
      const re = new RegExp(schema.pattern);
      // fast-check cannot generate from every regex (lookaheads): those fields get the odd strings below.
      try {
        return fc.stringMatching(re).map((v) => v.slice(0, maxLength));
      } catch {}
    }
    const fits = ODD_STRINGS.filter((v) => v.length >= minLength && v.length <= maxLength);
    return fc.oneof(
      fits.length > 0 ? fc.constantFrom(...fits) : fc.constant('x'.repeat(minLength)),
      fc.constant('9'.repeat(Math.min(maxLength, 100_000))),
      fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)), unit: 'binary' }),
    );
  }
  if (type === 'boolean') return fc.boolean();
  if (type === 'array') {
    const minItems = num(schema.minItems, 0);
    return fc.array(edgeValue(schema.items, depth + 1), {
      minLength: minItems,
      maxLength: Math.max(minItems, Math.min(num(schema.maxItems, 3), 3)),
    });
  }
  if (type === 'object' || schema.properties) {
    const props = Object.entries(schema.properties ?? {});
    const required = new Set(schema.required ?? []);
    if (props.length === 0) return fc.constant({});
    return fc.record(Object.fromEntries(props.map(([k, v]) => [k, edgeValue(v, depth + 1)])), {
      requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
    });
  }
  return leaf;
}

/**
 * A bad body: edge values of the operation's own fields (most reach the handler), the same with one field made
 * plainly wrong, or any odd value at all (non-objects, deep nesting).
 */
function badBody(op: ApiOperation): fc.Arbitrary<unknown> {
  const edge = edgeValue(op.body ?? undefined);
  const names = fieldNames(op.body);
  const oneWrong =
    names.length === 0
      ? edge
      : fc
          .tuple(edge, fc.constantFrom(...names), value)
          .map(([b, name, v]) => (b && typeof b === 'object' && !Array.isArray(b) ? { ...b, [name]: v } : b));
  return fc.oneof({ weight: 4, arbitrary: edge }, { weight: 2, arbitrary: oneWrong }, { weight: 1, arbitrary: value });
}

/** A bad query string: edge values of the operation's own parameters, or odd text (pageNum / pageSize too). */
function badQuery(op: ApiOperation): fc.Arbitrary<string> {
  const params = [...op.query, ...['pageNum', 'pageSize'].map((name) => ({ name, required: false, schema: {} }))];
  const text = (schema: JsonSchema) =>
    fc.oneof(
      edgeValue(schema).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
      fc.constantFrom(...ODD_STRINGS, ...BOUNDARY_NUMBERS.map(String)),
    );
  return fc.tuple(...params.map((p) => fc.option(text(p.schema), { freq: 2 }))).map((values) =>
    values
      .map((v, i) => (v === null ? null : `${encodeURIComponent(params[i].name)}=${encodeURIComponent(v)}`))
      .filter((x) => x !== null)
      .join('&'),
  );
}

/** A session opened straight in the database (password changes made by the fuzzer cannot lock it out). */
async function sessionCookie(server: GatewayTestServer, userId: string): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await server.ctx.db
    .insertInto('sessions')
    .values({
      id: createHash('sha256').update(token).digest('hex'),
      user_id: userId,
      expires_at: new Date(Date.now() + 3_600_000),
    })
    .execute();
  return `${SESSION_COOKIE}=${token}`;
}

describe('fuzzing every operation of the OpenAPI document', () => {
  let server: GatewayTestServer;
  let ops: ApiOperation[];
  let tree: Tree;

  beforeAll(async () => {
    server = await createGatewayTestServer({ commandTimeoutMs: 500 }, { nbCallbackToken: 'fuzz-token' });
    tree = await buildTree(server, 'fz');
    await importDevices(tree.admin, tree.ids.userA1, [nextImei('35'), nextImei('35')]);
    await importDevices(tree.admin, tree.ids.userB1, [nextImei('35')]);
    ops = await apiOperations(server);
  });
  afterAll(async () => server.close());

  it('covers every operation, skipping only those listed with a reason', () => {
    const names = new Set(ops.map((o) => o.name));
    for (const name of Object.keys(SKIPPED))
      expect(names.has(name), `${name} is listed as skipped but gone`).toBe(true);
    expect(ops.length).toBeGreaterThan(100);
  });

  async function fuzz(userId: string, role: number, label: string): Promise<string[]> {
    const held = permissionsOf(role, server.config.appEnv);
    const permitted = ops.filter(
      (op) => !SKIPPED[op.name] && (op.permissions.length === 0 || holdsPermission(held, op.permissions)),
    );
    const failures: string[] = [];
    let cookie = await sessionCookie(server, userId);
    for (const [index, op] of permitted.entries()) {
      const isGet = op.method === 'GET';
      await fc
        .assert(
          fc.asyncProperty(isGet ? fc.constant(undefined) : badBody(op), badQuery(op), async (body, query) => {
            const res = await server.app.inject({
              method: op.method as 'GET' | 'POST',
              url: `${op.path.replace(/\{[^}]+\}/g, '1')}${query ? `?${query}` : ''}`,
              headers: { cookie, lang: 'fr', ...(isGet ? {} : { 'content-type': 'application/json' }) },
              ...(isGet ? {} : { payload: JSON.stringify(body) }),
            });
            if (res.statusCode >= 500) {
              const failure = `${label} ${op.name} → ${res.statusCode} ${res.body.slice(0, 200)} body=${JSON.stringify(body)?.slice(0, 300)} query=${query.slice(0, 200)}`;
              failures.push(failure);
              return false;
            }
            if (res.statusCode === 401) cookie = await sessionCookie(server, userId);
            return true;
          }),
          { numRuns: RUNS_PER_OPERATION, seed: SEED + index, endOnFailure: true },
        )
        .catch(() => {});
    }
    expect(permitted.length).toBeGreaterThan(label === 'admin' ? 100 : 40);
    // The admin is permitted every operation: none of the document's operations goes unfuzzed unless listed.
    if (label === 'admin')
      expect(permitted.map((o) => o.name)).toEqual(ops.filter((o) => !SKIPPED[o.name]).map((o) => o.name));
    return failures;
  }

  it(
    'an agent never gets a 5xx and changes nothing outside its own subtree',
    async () => {
      const agent = await server.ctx.db
        .selectFrom('users')
        .select(['id', 'path', 'role'])
        .where('id', '=', tree.ids.agentA)
        .executeTakeFirstOrThrow();
      // Anyone may open a "try it out" session (POST /api/login/demo): the demo account's sessions do not count.
      const demo = await server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'demo')
        .executeTakeFirstOrThrow();
      const outside = () => snapshotOutsideTree(server, agent.path, { ignoreSessionsOf: [demo.id] });
      const before = await outside();
      const failures = await fuzz(agent.id, agent.role, 'agent');
      await server.ctx.services.audit?.flush();
      expect(failures).toEqual([]);
      expect(JSON.parse(await outside())).toEqual(JSON.parse(before));
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'the admin never gets a 5xx',
    async () => {
      expect(await fuzz('1', 1, 'admin')).toEqual([]);
    },
    FUZZ_TIMEOUT_MS,
  );
});
