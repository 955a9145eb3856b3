import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import type { DeviceRef } from '../directory.ts';
import type { DeviceEnvelope } from '../events.ts';
import { IngestBatcher } from './batcher.ts';
import { PartitionManager } from './partitions.ts';
import { DeviceStateWriter } from './state-writer.ts';
import type { StoredPosition } from './types.ts';

const BASE = Date.UTC(2026, 10, 20, 0, 0, 0);

function position(i: number, over: Partial<StoredPosition> = {}): StoredPosition {
  return {
    time: BASE + i * 1000,
    lat: 39.9 + i * 1e-4,
    lon: 116.4 + i * 1e-4,
    altitude: 10,
    speed: 30,
    course: 45,
    valid: true,
    satellites: 8,
    locationType: 'gps',
    acc: true,
    mileage: 1000 + i,
    battery: 80,
    ...over,
  };
}

describe('ingest batcher and device state writer', () => {
  let server: TestServer;
  let device: DeviceRef;
  let batcher: IngestBatcher;
  let state: DeviceStateWriter;
  const events: DeviceEnvelope[] = [];

  beforeAll(async () => {
    server = await createTestServer();
    const { db, dbHandle, bus } = server.ctx;
    const row = await db
      .insertInto('devices')
      .values({ terminal_id: '868120000000001', user_id: '2', protocol: 2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    device = {
      id: String(row.id),
      terminalId: '868120000000001',
      protocol: 2,
      nbDeviceId: null,
      deviceType: 12,
      timeZone: 8,
      speedLimit: 120,
      path: '/1/2/',
      activated: true,
      deleted: false,
    };
    bus.subscribe('device.>', (p) => events.push(p as DeviceEnvelope));
    const partitions = new PartitionManager(dbHandle.pool);
    await partitions.prepare();
    state = new DeviceStateWriter(dbHandle.pool, bus, 10_000);
    batcher = new IngestBatcher(dbHandle.pool, bus, partitions, state, {
      maxBatchRows: 3,
      writers: 1,
      highWaterRows: 5,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('acknowledges each record only after its positions are committed, then publishes them', async () => {
    const acked: number[] = [];
    const stored: number[] = [];
    for (let i = 0; i < 7; i++) {
      batcher.submit({
        device,
        positions: [position(i)],
        alarms: [],
        status: null,
        receivedAt: Date.now(),
        done: async (err) => {
          expect(err).toBeUndefined();
          // At ACK time the row must already be visible to another connection.
          const found = await server.ctx.db
            .selectFrom('positions')
            .select('time')
            .where('device_id', '=', device.id)
            .where('time', '=', new Date(BASE + i * 1000))
            .executeTakeFirst();
          if (found) stored.push(i);
          acked.push(i);
        },
      });
    }
    expect(batcher.overloaded).toBe(true);
    await batcher.flush();
    await new Promise((r) => setTimeout(r, 50));
    expect(acked.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(stored.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(batcher.stats.committedBatches).toBeGreaterThanOrEqual(3); // maxBatchRows 3
    const positions = events.filter((e) => e.event.type === 'position');
    expect(positions).toHaveLength(7);
    expect(positions[0]).toMatchObject({
      path: '/1/2/',
      event: { deviceId: device.id, terminalID: '868120000000001', lat: 39.9 },
    });
  });

  it('stores a resent fix once, and alarms with their ids published', async () => {
    const alarmEvents = () => events.filter((e) => e.event.type === 'alarm');
    const before = alarmEvents().length;
    const alarm = {
      type: 1,
      name: 'sos',
      source: 'device' as const,
      time: BASE,
      lat: 39.9,
      lon: 116.4,
      speed: 0,
      course: 0,
    };
    for (let k = 0; k < 2; k++) {
      batcher.submit({
        device,
        positions: [position(0)],
        alarms: [alarm],
        status: null,
        receivedAt: Date.now(),
        done: null,
      });
      await batcher.flush();
    }
    const count = await server.ctx.db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('device_id', '=', device.id)
      .where('time', '=', new Date(BASE))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    const alarms = await server.ctx.db.selectFrom('alarms').selectAll().where('device_id', '=', device.id).execute();
    expect(alarms).toHaveLength(1);
    expect(alarmEvents().length - before).toBe(1);
    expect(alarmEvents().at(-1)?.event).toMatchObject({
      type: 'alarm',
      id: String(alarms[0].id),
      alarmType: 1,
      read: false,
    });
  });

  it('writes positions into a monthly partition created on demand', async () => {
    const old = Date.UTC(2026, 6, 15); // within the window that gets partitions
    batcher.submit({
      device,
      positions: [position(0, { time: old })],
      alarms: [],
      status: null,
      receivedAt: Date.now(),
      done: null,
    });
    await batcher.flush();
    const { rows } = await server.ctx.dbHandle.pool.query<{ part: string }>(
      `SELECT tableoid::regclass::text AS part FROM positions WHERE device_id = $1 AND time = $2`,
      [device.id, new Date(old)],
    );
    expect(rows[0]?.part).toBe('positions_2026_07');
  });

  it('coalesces state: one row per device with the newest fix, status merged; online/offline by session', async () => {
    const row0 = await server.ctx.db
      .insertInto('devices')
      .values({ terminal_id: '868120000000002', user_id: '2', protocol: 2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const device = {
      id: String(row0.id),
      terminalId: '868120000000002',
      protocol: 2,
      nbDeviceId: null,
      timeZone: 8,
      speedLimit: 120,
      path: '/1/2/',
      activated: true,
      deleted: false,
    };
    const firstState = events.length;
    await state.setOnline(device, 'session-a', BASE);
    state.noteRecord(device.id, position(10), { tyres: [{ pressure: 230 }] }, BASE + 20_000);
    state.noteRecord(device.id, position(5), { acc: false, attributes: { power: 12 } }, BASE + 15_000);
    await state.flush();
    const row = await server.ctx.db
      .selectFrom('device_state')
      .selectAll()
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(row.online).toBe(true);
    expect(row.session_key).toBe('session-a');
    expect(row.pos_time?.getTime()).toBe(BASE + 10_000);
    expect(row.lat).toBeCloseTo(39.901, 6);
    expect(row.acc).toBe(false);
    expect(row.tyres).toEqual([{ pressure: 230 }]);
    expect(row.attributes).toMatchObject({ power: 12 });
    expect(row.last_seen?.getTime()).toBe(BASE + 20_000);

    // An older fix arriving later does not move the device back.
    state.noteRecord(device.id, position(1), null, BASE + 21_000);
    await state.flush();
    const again = await server.ctx.db
      .selectFrom('device_state')
      .select(['pos_time'])
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(again.pos_time?.getTime()).toBe(BASE + 10_000);

    // A newer session took over: the old one closing does not mark the device offline.
    await state.setOnline(device, 'session-b', BASE + 30_000);
    expect(await state.setOffline(device, 'session-a', BASE + 31_000)).toBeNull();
    const last = await state.setOffline(device, 'session-b', BASE + 32_000);
    expect(last?.lat).toBeCloseTo(39.901, 6);
    const off = await server.ctx.db
      .selectFrom('device_state')
      .select(['online', 'state_time'])
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(off.online).toBe(false);
    expect(off.state_time?.getTime()).toBe(BASE + 32_000);
    const states = events
      .slice(firstState)
      .filter((e) => e.event.type === 'state')
      .map((e) => (e.event as { online: boolean }).online);
    expect(states).toEqual([true, true, false]);
  });

  it('gives a record that the database refuses an error instead of an ACK, and keeps going', async () => {
    const results: (Error | undefined)[] = [];
    const bad = { ...device, id: '99999999999999999999' }; // out of bigint range: a data error
    batcher.submit({
      device: bad,
      positions: [position(50)],
      alarms: [],
      status: null,
      receivedAt: Date.now(),
      done: (err) => results.push(err),
    });
    batcher.submit({
      device,
      positions: [position(51)],
      alarms: [],
      status: null,
      receivedAt: Date.now(),
      done: (err) => results.push(err),
    });
    await batcher.flush();
    expect(results).toHaveLength(2);
    expect(results.filter((e) => e instanceof Error)).toHaveLength(1);
    expect(results.filter((e) => e === undefined)).toHaveLength(1);
    expect(batcher.stats.droppedRecords).toBe(1);
  });
});
