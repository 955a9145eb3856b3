import { convertCoords } from '@carhere/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, adminClient, demoClient, newTerminalId, userClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';

interface Alarm {
  id: string;
  terminalID: string;
  alarmType: number;
  alarmName: string;
  read: boolean;
  readAt: string | null;
  address: string | null;
  time: string;
}
type Page = { total: number; list: Alarm[] };

describe('/api/deviceAlarms', () => {
  let server: TestServer;
  let demo: ApiClient;
  let admin: ApiClient;
  let mine: string;
  let foreign: string;
  let foreignAlarm: string;
  const t0 = Date.UTC(2026, 10, 1, 8);

  beforeAll(async () => {
    server = await createTestServer();
    demo = await demoClient(server);
    admin = await adminClient(server);
    mine = newTerminalId('gt06');
    foreign = newTerminalId('gt06');
    const mineId = await addDevice(server, mine, 'gt06');
    const foreignId = await addDevice(server, foreign, 'gt06', { userId: '1' });
    const rows = [1, 2, 6, 1, 20].map((type, i) => ({
      device_id: mineId,
      type,
      name: 'x',
      source: 'device' as const,
      time: new Date(t0 + i * 60_000),
      lat: 39.9,
      lon: 116.4,
      speed: 10,
    }));
    await server.ctx.db.insertInto('alarms').values(rows).execute();
    const f = await server.ctx.db
      .insertInto('alarms')
      .values({ device_id: foreignId, type: 1, time: new Date(t0), source: 'device' })
      .returning('id')
      .executeTakeFirstOrThrow();
    foreignAlarm = String(f.id);
  });
  afterAll(async () => {
    await server.close();
  });

  it('findAll: newest first, paged, filtered by device, type, read and time (POST and GET)', async () => {
    const all = await demo.post<Page>('/deviceAlarms/findAll', { pageSize: 2 });
    expect(all.data.total).toBe(5);
    expect(all.data.list.map((a) => a.alarmType)).toEqual([20, 1]);
    expect(all.data.list[0].alarmName).toBe('Offline');
    const sos = await demo.post<Page>('/deviceAlarms/findAll', { terminalID: mine, type: 1 });
    expect(sos.data.total).toBe(2);
    const window = await demo.get<Page>(`/deviceAlarms/findAll?startTime=${t0 + 60_000}&endTime=${t0 + 120_000}`);
    expect(window.data.list.map((a) => a.alarmType)).toEqual([6, 2]);
    const everyone = await admin.post<Page>('/deviceAlarms/findAll', {});
    expect(everyone.data.total).toBe(6);
    demo.lang = 'cn';
    const cn = await demo.post<Page>('/deviceAlarms/findAll', { type: 1, pageSize: 1 });
    expect(cn.data.list[0].alarmName).toBe('求救报警(SOS)');
    demo.lang = 'en';
  });

  it('times without a zone are read in the platform zone (UTC+8, spec §9), whatever the host TZ', async () => {
    // t0 + 1 min and t0 + 2 min are 16:01 and 16:02 on 2026-11-01 in UTC+8.
    const local = await demo.post<Page>('/deviceAlarms/findAll', {
      startTime: '2026-11-01 16:01:00',
      endTime: '2026-11-01T16:02',
    });
    expect(local.data.list.map((a) => a.alarmType)).toEqual([6, 2]);
    const zoned = await demo.post<Page>('/deviceAlarms/findAll', {
      startTime: '2026-11-01T08:01:00Z',
      endTime: '2026-11-01T16:02:00+08:00',
    });
    expect(zoned.data.list.map((a) => a.alarmType)).toEqual([6, 2]);
    const bad = await demo.post('/deviceAlarms/findAll', { startTime: 'Nov 1 2026 16:01', endTime: '2026-11-01' });
    expect(bad.status).toBe(400);
  });

  it('coordType: alarm positions in GCJ-02 / BD-09 on request', async () => {
    const want = convertCoords({ lat: 39.9, lon: 116.4 }, 'wgs84', 'gcj02');
    const res = await demo.post<{ list: (Alarm & { lat: number; lon: number })[] }>('/deviceAlarms/findAll', {
      terminalID: mine,
      coordType: 'gcj02',
    });
    expect(res.data.list).toHaveLength(5);
    for (const a of res.data.list) {
      expect(a.lat).toBeCloseTo(want.lat, 9);
      expect(a.lon).toBeCloseTo(want.lon, 9);
    }
    const bd = convertCoords({ lat: 39.9, lon: 116.4 }, 'wgs84', 'bd09');
    const byGet = await demo.get<{ list: { lat: number }[] }>(
      `/deviceAlarms/findAll?terminalID=${mine}&coordType=bd09`,
    );
    expect(byGet.data.list[0].lat).toBeCloseTo(bd.lat, 9);
    const plain = await demo.post<{ list: { lat: number }[] }>('/deviceAlarms/findAll', { terminalID: mine });
    expect(plain.data.list[0].lat).toBe(39.9);
    expect((await demo.post('/deviceAlarms/findAll', { coordType: 'x' })).status).toBe(400);
  });

  it('findAllById: alarms of one user’s devices', async () => {
    const ofDemo = await admin.post<Page>('/deviceAlarms/findAllById', { id: 2 });
    expect(ofDemo.data.total).toBe(5);
    const ofAdmin = await admin.post<Page>('/deviceAlarms/findAllById', { id: 1 });
    expect(ofAdmin.data.total).toBe(1);
    expect((await demo.post('/deviceAlarms/findAllById', { id: 1 })).status).toBe(403);
  });

  it('read state: save marks read, update sets either way, unread filter follows', async () => {
    const page = await demo.post<Page>('/deviceAlarms/findAll', { read: false });
    const ids = page.data.list.slice(0, 2).map((a) => a.id);
    const saved = await demo.post<{ updated: number }>('/deviceAlarms/save', { ids });
    expect(saved.data.updated).toBe(2);
    const unread = await demo.post<Page>('/deviceAlarms/findAll', { read: false });
    expect(unread.data.total).toBe(3);
    const read = await demo.post<Page>('/deviceAlarms/findAll', { read: 'true' });
    expect(read.data.list.every((a) => a.read && a.readAt !== null)).toBe(true);
    await demo.post('/deviceAlarms/update', { id: ids[0], read: false });
    expect((await demo.post<Page>('/deviceAlarms/findAll', { read: false })).data.total).toBe(4);
  });

  it('keeps a geocoded address and deletes alarms', async () => {
    const [first] = (await demo.post<Page>('/deviceAlarms/findAll', { pageSize: 1 })).data.list;
    await demo.post('/deviceAlarms/saveAlarmAddress', { id: first.id, address: '北京市东城区' });
    const again = await demo.post<Page>('/deviceAlarms/findAll', { pageSize: 1 });
    expect(again.data.list[0].address).toBe('北京市东城区');
    const deleted = await demo.post<{ deleted: number }>('/deviceAlarms/delete', { ids: [first.id] });
    expect(deleted.data.deleted).toBe(1);
    expect((await demo.post<Page>('/deviceAlarms/findAll', {})).data.total).toBe(4);
  });

  it('exports an xlsx with a row per alarm', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/deviceAlarms/export',
      headers: { cookie: demo.cookie, lang: 'en' },
      payload: { terminalID: mine },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(1 + 4);
    expect(sheet.getRow(1).getCell(1).value).toBe('IMEI');
    expect(sheet.getRow(2).getCell(1).value).toBe(mine);
    // No address was looked up: the offline place index names the place (39.9, 116.4 is in Beijing).
    expect(sheet.getRow(1).getCell(9).value).toBe('Address');
    expect(String(sheet.getRow(2).getCell(9).value)).toMatch(/, China$/);
    // The export count (spec §7) says beforehand how many rows the same filter exports, and the limit.
    const count = await demo.post<{ total: number; max: number }>('/deviceAlarms/exportCount', { terminalID: mine });
    expect(count.data).toEqual({ total: sheet.rowCount - 1, max: 50_000 });
    const none = await demo.post<{ total: number }>('/deviceAlarms/exportCount', { terminalID: mine, type: 999 });
    expect(none.data.total).toBe(0);
  });

  it('refuses alarms out of reach, roles without main:alarms, and bad input', async () => {
    expect((await demo.post('/deviceAlarms/save', { ids: [foreignAlarm] })).status).toBe(403);
    expect((await demo.post('/deviceAlarms/delete', { ids: [foreignAlarm] })).status).toBe(403);
    const row = await server.ctx.db
      .selectFrom('alarms')
      .select('read')
      .where('id', '=', foreignAlarm)
      .executeTakeFirstOrThrow();
    expect(row.read).toBe(false);
    const logUser = await userClient(server, 'alarm-log-user', 8);
    expect((await logUser.post('/deviceAlarms/findAll', {})).status).toBe(403);
    expect((await demo.post('/deviceAlarms/save', { ids: [] })).status).toBe(400);
    expect((await demo.post('/deviceAlarms/update', { id: 'x', read: true })).status).toBe(400);
    expect((await admin.post('/deviceAlarms/save', { ids: ['999999999'] })).status).toBe(404);
  });
});
