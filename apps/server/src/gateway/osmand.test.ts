// Phones as trackers: the OsmAnd HTTP listener, driven with a real HTTP client (fetch) against its real port. A
// device imported through the device import (a phone identifier that is no IMEI) reports in both forms; the fix is
// stored and reaches its owner's live WebSocket; unknown identifiers are refused and logged like unknown GT06
// terminals.
import type { AddressInfo } from 'node:net';
import { seededRandom, sendOsmandFix, VehicleTrack } from '@carhere/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiClient } from '../testing/harness.ts';
import { adminClient, createGatewayTestServer, type GatewayTestServer, waitFor } from './test-support.ts';

describe('OsmAnd HTTP protocol (phones)', () => {
  let server: GatewayTestServer;
  let phoneUrl: string;
  let wsUrl: string;
  const phoneId = `pixel${String(process.pid).padStart(7, '0').slice(-7)}ab`;

  beforeAll(async () => {
    server = await createGatewayTestServer();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/api/ws`;
    phoneUrl = `http://127.0.0.1:${server.gateway.ports.osmand}`;
    const admin = await adminClient(server);
    // The import (protocol 0, "other") takes a phone's identifier of 10-15 letters and digits.
    const imported = await admin.post<{ status: string; result: { success: number } }>('/device/import', {
      userId: '2',
      text: phoneId,
      protocol: 0,
      deviceType: 12,
      wait: true,
    });
    expect(imported.meta.success).toBe(true);
    expect(imported.data.result.success).toBe(1);
  });
  afterAll(async () => {
    await server.close();
  });

  function openLive(cookie: string): Promise<{ ws: WebSocket; messages: Record<string, unknown>[] }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl, { headers: { cookie } });
      const messages: Record<string, unknown>[] = [];
      ws.on('message', (data) => messages.push(JSON.parse(String(data))));
      ws.on('open', () => resolve({ ws, messages }));
      ws.on('error', reject);
    });
  }

  it('listens on its own port beside GT06 and JT/T 808', () => {
    expect(server.gateway.ports.osmand).toBeGreaterThan(0);
    expect(server.gateway.ports.osmand).not.toBe(server.gateway.ports.gt06);
  });

  it('stores a query-form fix (speed in knots) and shows it on the owner’s live feed', async () => {
    const demo = new ApiClient(server);
    await demo.post('/login/demo');
    const { ws, messages } = await openLive(demo.cookie);
    await waitFor(() => messages.some((m) => m.type === 'hello'), 20_000, 'hello');
    const ts = Math.floor(Date.now() / 1000) - 30;
    const res = await fetch(
      `${phoneUrl}/?id=${phoneId}&lat=39.9087&lon=116.3975&timestamp=${ts}&speed=20&bearing=45&altitude=44&accuracy=6&batt=81`,
      { method: 'POST' },
    );
    expect(res.status).toBe(200);
    const row = await server.ctx.db
      .selectFrom('positions as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .selectAll('p')
      .where('d.terminal_id', '=', phoneId)
      .executeTakeFirstOrThrow();
    expect(new Date(row.time).getTime()).toBe(ts * 1000);
    expect(Number(row.lat)).toBeCloseTo(39.9087, 5);
    expect(Number(row.lon)).toBeCloseTo(116.3975, 5);
    expect(Number(row.speed)).toBeCloseTo(37.04, 1);
    const live = await waitFor(
      () => messages.find((m) => m.type === 'position' && m.terminalID === phoneId),
      20_000,
      'live position',
    );
    expect(live).toMatchObject({ lat: 39.9087, lon: 116.3975, battery: 81 });
    ws.close();
    // The phone's first report activated the device.
    const device = await server.ctx.db
      .selectFrom('devices')
      .select('activated_at')
      .where('terminal_id', '=', phoneId)
      .executeTakeFirstOrThrow();
    expect(device.activated_at).not.toBeNull();
  });

  it('stores the JSON form of Traccar Client 9 (speed in m/s)', async () => {
    const time = new Date(Date.now() - 10_000).toISOString();
    const res = await fetch(phoneUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: phoneId,
        location: {
          timestamp: time,
          coords: { latitude: 39.91, longitude: 116.4, speed: 10, heading: 180, accuracy: 5, altitude: 40 },
          battery: { level: 0.5, is_charging: true },
          is_moving: true,
        },
      }),
    });
    expect(res.status).toBe(200);
    const row = await server.ctx.db
      .selectFrom('positions as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .select(['p.speed', 'p.course'])
      .where('d.terminal_id', '=', phoneId)
      .where('p.time', '=', new Date(time))
      .executeTakeFirstOrThrow();
    expect(Number(row.speed)).toBeCloseTo(36, 1);
    expect(Number(row.course)).toBe(180);
  });

  it('takes the simulator’s phones in both forms', async () => {
    const track = new VehicleTrack({
      centerLat: 39.9,
      centerLon: 116.4,
      radiusKm: 5,
      maxSpeed: 60,
      random: seededRandom(7),
    });
    const fixes = [track.next(10), track.next(10)];
    expect(await sendOsmandFix(phoneUrl, phoneId, fixes[0], 'query')).toBe(200);
    expect(await sendOsmandFix(phoneUrl, phoneId, fixes[1], 'json')).toBe(200);
    const rows = await server.ctx.db
      .selectFrom('positions as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .select(['p.time', 'p.speed'])
      .where('d.terminal_id', '=', phoneId)
      .where(
        'p.time',
        'in',
        fixes.map((f) => new Date(Math.floor(f.time / 1000) * 1000)),
      )
      .execute();
    expect(rows.length).toBe(2);
  });

  it('refuses an unknown identifier (404) and logs it as refused', async () => {
    const stranger = `stranger${process.pid}`;
    const res = await fetch(`${phoneUrl}/?id=${stranger}&lat=1&lon=2`);
    expect(res.status).toBe(404);
    const log = await waitFor(
      () =>
        server.ctx.db
          .selectFrom('device_log')
          .selectAll()
          .where('terminal_id', '=', stranger)
          .where('event', '=', 'refused')
          .executeTakeFirst(),
      20_000,
      'refused log',
    );
    expect(log.protocol).toBe('osmand');
    const stored = await server.ctx.db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('lat', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(0);
  });

  it('answers 400 to a request it cannot read', async () => {
    expect((await fetch(`${phoneUrl}/?lat=1&lon=2`)).status).toBe(400);
    const bad = await fetch(phoneUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(bad.status).toBe(400);
  });
});
