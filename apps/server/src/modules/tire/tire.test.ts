import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, demoClient, newTerminalId, userClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { wheelsOf } from './routes.ts';

describe('/api/tire/find', () => {
  let server: TestServer;
  let demo: ApiClient;
  let tid: string;
  let foreign: string;

  beforeAll(async () => {
    server = await createTestServer();
    demo = await demoClient(server);
    tid = newTerminalId('jt808');
    foreign = newTerminalId('jt808');
    const id = await addDevice(server, tid, 'jt808');
    await addDevice(server, foreign, 'jt808', { userId: '1' });
    const tyres = [
      { index: 0, sensorId: 'a1', pressure: 2.4, temperature: 30, status: 0 },
      { index: 1, sensorId: 'a2', pressure: 1.2, temperature: 85, status: 0 },
      { index: 2, sensorId: 'a3', pressure: 2.5, temperature: 31, leaking: true },
      { index: 3, sensorId: 'a4', pressure: 2.5, temperature: 31 },
    ];
    await server.ctx.db
      .insertInto('device_state')
      .values({
        device_id: id,
        last_seen: new Date('2026-11-01T00:00:00Z'),
        tyres: JSON.stringify(tyres),
        attributes: '{}',
      })
      .execute();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers each wheel with its position, pressure in kPa and statuses (domain limits)', async () => {
    const res = await demo.post<{ time: string; wheels: { position: string; pressure: number; statuses: string[] }[] }>(
      '/tire/find',
      { terminalID: tid },
    );
    expect(res.data.time).toBe('2026-11-01T00:00:00.000Z');
    expect(res.data.wheels.map((w) => [w.position, w.pressure, w.statuses])).toEqual([
      ['leftFront', 240, ['normal']],
      ['rightFront', 120, ['highTemperature', 'lowPressure']],
      ['leftRear', 250, ['airLeak']],
      ['rightRear', 250, ['normal']],
    ]);
  });

  it('answers no wheels for a device without tyre data, ignores malformed entries', async () => {
    expect(wheelsOf(null)).toEqual([]);
    expect(wheelsOf([null, 'x', { pressureKpa: 200 }])).toEqual([
      { index: 2, position: 'leftRear', pressure: 200, temperature: null, statuses: ['normal'] },
    ]);
  });

  it('refuses devices out of reach, roles without main:taiya, and bad input', async () => {
    expect((await demo.post('/tire/find', { terminalID: foreign })).status).toBe(403);
    const logUser = await userClient(server, 'tire-log-user', 8);
    expect((await logUser.post('/tire/find', { terminalID: tid })).status).toBe(403);
    expect((await demo.post('/tire/find', {})).status).toBe(400);
  });
});
