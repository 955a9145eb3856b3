// GPS tests recorded from the real gateway path: simulated GT06 trackers connect over TCP; a device in factory
// test mode (in stock = no owner, its model with configList criteria) gets one 'gps' QC result per connection at
// its first fix, judged against the model's criteria; a customer's device and a model without criteria get none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../testing/harness.ts';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from './test-support.ts';

interface QcRow {
  kind: string;
  imei: string;
  model: string;
  station: string;
  satellites: number | null;
  cn0: number | null;
  ttff: number | null;
  pass: boolean;
  failures: string[];
}

describe('GPS test of devices in factory test mode, over TCP', () => {
  let server: GatewayTestServer;
  let tester: ApiClient;
  const sims: { stop(): void }[] = [];

  beforeAll(async () => {
    server = await createGatewayTestServer();
    tester = await userClient(server, 'gps-tester', 5);
    // configList: Gt06 (model code 12) needs 8 satellites; no criteria for K100 (code 0).
    const admin = await adminClient(server);
    const saved = await admin.post('/serials/config/save', {
      model: 'Gt06',
      minSatellites: 8,
      minCn0: 35,
      minGsm: 20,
      firmware: 'V9.9',
    });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    for (const s of sims) s.stop();
    await server.close();
  });

  const gpsResults = async (imei: string) =>
    (await tester.post<{ list: QcRow[] }>('/qc/find', { imei, kind: 'gps' })).data.list.filter((r) => r.imei === imei);

  /** Connects a tracker, sends fixes with these satellite counts and waits until each is stored (ACKed). */
  async function runTracker(imei: string, satellites: number[]) {
    const sim = simulatedDevice(server.gateway, 'gt06', imei);
    sims.push(sim);
    await sim.connect();
    for (const [i, n] of satellites.entries()) {
      sim.sendFix({ ...sim.o.track.next(5), satellites: n });
      await waitFor(() => sim.stats.acked > i, 10_000, `fix ${i + 1} of ${imei} stored`);
    }
    // Results are written beside ingest; once the fixes are stored their GPS test has been handed over.
    await server.gateway.gpsTest.flush();
    return sim;
  }

  it('records a passing result at the first fix of an in-stock device, once per connection', async () => {
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06', { userId: null, deviceType: 12 });
    const sim = await runTracker(imei, [11, 4, 12]);
    const results = await gpsResults(imei);
    expect(results).toHaveLength(1);
    const r = results[0] as QcRow;
    expect(r).toMatchObject({ kind: 'gps', model: 'Gt06', station: 'gateway', satellites: 11, cn0: null });
    // The station's checks (GSM signal, firmware) and C/N0, which GT06 does not report, are not judged here.
    expect(r.pass).toBe(true);
    expect(r.failures).toEqual([]);
    expect(r.ttff).not.toBeNull();
    expect(r.ttff).toBeGreaterThanOrEqual(0);
    // A new connection is a new test.
    sim.disconnect();
    await runTracker(imei, [9]);
    expect((await gpsResults(imei)).map((x) => x.satellites).sort()).toEqual([11, 9].sort());
  });

  it('fails an in-stock device that sees too few satellites, and the QC search shows it', async () => {
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06', { userId: null, deviceType: 12 });
    await runTracker(imei, [5]);
    const [r] = await gpsResults(imei);
    expect(r).toMatchObject({ satellites: 5, pass: false, failures: ['satellites'] });
    const failed = await tester.post<{ list: QcRow[] }>('/qc/find', { imei, pass: false });
    expect(failed.data.list.map((x) => x.kind)).toEqual(['gps']);
  });

  it('tests neither a customer device nor a model without criteria', async () => {
    const owned = newTerminalId('gt06');
    await addDevice(server, owned, 'gt06', { deviceType: 12 });
    const noCriteria = newTerminalId('gt06');
    await addDevice(server, noCriteria, 'gt06', { userId: null, deviceType: 0 });
    await runTracker(owned, [12]);
    await runTracker(noCriteria, [12]);
    expect(await gpsResults(owned)).toEqual([]);
    expect(await gpsResults(noCriteria)).toEqual([]);
  });
});
