import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import {
  buildTree,
  expectOk,
  importDevices,
  insertDeviceState,
  loginAs,
  nextImei,
  type Tree,
} from '../agent/fixtures.ts';

interface Item {
  id: string;
  terminalID: string;
  nickname: string;
  carNumber: string;
  telephone: string;
  iccid: string;
  state: string;
  expire: string | null;
  platformExpireAt: string | null;
  userExpireAt: string | null;
  expireManual: boolean;
  serviceTerm: number | null;
  timeZone: number;
  host: string;
  hasPicture: boolean;
  device: { deviceType: number; iconType: number };
  user_id: string;
  username: string;
  location: unknown;
}
interface Batch {
  success: number;
  failed: { terminalID: string; message: string }[];
}

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('device edit and batch fields (findById, update, deletePicture, updateAll, updateIconType, updateZone, updateHost, updateDevicesType)', () => {
  let server: TestServer;
  let t: Tree;
  let agentA: ApiClient;
  let a: string[];
  let b: string[];
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    a = await importDevices(t.admin, t.ids.agentA, [nextImei(), nextImei(), nextImei()]);
    b = await importDevices(t.admin, t.ids.agentB, [nextImei()]);
    agentA = await loginAs(server, 'agentA');
  });
  afterAll(async () => {
    await server.close();
  });

  it('findById answers by id or IMEI inside the subtree only', async () => {
    const byImei = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[0] }));
    expect(byImei).toMatchObject({ terminalID: a[0], state: 'wjh', username: 'agentA' });
    const byId = await expectOk<Item>(agentA.post('/device/findById', { id: byImei.id }));
    expect(byId.terminalID).toBe(a[0]);
    expect((await agentA.post('/device/findById', { terminalID: b[0] })).status).toBe(403);
    expect((await agentA.post('/device/findById', { terminalID: '000000000000000' })).status).toBe(403);
    expect((await agentA.post('/device/findById', {})).status).toBe(400);
  });

  it('update edits name, SIM, ICCID, plate, icon, time zone and picture with validation', async () => {
    await expectOk(
      agentA.post('/device/update', {
        terminalID: a[0],
        nickname: 'Truck 1',
        sim: '13800138000',
        iccid: '89860012345678901234',
        carNumber: '京A12345',
        iconType: 5,
        timeZone: -3,
        picture: PNG,
      }),
    );
    const d = await expectOk<Item & { picture: string }>(agentA.post('/device/findById', { terminalID: a[0] }));
    expect(d).toMatchObject({
      nickname: 'Truck 1',
      telephone: '13800138000',
      iccid: '89860012345678901234',
      carNumber: '京A12345',
      timeZone: -3,
      hasPicture: true,
      picture: PNG,
      device: { iconType: 5 },
    });
    const bad = async (body: Record<string, unknown>) =>
      (await agentA.post('/device/update', { terminalID: a[1], ...body })).meta;
    expect((await bad({ sim: '12345' })).message).toBe('Please enter the correct SIM card number');
    expect((await bad({ carNumber: 'ABC' })).message).toBe('please enter correct car number');
    expect((await bad({ iconType: 13 })).message).toBe('The icon type must be 1 to 12');
    expect((await bad({ timeZone: 13 })).message).toBe('Invalid parameter: timeZone');
    expect((await bad({ picture: 'data:text/html;base64,PGI+' })).message).toBe('Invalid parameter: picture');
    expect((await bad({ carNumber: '京a12345' })).message).toBe(
      'This plate number is used by another device, please enter a new one',
    );
    await expectOk(
      agentA.post('/device/update', { terminalID: a[0], carNumber: '京A12345', nickname: 'same plate ok' }),
    );
    expect((await agentA.post('/device/update', { terminalID: b[0], nickname: 'x' })).status).toBe(403);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/device/update', { terminalID: a[1], nickname: 'x' })).status).toBe(403);
    await expectOk(agentA.post('/device/deletePicture', { id: d.id }));
    expect((await expectOk<Item>(agentA.post('/device/findById', { id: d.id }))).hasPicture).toBe(false);
    expect((await agentA.post('/device/deletePicture', { id: 'x' })).status).toBe(400);
  });

  it('updateAll and the single-field batches change reachable devices and list the others', async () => {
    const res = await expectOk<Batch>(
      agentA.post('/device/updateAll', { terminalIDs: [a[1], a[2], b[0]], nickname: 'Fleet', iconType: 7 }),
    );
    expect(res.success).toBe(2);
    expect(res.failed.map((f) => f.terminalID)).toEqual([b[0]]);
    expect(res.failed[0].message).toBe(`Device not found: ${b[0]}`);
    const d = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[2] }));
    expect(d).toMatchObject({ nickname: 'Fleet', device: { iconType: 7 } });
    const untouched = await expectOk<Item>(t.admin.post('/device/findById', { terminalID: b[0] }));
    expect(untouched.nickname).toBe('');
    expect((await agentA.post('/device/updateAll', { terminalIDs: [a[1]] })).meta.message).toBe(
      'Please select items first',
    );
    expect((await agentA.post('/device/updateAll', { terminalIDs: [a[1]], sim: 'x' })).meta.message).toBe(
      'Please enter the correct SIM card number',
    );
    const icon = await expectOk<Batch>(agentA.post('/device/updateIconType', { terminalIDs: [a[1]], value: 3 }));
    expect(icon.success).toBe(1);
    expect((await agentA.post('/device/updateIconType', { terminalIDs: [a[1]], value: 0 })).meta.message).toBe(
      'The icon type must be 1 to 12',
    );
    // Zone, host and model batches are administrator features (spec §6 gives agents none of them).
    expect((await agentA.post('/device/updateZone', { terminalIDs: [a[1]], value: 1 })).status).toBe(403);
    expect((await agentA.post('/device/updateHost', { terminalIDs: [a[1]], value: 'h.example.com' })).status).toBe(403);
    expect((await agentA.post('/device/updateDevicesType', { terminalIDs: [a[1]], value: 1 })).status).toBe(403);
    expect((await expectOk<Batch>(t.admin.post('/device/updateZone', { terminalIDs: [a[1]], value: 1 }))).success).toBe(
      1,
    );
    expect(
      (await expectOk<Batch>(t.admin.post('/device/updateHost', { terminalIDs: [a[1]], value: 'h.example.com:9000' })))
        .success,
    ).toBe(1);
    expect(
      (await expectOk<Batch>(t.admin.post('/device/updateDevicesType', { terminalIDs: [a[1]], value: 8 }))).success,
    ).toBe(1);
    const z = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[1] }));
    expect(z).toMatchObject({ timeZone: 1, host: 'h.example.com:9000', device: { deviceType: 8, iconType: 3 } });
    expect((await t.admin.post('/device/updateHost', { terminalIDs: [a[1]], value: 'bad host!' })).meta.message).toBe(
      'Invalid parameter: host',
    );
    expect((await t.admin.post('/device/updateDevicesType', { terminalIDs: [a[1]], value: 50 })).meta.message).toBe(
      'Invalid parameter: deviceType',
    );
    expect((await agentA.post('/device/updateIconType', { terminalIDs: [], value: 3 })).status).toBe(400);
  });

  it('batch operations respect the configured batch limit', async () => {
    await expectOk(
      t.admin.post('/device/limits', {
        devicesPerOperation: 2,
        devicesPerExport: 100,
        agentsPerExport: 100,
        daysPerExport: 31,
        devicesPerImport: 100,
      }),
    );
    const limits = await expectOk<{ devicesPerOperation: number }>(agentA.get('/device/limits'));
    expect(limits.devicesPerOperation).toBe(2);
    const over = await agentA.post('/device/updateIconType', { terminalIDs: a, value: 2 });
    expect(over.meta.message).toBe('At most 2 devices per operation');
    expect((await agentA.post('/device/limits', { ...limits, devicesPerOperation: 9 })).status).toBe(403);
    await expectOk(t.admin.post('/device/limits', { ...limits, devicesPerOperation: 1000 }));
  });
});

describe('device ownership and lifecycle (transfer, userSale, reset, updateTime, updateTimeByImei, updateExpireType, resetExpire)', () => {
  let server: TestServer;
  let t: Tree;
  let agentA: ApiClient;
  let a: string[];
  let b: string[];
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    a = await importDevices(t.admin, t.ids.agentA, [nextImei(), nextImei(), nextImei(), nextImei(), nextImei()]);
    b = await importDevices(t.admin, t.ids.agentB, [nextImei()]);
    agentA = await loginAs(server, 'agentA');
  });
  afterAll(async () => {
    await server.close();
  });

  it('transfer moves devices inside the subtree; the new owner sees them, nobody else does', async () => {
    const res = await expectOk<Batch>(
      agentA.post('/device/transfer', { terminalIDs: [a[0], b[0]], userId: t.ids.subA }),
    );
    expect(res.success).toBe(1);
    expect(res.failed.map((f) => f.terminalID)).toEqual([b[0]]);
    const sub = await loginAs(server, 'subA');
    const list = await expectOk<{ list: Item[] }>(sub.post('/device/findByUserId', {}));
    expect(list.list.map((d) => d.terminalID)).toEqual([a[0]]);
    const again = await expectOk<Batch>(agentA.post('/device/transfer', { terminalIDs: [a[0]], userId: t.ids.subA }));
    expect(again.failed[0].message).toBe('The device already belongs to this account');
    const toSelf = await expectOk<Batch>(
      agentA.post('/device/transfer', { terminalIDs: [a[1]], userId: t.ids.agentA }),
    );
    expect(toSelf.failed[0].message).toBe('You cannot transfer to yourself');
    expect((await agentA.post('/device/transfer', { terminalIDs: [a[1]], userId: t.ids.agentB })).status).toBe(403);
    expect((await agentA.post('/device/transfer', { terminalIDs: [a[1]] })).status).toBe(400);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/device/transfer', { terminalIDs: [a[1]], userId: t.ids.userA1 })).status).toBe(403);
    // A sub-agent cannot pull a device from its superior.
    const pull = await expectOk<Batch>(sub.post('/device/transfer', { terminalIDs: [a[1]], userId: t.ids.userA2 }));
    expect(pull.success).toBe(0);
  });

  it('userSale sells to an end user, counts the sale, and refuses selling to oneself', async () => {
    const res = await expectOk<Batch>(agentA.post('/device/userSale', { terminalIDs: [a[1]], userId: t.ids.userA1 }));
    expect(res.success).toBe(1);
    const rows = await expectOk<{ username: string; saleNum: number }[]>(
      agentA.post('/user/findAllUserV2', { id: t.ids.agentA }),
    );
    expect(rows.find((r) => r.username === 'agentA')?.saleNum).toBe(1);
    const toAgent = await agentA.post('/device/userSale', { terminalIDs: [a[2]], userId: t.ids.subA });
    expect(toAgent.status).toBe(403);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/device/userSale', { terminalIDs: [a[1]], userId: t.ids.userA1 })).status).toBe(403);
    expect((await agentA.post('/device/userSale', { terminalIDs: [a[2]] })).status).toBe(400);
    expect((await agentA.post('/device/userSale', { terminalIDs: [a[2]], userId: t.ids.userB1 })).status).toBe(403);
  });

  it('reset clears the device data and sets it not activated; foreign devices are untouched', async () => {
    const dev = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[2] }));
    await server.ctx.db
      .updateTable('devices')
      .set({ activated_at: new Date(), nickname: 'Old name', car_number: '京B11111' })
      .where('id', '=', dev.id)
      .execute();
    await insertDeviceState(server.ctx.db, {
      device_id: dev.id,
      online: true,
      pos_time: new Date(),
      last_seen: new Date(),
      lat: 30,
      lon: 110,
      speed: 20,
    });
    await server.ctx.db.insertInto('alarms').values({ device_id: dev.id, type: 1, time: new Date() }).execute();
    const res = await expectOk<Batch>(agentA.post('/device/reset', { terminalIDs: [a[2], b[0]] }));
    expect(res).toMatchObject({ success: 1, failed: [{ terminalID: b[0] }] });
    const after = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[2] }));
    expect(after).toMatchObject({ state: 'wjh', nickname: '', carNumber: '', username: 'agentA' });
    const state = await server.ctx.db
      .selectFrom('device_state')
      .selectAll()
      .where('device_id', '=', dev.id)
      .executeTakeFirstOrThrow();
    expect(state).toMatchObject({ lat: null, lon: null, pos_time: null });
    const alarms = await server.ctx.db.selectFrom('alarms').select('id').where('device_id', '=', dev.id).execute();
    expect(alarms).toEqual([]);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/device/reset', { terminalIDs: [a[1]] })).status).toBe(403);
    expect((await agentA.post('/device/reset', {})).status).toBe(400);
  });

  it('a manual expiry stops recalculation; reset-expiry recalculates from the activation time', async () => {
    const dev = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[3] }));
    const activated = new Date('2025-03-30T20:00:00Z'); // 2025-03-31 04:00 in UTC+8
    await server.ctx.db.updateTable('devices').set({ activated_at: activated }).where('id', '=', dev.id).execute();
    await expectOk(agentA.post('/device/updateExpireType', { terminalIDs: [a[3]], serviceTerm: 4 }));
    let d = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[3] }));
    // One month later on the wall clock of UTC+8, clamped to 30 April.
    expect(d).toMatchObject({ serviceTerm: 4, platformExpireAt: '2025-04-29T20:00:00.000Z', expireManual: false });
    await expectOk(
      agentA.post('/device/updateTime', { terminalIDs: [a[3]], platformExpireAt: '2030-01-01T00:00:00Z' }),
    );
    await expectOk(agentA.post('/device/updateExpireType', { terminalIDs: [a[3]], serviceTerm: 1 }));
    d = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[3] }));
    expect(d).toMatchObject({ serviceTerm: 1, platformExpireAt: '2030-01-01T00:00:00.000Z', expireManual: true });
    await expectOk(agentA.post('/device/resetExpire', { terminalIDs: [a[3]] }));
    d = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[3] }));
    expect(d).toMatchObject({ platformExpireAt: '2026-03-30T20:00:00.000Z', expireManual: false });
    await expectOk(agentA.post('/device/updateExpireType', { terminalIDs: [a[3]], serviceTerm: 3 }));
    d = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[3] }));
    expect(d.platformExpireAt).toBeNull();
    expect((await agentA.post('/device/updateExpireType', { terminalIDs: [a[3]], serviceTerm: 9 })).meta.message).toBe(
      'Unknown service term',
    );
    const foreign = await expectOk<Batch>(agentA.post('/device/resetExpire', { terminalIDs: [b[0]] }));
    expect(foreign.success).toBe(0);
  });

  it('updateTime and updateTimeByImei set platform and user expiries by hand', async () => {
    await expectOk(agentA.post('/device/updateTime', { terminalIDs: [a[4]], userExpireAt: '2031-05-05T00:00:00Z' }));
    let d = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[4] }));
    expect(d).toMatchObject({
      userExpireAt: '2031-05-05T00:00:00.000Z',
      expire: '2031-05-05T00:00:00.000Z',
      expireManual: false,
    });
    const res = await expectOk<Batch>(
      agentA.post('/device/updateTimeByImei', {
        text: `${a[4]}\n  \nbad!\n${b[0]}`,
        platformExpireAt: Date.UTC(2029, 0, 1),
      }),
    );
    expect(res.success).toBe(1);
    expect(res.failed.map((f) => f.terminalID).sort()).toEqual([b[0], 'bad!'].sort());
    d = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[4] }));
    expect(d).toMatchObject({
      platformExpireAt: '2029-01-01T00:00:00.000Z',
      expire: '2029-01-01T00:00:00.000Z',
      expireManual: true,
    });
    expect((await agentA.post('/device/updateTime', { terminalIDs: [a[4]], platformExpireAt: 'soon' })).status).toBe(
      400,
    );
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/device/updateTimeByImei', { text: a[4], platformExpireAt: 1 })).status).toBe(403);
  });

  it('the activation trigger starts the platform expiry from the activation time', async () => {
    const dev = await expectOk<Item>(agentA.post('/device/findById', { terminalID: a[0] }));
    await expectOk(agentA.post('/device/updateExpireType', { terminalIDs: [a[0]], serviceTerm: 1 }));
    await server.ctx.db
      .updateTable('devices')
      .set({ activated_at: new Date('2024-02-29T01:00:00Z') })
      .where('id', '=', dev.id)
      .execute();
    const row = await server.ctx.db
      .selectFrom('devices')
      .select('platform_expire_at')
      .where('id', '=', dev.id)
      .executeTakeFirstOrThrow();
    expect(row.platform_expire_at?.toISOString()).toBe('2025-02-28T01:00:00.000Z');
  });
});
