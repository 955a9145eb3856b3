// The known drive (issue 13): straight legs, a 20-minute stop, an SOS and an overspeed, fed over real TCP by the
// simulator (GT06 without an odometer, JT/T 808 with one), rolled up by the real path (dirty marks written with
// the fixes → roll-up job on the queue → stat_daily) and read back through the API. Runs on PGlite, and on
// PostgreSQL with DATABASE_URL.
import { dayBounds, dayKey, greatCircleMetres } from '@carhere/domain';
import type { Fix } from '@carhere/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';

const STEP_S = 10;
const ZONE = 'Asia/Shanghai';
/** 10:00 in Shanghai on the day before yesterday (a day that has ended, in the demo account's zone). */
const DAY = dayKey(Date.now() - 2 * 86_400_000, ZONE);
const START = dayBounds(DAY, ZONE).start + 10 * 3_600_000;

interface Planned extends Fix {
  alarm: 'sos' | null;
}

/** North 10 min at 60 km/h; stopped 20 min (ACC off, an SOS); east 3 min at 130 km/h, then 5 min at 60 km/h. */
function plan(): Planned[] {
  const out: Planned[] = [];
  let lat = 22.5;
  let lon = 114.0;
  let t = START;
  let odometer = 1_000_000;
  const push = (speed: number, acc: boolean, alarm: Planned['alarm'] = null) => {
    out.push({
      time: t,
      lat,
      lon,
      speed,
      course: 0,
      altitude: 0,
      satellites: 9,
      mileage: odometer,
      acc,
      battery: 80,
      alarm,
    });
    t += STEP_S * 1000;
  };
  const leg = (seconds: number, speed: number, dLat: number, dLon: number) => {
    const n = seconds / STEP_S;
    const metres = (speed / 3.6) * STEP_S;
    const degLat = metres / 111_195;
    const degLon = metres / (111_195 * Math.cos((lat * Math.PI) / 180));
    for (let i = 0; i < n; i++) {
      const before = { lat, lon };
      lat += dLat * degLat;
      lon += dLon * degLon;
      odometer += greatCircleMetres(before.lat, before.lon, lat, lon);
      push(speed, true);
    }
  };
  push(0, true);
  leg(600, 60, 1, 0);
  for (let i = 0; i < 120; i++) push(0, false, i === 60 ? 'sos' : null);
  leg(180, 130, 0, 1);
  leg(300, 60, 0, 1);
  return out;
}

function greatCircleSum(fixes: Fix[]): number {
  let m = 0;
  for (let i = 1; i < fixes.length; i++)
    m += greatCircleMetres(fixes[i - 1].lat, fixes[i - 1].lon, fixes[i].lat, fixes[i].lon);
  return m;
}

describe('the known drive over TCP', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;
  const fixes = plan();
  const expected = greatCircleSum(fixes);
  const stopStart = fixes.findIndex((f, i) => i > 0 && f.speed === 0);
  const devices: { protocol: 'gt06' | 'jt808'; terminalId: string }[] = [
    { protocol: 'gt06', terminalId: newTerminalId('gt06') },
    { protocol: 'jt808', terminalId: newTerminalId('jt808') },
  ];

  beforeAll(async () => {
    server = await createGatewayTestServer({ statsRollupDelaySeconds: 0 });
    demo = await demoClient(server);
    for (const d of devices) {
      await addDevice(server, d.terminalId, d.protocol);
      const sim = simulatedDevice(server.gateway, d.protocol, d.terminalId);
      await sim.connect();
      for (const f of fixes) sim.sendFix(f, f.alarm);
      await waitFor(() => sim.stats.acked === fixes.length, 30_000, `${d.protocol} acks`);
      sim.stop();
    }
    // The roll-up job (on the queue) empties the dirty marks the ingest wrote with the fixes.
    await waitFor(
      async () => {
        const left = await server.ctx.dbHandle.pool.query('SELECT 1 FROM stat_dirty');
        const rows = await server.ctx.dbHandle.pool.query('SELECT 1 FROM stat_daily WHERE day = $1::date', [DAY]);
        return left.rowCount === 0 && rows.rowCount === devices.length;
      },
      60_000,
      'roll-up',
    );
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  const range = () => ({ startTime: START - 3_600_000, endTime: START + 3 * 3_600_000 });

  it.each([0, 1])('device %i: the day row has the mileage, stop, alarm and overspeed counts', async (k) => {
    const d = devices[k];
    const res = await demo.post<{ total: number; list: Record<string, number | string>[] }>('/stat/find', {
      terminalIDs: [d.terminalId],
      ...range(),
    });
    expect(res.data.total).toBe(1);
    const row = res.data.list[0];
    expect(row.statsticDate).toBe(DAY);
    expect(Math.abs((row.mileage as number) - expected) / expected).toBeLessThan(0.01);
    expect(row.stopCount).toBe(1);
    expect(row.overspeedCount).toBe(1);
    expect(row.alarmCount).toBe(2); // the SOS and the ingest's overspeed alarm
    expect(row.maxSpeed).toBe(130);
    const alarms = await demo.post<{ list: { type: number; count: number }[] }>('/stat/alarms', {
      terminalIDs: [d.terminalId],
      ...range(),
    });
    expect(alarms.data.list.map((a) => [a.type, a.count])).toEqual([
      [1, 1],
      [6, 1],
    ]);
  });

  it.each([0, 1])('device %i: exactly the one stay and the two trips', async (k) => {
    const d = devices[k];
    const stays = await demo.post<{ list: Record<string, number | string>[] }>('/stay/find', {
      terminalIDs: [d.terminalId],
      ...range(),
    });
    expect(stays.data.list).toHaveLength(1);
    const stay = stays.data.list[0];
    // from the first standing fix to the first fix that moves again
    expect(stay.startTime).toBe(new Date(fixes[stopStart].time).toISOString());
    expect(stay.endTime).toBe(new Date(fixes[stopStart + 120].time).toISOString());
    expect(stay.seconds).toBe(1200);
    expect(stay.accOnSeconds).toBe(0);
    expect(stay.lat).toBeCloseTo(fixes[stopStart].lat, 5);
    const trips = await demo.post<{ list: Record<string, number | string>[] }>('/stat/trips', {
      terminalIDs: [d.terminalId],
      ...range(),
    });
    expect(trips.data.list).toHaveLength(2);
    const [first, second] = trips.data.list;
    expect(first.startTime).toBe(new Date(fixes[0].time).toISOString());
    expect(first.endTime).toBe(stay.startTime);
    expect(second.startTime).toBe(new Date(fixes[stopStart + 119].time).toISOString());
    expect(second.endTime).toBe(new Date(fixes[fixes.length - 1].time).toISOString());
    expect(second.maxSpeed).toBe(130);
    const legs = (first.distance as number) + (second.distance as number);
    expect(Math.abs(legs - expected) / expected).toBeLessThan(0.01);
  });

  it('a late fix for the day recomputes its row', async () => {
    const d = devices[0];
    const before = await demo.post<{ list: { mileage: number; computed?: string }[] }>('/stat/find', {
      terminalIDs: [d.terminalId],
      ...range(),
    });
    const sim = simulatedDevice(server.gateway, d.protocol, d.terminalId);
    await sim.connect();
    const last = fixes[fixes.length - 1];
    // 5 more minutes east at 60 km/h, sent now for a day that has ended
    const extra: Fix[] = [];
    let lon = last.lon;
    for (let i = 1; i <= 30; i++) {
      lon += ((60 / 3.6) * STEP_S) / (111_195 * Math.cos((last.lat * Math.PI) / 180));
      extra.push({ ...last, time: last.time + i * STEP_S * 1000, lon, speed: 60 });
    }
    for (const f of extra) sim.sendFix(f);
    await waitFor(() => sim.stats.acked === extra.length, 30_000, 'late acks');
    sim.stop();
    const added = greatCircleSum([last, ...extra]);
    const after = await waitFor(
      async () => {
        const res = await demo.post<{ list: { mileage: number }[] }>('/stat/find', {
          terminalIDs: [d.terminalId],
          ...range(),
        });
        return res.data.list[0].mileage > before.data.list[0].mileage ? res.data.list[0] : null;
      },
      30_000,
      'recomputed row',
    );
    expect(Math.abs(after.mileage - (expected + added)) / (expected + added)).toBeLessThan(0.01);
  });
});
