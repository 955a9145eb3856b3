// The API's operations as its own OpenAPI document (/api/openapi.json) lists them, for tests that must cover
// every operation: a new endpoint is covered the moment it is registered.
import type { TestServer } from './harness.ts';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  [key: string]: unknown;
}

export interface ApiOperation {
  method: string;
  /** '/api/user/findById' ('{id}' path parameters as in the document) */
  path: string;
  /** 'POST /api/user/findById', as http/operations.ts names it */
  name: string;
  /** Reachable without a session (security: [] in the document). */
  public: boolean;
  /** Permissions of which the caller needs one (x-permissions); empty: any logged-in caller. */
  permissions: string[];
  body: JsonSchema | null;
  query: { name: string; required: boolean; schema: JsonSchema }[];
}

export async function apiOperations(server: TestServer): Promise<ApiOperation[]> {
  const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
  const doc = res.json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          security?: unknown[];
          'x-permissions'?: string[];
          requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
          parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
        }
      >
    >;
  };
  const out: ApiOperation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const m = method.toUpperCase();
      out.push({
        method: m,
        path,
        name: `${m} ${path}`,
        public: Array.isArray(op.security) && op.security.length === 0,
        permissions: op['x-permissions'] ?? [],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        query: (op.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} })),
      });
    }
  }
  return out;
}
