// The self-hosted PMTiles archive (PMTILES_FILE): offered as the `pmtiles` map type, served to signed-in
// users in byte ranges as the browser's pmtiles reader asks for them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/harness.ts';
import { earthTile, pmtilesArchive } from '../../testing/pmtiles.ts';
import { PMTILES_URL, pmtilesFromEnv } from './tileProviders.ts';

describe('self-hosted PMTiles archive', () => {
  let server: TestServer;
  let dir: string;
  let file: string;
  let archive: Uint8Array;
  const before = process.env.PMTILES_FILE;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'carhere-pmtiles-'));
    file = join(dir, 'base.pmtiles');
    archive = pmtilesArchive(earthTile(), 3);
    writeFileSync(file, archive);
    server = await createTestServer();
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.PMTILES_FILE;
    else process.env.PMTILES_FILE = before;
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (client: ApiClient | null, range?: string) =>
    server.app.inject({
      method: 'GET',
      url: PMTILES_URL,
      headers: { ...(client?.cookie ? { cookie: client.cookie } : {}), ...(range ? { range } : {}) },
    });

  it('reads the archive path from the environment: an absolute path to an existing file, or nothing', () => {
    expect(pmtilesFromEnv({})).toBeNull();
    expect(pmtilesFromEnv({ PMTILES_FILE: 'base.pmtiles' })).toBeNull();
    expect(pmtilesFromEnv({ PMTILES_FILE: join(dir, 'missing.pmtiles') })).toBeNull();
    expect(pmtilesFromEnv({ PMTILES_FILE: dir })).toBeNull();
    expect(pmtilesFromEnv({ PMTILES_FILE: file, PMTILES_ATTRIBUTION: '© OSM' })).toEqual({
      file,
      attribution: '© OSM',
    });
  });

  it('is offered as a map type only when configured, and served in byte ranges to signed-in users', async () => {
    delete process.env.PMTILES_FILE;
    const admin = new ApiClient(server);
    expect((await admin.login('admin', TEST_ADMIN_PASSWORD)).meta.code).toBe(200);
    let providers = await admin.post<{ visible: string[]; pmtiles: unknown }>('/map/findProviders');
    expect(providers.data.pmtiles).toBeNull();
    expect(providers.data.visible).not.toContain('pmtiles');
    expect((await get(admin)).statusCode).toBe(404);

    process.env.PMTILES_FILE = file;
    providers = await admin.post<{ visible: string[]; pmtiles: unknown }>('/map/findProviders');
    expect(providers.data.pmtiles).toEqual({ url: PMTILES_URL, attribution: '' });
    expect(providers.data.visible).toContain('pmtiles');

    // Anonymous callers get nothing.
    const anonymous = await get(null, 'bytes=0-126');
    expect(anonymous.statusCode).not.toBe(206);
    expect(anonymous.rawPayload.subarray(0, 7).toString()).not.toBe('PMTiles');

    // The header (first 127 bytes), as the reader asks for it first.
    const head = await get(admin, 'bytes=0-126');
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-126/${archive.length}`);
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(head.rawPayload.length).toBe(127);
    expect(head.rawPayload.subarray(0, 7).toString()).toBe('PMTiles');
    expect(head.rawPayload[7]).toBe(3);

    // A range in the middle, one past the end (clamped), and an unsatisfiable one.
    const mid = await get(admin, 'bytes=100-139');
    expect(mid.statusCode).toBe(206);
    expect([...mid.rawPayload]).toEqual([...archive.subarray(100, 140)]);
    const tail = await get(admin, `bytes=${archive.length - 5}-${archive.length + 100}`);
    expect([...tail.rawPayload]).toEqual([...archive.subarray(archive.length - 5)]);
    expect((await get(admin, `bytes=${archive.length}-`)).statusCode).toBe(416);

    // Without a range: the whole archive.
    const whole = await get(admin);
    expect(whole.statusCode).toBe(200);
    expect([...whole.rawPayload]).toEqual([...archive]);
  });
});
