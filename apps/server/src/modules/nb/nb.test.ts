import { translate } from '@carhere/domain';
import { Jt808Terminal } from '@carhere/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  userClient,
} from '../../gateway/test-support.ts';
import { callbackTokenMatches, parsePushTime } from './routes.ts';

const TOKEN = 'nb-secret-token';

describe('NB-IoT push callbacks /api/nb/subscribe and /api/ccs/subscribe', () => {
  let server: GatewayTestServer;
  let deviceId: string;
  let jt808Id: string;
  let jt808Tid: string;

  beforeAll(async () => {
    server = await createGatewayTestServer({}, { nbCallbackToken: TOKEN });
    deviceId = await addDevice(server, newTerminalId('gt06'), 'gt06', { nbDeviceId: 'nb-dev-1', deviceType: 11 });
    jt808Tid = newTerminalId('jt808');
    jt808Id = await addDevice(server, jt808Tid, 'jt808', { nbDeviceId: 'nb-dev-2', deviceType: 9 });
  });
  afterAll(async () => {
    await server.close();
  });

  const push = (url: string, payload: unknown, token: string | null = TOKEN) =>
    server.app.inject({
      method: 'POST',
      url: token ? `${url}?token=${token}` : url,
      payload: payload as Record<string, unknown>,
    });

  it('stores a fix from plain fields, marks the device online, without a session', async () => {
    const res = await push('/api/nb/subscribe', {
      notifyType: 'deviceDataChanged',
      deviceId: 'nb-dev-1',
      service: {
        serviceId: 'Location',
        eventTime: '20261101T080000Z',
        data: { latitude: 39.91, longitude: 116.41, speed: 12, batteryLevel: 66 },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ accepted: true, stored: 1, alarms: 0 });
    const row = await server.ctx.db
      .selectFrom('positions')
      .selectAll()
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ lat: 39.91, lon: 116.41, speed: 12 });
    expect(row.time.toISOString()).toBe('2026-11-01T08:00:00.000Z');
    const state = await server.ctx.db
      .selectFrom('device_state')
      .select(['online', 'session_key'])
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(state).toEqual({ online: true, session_key: 'push:nb' });
  });

  it('decodes a raw JT/T 808 frame (hex) forwarded by the platform, with its alarm', async () => {
    const terminal = new Jt808Terminal(jt808Tid);
    const t = Date.UTC(2026, 10, 1, 9, 0, 0);
    const frame = terminal.location(
      1,
      {
        time: t,
        lat: 22.5,
        lon: 114.05,
        speed: 30,
        course: 10,
        altitude: 5,
        satellites: 9,
        mileage: 5000,
        acc: true,
        battery: 50,
      },
      1,
    );
    const res = await push('/api/ccs/subscribe', {
      notifyType: 'deviceDatasChanged',
      deviceId: 'nb-dev-2',
      services: [{ serviceId: 'Raw', data: { rawData: frame.toString('hex') } }],
    });
    expect(res.json().data).toEqual({ accepted: true, stored: 1, alarms: 1 });
    const row = await server.ctx.db
      .selectFrom('positions')
      .selectAll()
      .where('device_id', '=', jt808Id)
      .executeTakeFirstOrThrow();
    expect(row.time.getTime()).toBe(t);
    expect(row.lat).toBeCloseTo(22.5, 6);
    const alarm = await server.ctx.db
      .selectFrom('alarms')
      .select(['type', 'source'])
      .where('device_id', '=', jt808Id)
      .executeTakeFirstOrThrow();
    expect(alarm).toEqual({ type: 1, source: 'device' });
  });

  it('finds a device by the NB-IoT id the factory set in idManager', async () => {
    const imei = newTerminalId('gt06');
    const id = await addDevice(server, imei, 'gt06', { deviceType: 11 });
    const tester = await userClient(server, 'nb-id-tester', 5);
    const before = await push('/api/nb/subscribe', {
      notifyType: 'deviceDataChanged',
      deviceId: 'nb-by-idmanager',
      service: { serviceId: 'Location', data: { latitude: 30.5, longitude: 114.3 } },
    });
    expect(before.statusCode).not.toBe(200); // nobody has this id yet
    const set = await tester.post('/idManager/set', { terminalID: imei, nbDeviceId: 'nb-by-idmanager' });
    expect(set.meta.success, set.meta.message).toBe(true);
    const res = await push('/api/nb/subscribe', {
      notifyType: 'deviceDataChanged',
      deviceId: 'nb-by-idmanager',
      service: { serviceId: 'Location', data: { latitude: 30.5, longitude: 114.3 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ accepted: true, stored: 1 });
    const row = await server.ctx.db
      .selectFrom('positions')
      .select(['lat', 'lon'])
      .where('device_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ lat: 30.5, lon: 114.3 });
  });

  it('accepts other notify types without storing anything', async () => {
    const res = await push('/api/nb/subscribe', { notifyType: 'deviceInfoChanged', deviceId: 'nb-dev-1' });
    expect(res.json().data).toEqual({ accepted: true, stored: 0, alarms: 0 });
  });

  it('refuses a wrong or missing token, an unknown deviceId (logged), and malformed input', async () => {
    expect(
      (await push('/api/nb/subscribe', { notifyType: 'deviceDataChanged', deviceId: 'nb-dev-1' }, null)).statusCode,
    ).toBe(403);
    expect(
      (await push('/api/nb/subscribe', { notifyType: 'deviceDataChanged', deviceId: 'nb-dev-1' }, 'wrong')).statusCode,
    ).toBe(403);
    const unknown = await push('/api/nb/subscribe', {
      notifyType: 'deviceDataChanged',
      deviceId: 'nb-nobody',
      service: { data: { latitude: 1, longitude: 1 } },
    });
    expect(unknown.statusCode).toBe(404);
    await server.gateway.log.flush();
    const log = await server.ctx.db
      .selectFrom('device_log')
      .selectAll()
      .where('terminal_id', '=', 'nb-nobody')
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ event: 'refused', protocol: 'nb' });
    expect((await push('/api/nb/subscribe', { deviceId: 'nb-dev-1' })).statusCode).toBe(400);
    expect(
      (await push('/api/nb/subscribe', { notifyType: 'deviceDataChanged', deviceId: 'x'.repeat(100) })).statusCode,
    ).toBe(400);
    const garbage = await push('/api/nb/subscribe', {
      notifyType: 'deviceDataChanged',
      deviceId: 'nb-dev-2',
      service: { data: { rawData: 'abcdef' } },
    });
    expect(garbage.statusCode).toBe(400);
  });

  it('reads the platforms’ time formats', () => {
    expect(parsePushTime('20170214T170220Z')).toBe(Date.UTC(2017, 1, 14, 17, 2, 20));
    expect(parsePushTime(1_700_000_000)).toBe(1_700_000_000_000);
    expect(parsePushTime('2026-11-01T08:00:00Z')).toBe(Date.UTC(2026, 10, 1, 8));
    expect(parsePushTime('soon')).toBeNull();
  });
});

describe('NB-IoT callbacks without NB_CALLBACK_TOKEN', () => {
  let server: GatewayTestServer;
  beforeAll(async () => {
    server = await createGatewayTestServer({}, { nbCallbackToken: undefined });
    await addDevice(server, newTerminalId('gt06'), 'gt06', { nbDeviceId: 'nb-open-1', deviceType: 11 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("refuses every push, with or without a token, says why in the caller's language, logs it and stores nothing", async () => {
    const fix = {
      notifyType: 'deviceDataChanged',
      deviceId: 'nb-open-1',
      service: { serviceId: 'Location', data: { latitude: 39.91, longitude: 116.41 } },
    };
    for (const url of ['/api/nb/subscribe', '/api/ccs/subscribe?token=anything', '/api/nb/subscribe?token=']) {
      const res = await server.app.inject({ method: 'POST', url, payload: fix, headers: { lang: 'fr' } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().meta.message).toBe(translate('nb.callbackTokenUnset', 'fr'));
    }
    const en = await server.app.inject({
      method: 'POST',
      url: '/api/nb/subscribe',
      payload: fix,
      headers: { lang: 'en' },
    });
    expect(en.json().meta.message).toMatch(/NB_CALLBACK_TOKEN/);
    const stored = await server.ctx.db
      .selectFrom('positions')
      .innerJoin('devices', 'devices.id', 'positions.device_id')
      .select('positions.device_id')
      .where('devices.nb_device_id', '=', 'nb-open-1')
      .execute();
    expect(stored).toEqual([]);
    await server.gateway.log.flush();
    const log = await server.ctx.db
      .selectFrom('device_log')
      .selectAll()
      .where('terminal_id', '=', 'nb-open-1')
      .where('event', '=', 'refused')
      .executeTakeFirstOrThrow();
    expect(log.detail).toMatch(/NB_CALLBACK_TOKEN is not set/);
  });
});

describe('callbackTokenMatches', () => {
  it('accepts only the exact token, whatever the lengths', () => {
    expect(callbackTokenMatches('nb-secret-token', 'nb-secret-token')).toBe(true);
    expect(callbackTokenMatches('nb-secret-toke', 'nb-secret-token')).toBe(false);
    expect(callbackTokenMatches('nb-secret-tokenX', 'nb-secret-token')).toBe(false);
    expect(callbackTokenMatches('', 'nb-secret-token')).toBe(false);
    expect(callbackTokenMatches('NB-SECRET-TOKEN', 'nb-secret-token')).toBe(false);
  });
});
