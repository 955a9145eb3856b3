// AGPS files: upload per provider and kind, a stable public URL with Last-Modified and ETag (304 when unchanged,
// full downloads counted), an upstream refreshed on a schedule from a real HTTP server on loopback (conditional
// requests, unchanged content keeps its age, an upstream error kept on the row while the old file stays served),
// delete, the roles that own the screen (test, wanweiTest) and bad input.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { refreshDueAgps } from './routes.ts';

interface AgpsFile {
  id: string;
  provider: string;
  kind: string;
  size: number;
  sha256: string;
  modifiedAt: string | null;
  ageSeconds: number | null;
  upstreamUrl: string | null;
  refreshMinutes: number | null;
  lastFetchAt: string | null;
  lastError: string;
  downloads: number;
  path: string;
}

async function fetchFile(server: TestServer, path: string, headers: Record<string, string> = {}) {
  return server.app.inject({ method: 'GET', url: path, headers });
}

describe('AGPS files', () => {
  let server: TestServer;
  let staff: ApiClient;
  let wanwei: ApiClient;
  let upstream: Server;
  let upstreamUrl: string;
  let upstreamBody = Buffer.from('first almanac');
  let upstreamStatus = 200;
  const upstreamRequests: { inm: string | undefined }[] = [];

  beforeAll(async () => {
    server = await createTestServer();
    staff = await userClient(server, 'agps-test', 5);
    wanwei = await userClient(server, 'agps-wanwei', 7);
    upstream = createServer((req, res) => {
      upstreamRequests.push({ inm: req.headers['if-none-match'] });
      const etag = `"v${upstreamBody.length}-${upstreamBody[0]}"`;
      if (upstreamStatus !== 200) {
        res.writeHead(upstreamStatus).end('down');
        return;
      }
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { etag, 'content-type': 'application/ubx' }).end(upstreamBody);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/data/mgaonline.ubx`;
  });
  afterAll(async () => {
    upstream.close();
    await server.close();
  });

  it('serves an uploaded file at a stable URL with Last-Modified and ETag; 304 when unchanged; counts downloads', async () => {
    const data = randomBytes(3000);
    const up = await staff.post<AgpsFile>('/agps/upload', {
      provider: 'ublox',
      kind: 'mga_offline',
      fileName: 'offline.ubx',
      data: data.toString('base64'),
    });
    expect(up.status).toBe(200);
    expect(up.data).toMatchObject({ provider: 'ublox', kind: 'mga_offline', size: 3000, downloads: 0 });
    expect(up.data.path).toBe('/api/agps/file/ublox/mga_offline');
    const first = await fetchFile(server, up.data.path);
    expect(first.statusCode).toBe(200);
    expect(Buffer.compare(first.rawPayload, data)).toBe(0);
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toBe(`"${up.data.sha256}"`);
    expect(Date.parse(lastModified)).toBe(Math.floor(Date.parse(up.data.modifiedAt as string) / 1000) * 1000);
    expect((await fetchFile(server, up.data.path, { 'if-none-match': etag })).statusCode).toBe(304);
    expect((await fetchFile(server, up.data.path, { 'if-modified-since': lastModified })).statusCode).toBe(304);
    expect((await fetchFile(server, up.data.path, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await fetchFile(server, '/api/agps/file/ublox/nothing')).statusCode).toBe(404);

    // Replaced: same URL, new validators, the age starts again; the screen's list shows the count.
    await sql`UPDATE agps_files SET modified_at = now() - interval '2 hours' WHERE id = ${up.data.id}::bigint`.execute(
      server.ctx.db,
    );
    const aged = await wanwei.post<{ list: AgpsFile[] }>('/agps/find', {});
    const before = aged.data.list.find((f) => f.id === up.data.id) as AgpsFile;
    expect(before.downloads).toBe(2);
    expect(before.ageSeconds).toBeGreaterThanOrEqual(7200);
    const next = randomBytes(100);
    const again = await staff.post<AgpsFile>('/agps/upload', {
      provider: 'ublox',
      kind: 'mga_offline',
      fileName: 'offline2.ubx',
      data: next.toString('base64'),
    });
    expect(again.data.id).toBe(up.data.id);
    expect(again.data.ageSeconds).toBeLessThan(7200);
    const fresh = await fetchFile(server, up.data.path, { 'if-none-match': etag });
    expect(fresh.statusCode).toBe(200);
    expect(Buffer.compare(fresh.rawPayload, next)).toBe(0);
  });

  it('refreshes from an upstream URL on its schedule, conditionally; an upstream error keeps the old file', async () => {
    const set = await staff.post<AgpsFile>('/agps/source', {
      provider: 'ublox',
      kind: 'mga_online',
      upstreamUrl,
      refreshMinutes: 30,
    });
    expect(set.status).toBe(200);
    expect(set.data).toMatchObject({ upstreamUrl, refreshMinutes: 30, size: 13, lastError: '' });
    expect(upstreamRequests).toHaveLength(1);
    const served = await fetchFile(server, set.data.path);
    expect(served.rawPayload.toString()).toBe('first almanac');
    expect(served.headers['content-type']).toContain('application/ubx');

    // Not due yet: nothing fetched. Due: fetched with the upstream's ETag; unchanged (304) keeps the file's age.
    expect(await refreshDueAgps(server.ctx)).toBe(0);
    const due = sql`UPDATE agps_files SET next_refresh_at = now() - interval '1 second' WHERE id = ${set.data.id}::bigint`;
    await due.execute(server.ctx.db);
    expect(await refreshDueAgps(server.ctx)).toBe(1);
    expect(upstreamRequests[1]?.inm).toMatch(/^"v13-/);
    const unchanged = (await staff.post<{ list: AgpsFile[] }>('/agps/find', { provider: 'ublox' })).data.list.find(
      (f) => f.kind === 'mga_online',
    ) as AgpsFile;
    expect(unchanged.modifiedAt).toBe(set.data.modifiedAt);
    expect(Date.parse(unchanged.lastFetchAt as string)).toBeGreaterThan(Date.parse(set.data.lastFetchAt as string));
    // Claimed once: the next time moved on by refreshMinutes.
    expect(await refreshDueAgps(server.ctx)).toBe(0);

    // Changed upstream: new content at the same URL.
    upstreamBody = Buffer.from('second almanac, longer');
    await due.execute(server.ctx.db);
    expect(await refreshDueAgps(server.ctx)).toBe(1);
    expect((await fetchFile(server, set.data.path)).rawPayload.toString()).toBe('second almanac, longer');

    // Upstream down: the error is shown, the file stays served.
    upstreamStatus = 503;
    const failed = await staff.post<AgpsFile>('/agps/refresh', { id: set.data.id });
    expect(failed.data.lastError).toBe('upstream answered 503');
    expect((await fetchFile(server, set.data.path)).rawPayload.toString()).toBe('second almanac, longer');
    upstreamStatus = 200;

    const removed = await staff.post('/agps/delete', { id: set.data.id });
    expect(removed.data).toEqual({ deleted: true });
    expect((await fetchFile(server, set.data.path)).statusCode).toBe(404);
    expect((await staff.post('/agps/delete', { id: set.data.id })).status).toBe(404);
  });

  it('is for the test and wanweiTest roles; bad input is refused', async () => {
    const log = await userClient(server, 'agps-log', 8);
    const search = await userClient(server, 'agps-search', 6);
    for (const c of [log, search]) {
      expect((await c.post('/agps/find', {})).status).toBe(403);
      expect((await c.post('/agps/upload', { provider: 'a', kind: 'b', fileName: 'c', data: 'AAAA' })).status).toBe(
        403,
      );
    }
    expect((await wanwei.post('/agps/upload', { provider: 'a', kind: 'b', fileName: 'c', data: 'AAAA' })).status).toBe(
      200,
    );
    for (const bad of [
      { provider: 'a/b', kind: 'b', fileName: 'c', data: 'AAAA' },
      { provider: 'a', kind: '', fileName: 'c', data: 'AAAA' },
      { provider: 'a', kind: 'b', fileName: 'c', data: '***' },
    ]) {
      expect((await staff.post('/agps/upload', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    for (const bad of [
      { provider: 'a', kind: 'b', upstreamUrl: 'ftp://x/y' },
      { provider: 'a', kind: 'b', upstreamUrl: 'not a url' },
      { provider: 'a', kind: 'b', upstreamUrl: upstreamUrl, refreshMinutes: 0 },
    ]) {
      expect((await staff.post('/agps/source', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    const plain = (await staff.post<{ list: AgpsFile[] }>('/agps/find', {})).data.list.find(
      (f) => f.provider === 'a',
    ) as AgpsFile;
    expect((await staff.post('/agps/refresh', { id: plain.id })).status).toBe(400);
  });
});
