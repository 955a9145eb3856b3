// Customer self-service (issue 16): my account for every role, special-brand accounts and the hiding rule on
// the monitor's list, drivers (records, hierarchy, JT/T 808 0x0702 over TCP, the driver on trips).
import { DEVICE_STATE, type DeviceListEntry } from '@carhere/domain';
import { Jt808Terminal } from '@carhere/simulator';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';
import { pastDue as pastDueRows } from '../stat/queries.ts';
import { isHiddenForSpecialBrand } from './testFixtures.ts';

const DAY = 86_400_000;

/** The first column of an .xlsx answer's first sheet, header row left out. */
async function firstColumn(payload: Buffer): Promise<string[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(payload as unknown as ArrayBuffer);
  const out: string[] = [];
  book.worksheets[0].eachRow((row, n) => {
    if (n > 1) out.push(String(row.getCell(1).value));
  });
  return out;
}

async function idOf(server: GatewayTestServer, username: string): Promise<string> {
  const row = await server.ctx.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

describe('customer self-service', () => {
  let server: GatewayTestServer;
  let admin: ApiClient;
  let agent: ApiClient;
  let agentId: string;
  let customer: ApiClient;
  let customerId: string;
  let other: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer();
    admin = await adminClient(server);
    agent = await userClient(server, 'cs-agent', 2);
    agentId = await idOf(server, 'cs-agent');
    customer = await userClient(server, 'cs-customer', 3, agentId);
    customerId = await idOf(server, 'cs-customer');
    other = await userClient(server, 'cs-other-agent', 2);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('my account', () => {
    it('lets an end user (role 3) read and change its own name, phone, language, map and alarm sound', async () => {
      const me = await customer.get<{ username: string; role: number; alarmSound: boolean }>('/user/me');
      expect(me.data).toMatchObject({ username: 'cs-customer', role: 3, alarmSound: true });
      const saved = await customer.post<Record<string, unknown>>('/user/updateMe', {
        nickname: 'Zhang San',
        telephone: '13800138000',
        lang: 'fr',
        mapType: 'google',
        alarmSound: false,
      });
      expect(saved.meta.success).toBe(true);
      expect(saved.data).toMatchObject({
        nickname: 'Zhang San',
        telephone: '13800138000',
        lang: 'fr',
        mapType: 'google',
        alarmSound: false,
      });
      const row = await server.ctx.db
        .selectFrom('users')
        .select(['nickname', 'lang', 'map_type', 'alarm_sound'])
        .where('id', '=', customerId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ nickname: 'Zhang San', lang: 'fr', map_type: 'google', alarm_sound: false });
    });

    it('changes only the caller: no id is taken, another account stays as it was', async () => {
      await customer.post('/user/updateMe', { nickname: 'Mine', id: agentId });
      const agentRow = await server.ctx.db
        .selectFrom('users')
        .select('nickname')
        .where('id', '=', agentId)
        .executeTakeFirstOrThrow();
      expect(agentRow.nickname).not.toBe('Mine');
    });

    it('refuses a language outside the 11 and a malformed phone', async () => {
      expect((await customer.post('/user/updateMe', { lang: 'de' })).status).toBe(400);
      expect((await customer.post('/user/updateMe', { telephone: 'call me' })).status).toBe(400);
    });

    it('lets role 3 change its own password (the old one checked), and sign in with the new one', async () => {
      const wrong = await customer.post('/user/checkUserPassword', {
        oldPassword: 'not-it',
        password: 'New-pass-123',
        confirmPassword: 'New-pass-123',
      });
      expect(wrong.meta.success).toBe(false);
      const res = await customer.post('/user/checkUserPassword', {
        oldPassword: 'User-pass-1',
        password: 'New-pass-123',
        confirmPassword: 'New-pass-123',
      });
      expect(res.meta.success).toBe(true);
      const again = await customer.login('cs-customer', 'New-pass-123');
      expect(again.meta.success).toBe(true);
    });

    it('needs a session', async () => {
      const { ApiClient } = await import('../../testing/harness.ts');
      const anonymous = new ApiClient(server);
      expect((await anonymous.get('/user/me')).meta.success).toBe(false);
      expect((await anonymous.post('/user/updateMe', { nickname: 'x' })).meta.success).toBe(false);
    });
  });

  describe('special-brand agents', () => {
    const tids = {
      online: newTerminalId('jt808'),
      recent: newTerminalId('jt808'),
      stale: newTerminalId('jt808'),
      never: newTerminalId('jt808'),
      inactive: newTerminalId('jt808'),
    };

    beforeAll(async () => {
      const now = Date.now();
      const states: Record<keyof typeof tids, { activated: boolean; online: boolean; seen: number | null }> = {
        online: { activated: true, online: true, seen: now - 60_000 },
        recent: { activated: true, online: false, seen: now - 2 * DAY },
        stale: { activated: true, online: false, seen: now - 4 * DAY },
        never: { activated: true, online: false, seen: null },
        inactive: { activated: false, online: false, seen: null },
      };
      for (const [key, tid] of Object.entries(tids) as [keyof typeof tids, string][]) {
        const id = await addDevice(server, tid, 'jt808', { userId: customerId });
        const s = states[key];
        await server.ctx.db
          .updateTable('devices')
          .set({ activated_at: s.activated ? new Date(now - 30 * DAY) : null })
          .where('id', '=', id)
          .execute();
        await server.ctx.db
          .insertInto('device_state')
          .values({
            device_id: id,
            online: s.online,
            last_seen: s.seen === null ? null : new Date(s.seen),
            attributes: '{}',
          })
          .execute();
      }
    });

    const seenBy = async (client: ApiClient, noProcess?: string[]) => {
      const res = await client.post<{ total: number; list: { terminalID: string }[] }>('/location/findV2', {
        children: true,
        ...(noProcess ? { noProcess } : {}),
      });
      expect(res.meta.success).toBe(true);
      return res.data.list.map((l) => l.terminalID).sort();
    };

    it('only an administrator sets the special-brand accounts, and only agents', async () => {
      expect((await agent.post('/system/specialBrand/save', { ids: [agentId] })).status).toBe(403);
      expect((await agent.post('/system/specialBrand/find', {})).status).toBe(403);
      expect((await admin.post('/system/specialBrand/save', { ids: [customerId] })).status).toBe(400);
      const saved = await admin.post<{ username: string }[]>('/system/specialBrand/save', { ids: [agentId] });
      expect(saved.data.map((u) => u.username)).toEqual(['cs-agent']);
      const found = await admin.post<{ id: string }[]>('/system/specialBrand/find', {});
      expect(found.data.map((u) => u.id)).toEqual([agentId]);
    });

    it('hides not-activated and 3-day-offline devices from the agent’s monitor list, as the domain rule does', async () => {
      const visible = await seenBy(agent);
      expect(visible).toEqual([tids.online, tids.recent].sort());
      // The same answer as the special-brand rule over the same devices.
      const now = Date.now();
      const entries: DeviceListEntry[] = [
        { terminalID: tids.online, state: DEVICE_STATE.online, location: { utcTime: now, stateTime: now } },
        {
          terminalID: tids.recent,
          state: DEVICE_STATE.offline,
          location: { utcTime: now - 2 * DAY, stateTime: now - 2 * DAY },
        },
        {
          terminalID: tids.stale,
          state: DEVICE_STATE.offline,
          location: { utcTime: now - 4 * DAY, stateTime: now - 4 * DAY },
        },
        { terminalID: tids.never, state: DEVICE_STATE.offline, location: null },
        { terminalID: tids.inactive, state: DEVICE_STATE.notActivated, location: null },
      ] as DeviceListEntry[];
      expect(
        entries
          .filter((e) => !isHiddenForSpecialBrand(e, now))
          .map((e) => e.terminalID)
          .sort(),
      ).toEqual(visible);
    });

    it('shows a hidden device again when it is in the no-process set', async () => {
      expect(await seenBy(agent, [tids.stale, tids.inactive])).toEqual(
        [tids.online, tids.recent, tids.stale, tids.inactive].sort(),
      );
    });

    it('hides the same devices from the statistics lists and the exports that list devices', async () => {
      const ours = (list: string[]) => list.filter((t) => Object.values(tids).includes(t)).sort();
      const visible = [tids.online, tids.recent].sort();
      // Devices by expiry (stat pastDue, list and export: one query). Only administrators hold its permission
      // by default, so the query is asked as the agent would be, were a role to grant it.
      const caller = await server.ctx.db
        .selectFrom('users')
        .select(['path', 'role'])
        .where('id', '=', agentId)
        .executeTakeFirstOrThrow();
      const pastDue = async (noProcess?: string[]) =>
        ours(
          (
            await pastDueRows(
              server.ctx,
              { id: agentId, role: caller.role, path: caller.path },
              { filter: 'all', noProcess },
            )
          ).map((r) => r.terminalID),
        );
      expect(await pastDue()).toEqual(visible);
      expect(await pastDue([tids.never])).toEqual([...visible, tids.never].sort());
      // An account-wide statistics list (battery, per device) leaves them out too; a named device stays.
      const battery = async (body: Record<string, unknown>) => {
        const res = await agent.post<{ list: { terminalID: string }[] }>('/stat/battery', { pageSize: 1000, ...body });
        expect(res.status).toBe(200);
        return ours(res.data.list.map((r) => r.terminalID));
      };
      expect(await battery({})).toEqual(visible);
      expect(await battery({ userId: customerId, children: true })).toEqual(visible);
      expect(await battery({ terminalIDs: [tids.stale] })).toEqual([tids.stale]);

      // The export (through the job queue) holds the list's devices, no more; the no-process set spares some.
      const exported = async (body: Record<string, unknown>) => {
        const start = await agent.post<{ jobId: string }>('/stat/export', body);
        expect(start.status).toBe(200);
        const done = await waitFor(
          async () => {
            const p = await agent.get<{ state: string }>(`/stat/export/progress?jobId=${start.data.jobId}`);
            return p.data.state === 'done' || p.data.state === 'failed' ? p.data : null;
          },
          60_000,
          'export',
        );
        expect(done.state).toBe('done');
        const file = await server.app.inject({
          method: 'GET',
          url: `/api/stat/export/download?jobId=${start.data.jobId}`,
          headers: { cookie: agent.cookie },
        });
        expect(file.statusCode).toBe(200);
        return ours(await firstColumn(file.rawPayload));
      };
      expect(await exported({ kind: 'battery' })).toEqual(visible);
      expect(await exported({ kind: 'battery', noProcess: [tids.inactive] })).toEqual(
        [...visible, tids.inactive].sort(),
      );

      // The device ICCID export of the account.
      const iccid = await server.app.inject({
        method: 'GET',
        url: `/api/device/exportIccid?userId=${customerId}`,
        headers: { cookie: agent.cookie },
      });
      expect(iccid.statusCode).toBe(200);
      expect(ours(await firstColumn(iccid.rawPayload))).toEqual(visible);
    });

    it('leaves end users, other agents and the administrator unaffected', async () => {
      expect(await seenBy(customer)).toHaveLength(5);
      expect((await seenBy(admin)).filter((t) => Object.values(tids).includes(t))).toHaveLength(5);
      expect(await seenBy(other)).toEqual([]);
      const customerBattery = await customer.post<{ list: unknown[] }>('/stat/battery', { pageSize: 1000 });
      expect(customerBattery.data.list).toHaveLength(5);
      await admin.post('/system/specialBrand/save', { ids: [] });
      expect(await seenBy(agent)).toHaveLength(5);
      const agentBattery = await agent.post<{ list: { terminalID: string }[] }>('/stat/battery', { pageSize: 1000 });
      expect(agentBattery.data.list.filter((r) => Object.values(tids).includes(r.terminalID))).toHaveLength(5);
    });
  });

  describe('drivers', () => {
    let driverId: string;
    let tid: string;

    beforeAll(async () => {
      tid = newTerminalId('jt808');
      await addDevice(server, tid, 'jt808', { userId: customerId });
    });

    it('keeps driver records per account within the caller’s subtree', async () => {
      const saved = await agent.post<{ id: string }>('/driver/save', {
        userId: customerId,
        name: 'Li Wei',
        phone: '13900001111',
        licence: 'B2-123',
        icCard: 'CARD-0001',
      });
      expect(saved.meta.success).toBe(true);
      driverId = saved.data.id;
      const mine = await customer.post<{ total: number; list: { name: string; icCard: string }[] }>('/driver/find', {});
      expect(mine.data.list.map((d) => [d.name, d.icCard])).toEqual([['Li Wei', 'CARD-0001']]);
      // Another agent's branch: neither the account nor the record is reachable.
      expect((await other.post('/driver/find', { userId: customerId })).status).toBe(403);
      expect((await other.post('/driver/save', { id: driverId, name: 'X' })).status).toBe(403);
      expect((await other.post('/driver/delete', { id: driverId })).status).toBe(403);
      expect((await agent.post('/driver/save', { name: '' })).status).toBe(400);
    });

    it('refuses the driver screens to roles without the device permissions', async () => {
      const log = await userClient(server, 'cs-log', 8);
      expect((await log.post('/driver/find', {})).status).toBe(403);
      expect((await log.post('/driver/assign', { terminalID: tid, driverId })).status).toBe(403);
    });

    it('sets the current driver by hand, shows it on the monitor, and records the change', async () => {
      const res = await customer.post<{ driverName: string }>('/driver/assign', { terminalID: tid, driverId });
      expect(res.data.driverName).toBe('Li Wei');
      const loc = await customer.post<{ driverName: string; driverPhone: string }[]>('/location/find', {
        terminalIDs: [tid],
      });
      expect(loc.data[0]).toMatchObject({ driverName: 'Li Wei', driverPhone: '13900001111' });
      const history = await customer.post<{ action: string; source: string }[]>('/driver/history', { terminalID: tid });
      expect(history.data[0]).toMatchObject({ action: 'in', source: 'manual' });
      await customer.post('/driver/assign', { terminalID: tid, driverId: null });
      const cleared = await customer.post<{ driverName: string }[]>('/location/find', { terminalIDs: [tid] });
      expect(cleared.data[0].driverName).toBe('');
      expect((await other.post('/driver/assign', { terminalID: tid, driverId: null })).status).toBe(403);
    });

    it('takes the driver from a JT/T 808 driver card (0x0702) sent over TCP, and clears it when the card is removed', async () => {
      const cardTid = newTerminalId('jt808');
      await addDevice(server, cardTid, 'jt808', { userId: customerId });
      const device = simulatedDevice(server.gateway, 'jt808', cardTid);
      await device.connect();
      try {
        const terminal = new Jt808Terminal(cardTid);
        const driverOf = async () =>
          (
            await server.ctx.db
              .selectFrom('devices')
              .select(['driver_name', 'driver_id'])
              .where('terminal_id', '=', cardTid)
              .executeTakeFirstOrThrow()
          ).driver_name;
        device.sendRaw(
          terminal.driverIdentity(900, { inserted: true, name: 'Card Name', number: 'CARD-0001', time: Date.now() }),
        );
        // The card number belongs to Li Wei's record: the record's name wins over the name on the card.
        expect(await waitFor(async () => ((await driverOf()) === 'Li Wei' ? 'ok' : null), 10_000, 'driver in')).toBe(
          'ok',
        );
        device.sendRaw(terminal.driverIdentity(901, { inserted: false, time: Date.now() }));
        await waitFor(async () => ((await driverOf()) === '' ? 'ok' : null), 10_000, 'driver out');
        device.sendRaw(
          terminal.driverIdentity(902, { inserted: true, name: 'Wang Fang', number: 'UNKNOWN-9', time: Date.now() }),
        );
        // An unknown card: the name read from the card.
        await waitFor(async () => ((await driverOf()) === 'Wang Fang' ? 'ok' : null), 10_000, 'card name');
        const history = await customer.post<{ action: string; name: string; source: string }[]>('/driver/history', {
          terminalID: cardTid,
        });
        expect(history.data.map((h) => [h.action, h.name, h.source])).toEqual([
          ['in', 'Wang Fang', 'card'],
          ['out', '', 'card'],
          ['in', 'Li Wei', 'card'],
        ]);
      } finally {
        device.stop();
      }
    });

    it('deleting a record leaves its vehicles without a driver', async () => {
      await customer.post('/driver/assign', { terminalID: tid, driverId });
      expect((await agent.post('/driver/delete', { id: driverId })).meta.success).toBe(true);
      const loc = await customer.post<{ driverName: string }[]>('/location/find', { terminalIDs: [tid] });
      expect(loc.data[0].driverName).toBe('');
    });
  });

  describe('bulk edit of device info, a value per device (/device/updateAll rows)', () => {
    const a = newTerminalId('jt808');
    const b = newTerminalId('jt808');
    const taken = newTerminalId('jt808');
    const foreign = newTerminalId('jt808');
    const c = newTerminalId('jt808');

    beforeAll(async () => {
      await addDevice(server, c, 'jt808', { userId: customerId });
      await addDevice(server, a, 'jt808', { userId: customerId });
      await addDevice(server, b, 'jt808', { userId: customerId });
      await addDevice(server, taken, 'jt808', { userId: customerId });
      await addDevice(server, foreign, 'jt808', { userId: '1' });
      await server.ctx.db
        .updateTable('devices')
        .set({ car_number: '京A11111' })
        .where('terminal_id', '=', taken)
        .execute();
      await server.ctx.db.updateTable('devices').set({ nickname: 'Old name' }).where('terminal_id', '=', a).execute();
    });

    const rows = () => [
      {
        terminalID: a,
        nickname: 'Truck 1',
        carNumber: '京B22222',
        sim: '13800000001',
        driverName: 'Li Wei',
        driverPhone: '13900001111',
        iconType: 3,
      },
      { terminalID: b, sim: '123' },
      { terminalID: foreign, nickname: 'Not mine' },
      { terminalID: taken, carNumber: '京A11111' },
      { terminalID: c, carNumber: '京A11111' },
      { terminalID: b, nickname: 'again' },
    ];

    it('previews each line: the changes, or why it fails, and writes nothing', async () => {
      const res = await agent.post<{
        lines: {
          line: number;
          status: string;
          message: string;
          changes: { field: string; from: string; to: string }[];
        }[];
      }>('/device/updateAllPreview', { rows: rows() });
      expect(res.meta.success).toBe(true);
      const [first, badSim, notMine, same, plate, twice] = res.data.lines;
      expect(first.status).toBe('change');
      expect(first.changes).toContainEqual({ field: 'nickname', from: 'Old name', to: 'Truck 1' });
      expect(first.changes.map((c) => c.field)).toEqual([
        'nickname',
        'carNumber',
        'sim',
        'driverName',
        'driverPhone',
        'iconType',
      ]);
      expect(badSim).toMatchObject({ status: 'failed', message: 'Please enter the correct SIM card number' });
      expect(notMine.status).toBe('failed');
      expect(same).toMatchObject({ status: 'unchanged', changes: [] });
      expect(plate.status).toBe('failed');
      expect(plate.message).toMatch(/plate/i);
      expect(twice.status).toBe('failed');
      const row = await server.ctx.db
        .selectFrom('devices')
        .select('nickname')
        .where('terminal_id', '=', a)
        .executeTakeFirstOrThrow();
      expect(row.nickname).toBe('Old name');
    });

    it('writes the lines that pass and answers a result per line', async () => {
      const res = await agent.post<{ success: number; failed: { terminalID: string }[]; lines: { status: string }[] }>(
        '/device/updateAll',
        { rows: rows() },
      );
      expect(res.meta.success).toBe(true);
      expect(res.data.success).toBe(1);
      expect(res.data.failed.map((f) => f.terminalID)).toEqual([b, foreign, c, b]);
      const row = await server.ctx.db
        .selectFrom('devices')
        .select(['nickname', 'car_number', 'sim', 'driver_name', 'driver_phone', 'icon_type'])
        .where('terminal_id', '=', a)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        nickname: 'Truck 1',
        car_number: '京B22222',
        sim: '13800000001',
        driver_name: 'Li Wei',
        driver_phone: '13900001111',
        icon_type: 3,
      });
      const foreignRow = await server.ctx.db
        .selectFrom('devices')
        .select('nickname')
        .where('terminal_id', '=', foreign)
        .executeTakeFirstOrThrow();
      expect(foreignRow.nickname).toBe('');
      // The driver typed by hand is in the driver history.
      const history = await customer.post<{ name: string; source: string }[]>('/driver/history', { terminalID: a });
      expect(history.data[0]).toMatchObject({ name: 'Li Wei', source: 'manual' });
    });

    it('keeps the one-value form and refuses both forms at once, and roles without bulk info', async () => {
      const same = await agent.post<{ success: number }>('/device/updateAll', {
        terminalIDs: [a, b],
        nickname: 'Fleet',
      });
      expect(same.data.success).toBe(2);
      expect((await agent.post('/device/updateAll', { terminalIDs: [a], rows: [{ terminalID: a }] })).status).toBe(400);
      expect(
        (await customer.post('/device/updateAllPreview', { rows: [{ terminalID: a, nickname: 'x' }] })).status,
      ).toBe(403);
      expect((await customer.post('/device/updateAll', { rows: [{ terminalID: a, nickname: 'x' }] })).status).toBe(403);
    });
  });

  describe('batch command results (/task/findResults)', () => {
    const x = newTerminalId('jt808');
    const y = newTerminalId('jt808');
    let taskId: string;

    beforeAll(async () => {
      await addDevice(server, x, 'jt808', { userId: customerId });
      await addDevice(server, y, 'jt808', { userId: customerId });
      const made = await agent.post<{ id: string }>('/task/create', {
        content: 'WHERE#',
        terminalIDs: [x, y],
        area: 'main',
      });
      expect(made.meta.success).toBe(true);
      taskId = made.data.id;
      await admin.post('/task/create', { content: 'RESET#', terminalIDs: [x], area: 'main' });
    });

    type Result = { taskId: string; terminalID: string; state: string; title: string };

    it('lists the per-device results of the caller’s batches, by batch, IMEI and state', async () => {
      const all = await agent.post<{ total: number; list: Result[] }>('/task/findResults', {});
      expect(all.data.list.map((r) => [r.taskId, r.terminalID, r.title])).toEqual([
        [taskId, x, 'WHERE#'],
        [taskId, y, 'WHERE#'],
      ]);
      const one = await agent.post<{ list: Result[] }>('/task/findResults', { taskId, terminalID: y });
      expect(one.data.list.map((r) => r.terminalID)).toEqual([y]);
      // Offline devices: their items wait in the queue.
      const waiting = await agent.post<{ total: number }>('/task/findResults', { state: 'pending' });
      expect(waiting.data.total).toBe(2);
      expect((await agent.post<{ total: number }>('/task/findResults', { state: 'success' })).data.total).toBe(0);
      const later = await agent.post<{ total: number }>('/task/findResults', { startTime: Date.now() + 3_600_000 });
      expect(later.data.total).toBe(0);
      // The administrator sees every batch.
      expect((await admin.post<{ total: number }>('/task/findResults', { terminalID: x })).data.total).toBe(2);
    });

    it('hides other branches’ batches and refuses roles without commands', async () => {
      expect((await other.post<{ total: number }>('/task/findResults', {})).data.total).toBe(0);
      const log = await userClient(server, 'cs-log2', 8);
      expect((await log.post('/task/findResults', {})).status).toBe(403);
      expect((await agent.post('/task/findResults', { state: 'done' })).status).toBe(400);
    });
  });

  describe('data import for one customer (/device/dataImport)', () => {
    const stock = newTerminalId('jt808');
    const already = newTerminalId('jt808');
    const elsewhere = newTerminalId('jt808');

    beforeAll(async () => {
      await addDevice(server, stock, 'jt808', { userId: agentId });
      await addDevice(server, already, 'jt808', { userId: customerId });
      await addDevice(server, elsewhere, 'jt808', { userId: await idOf(server, 'cs-other-agent') });
    });

    const rows = () => [
      { terminalID: stock, carNumber: '京C33333', driverName: 'Owner One', driverPhone: '13700000001' },
      { terminalID: already, nickname: 'Van 2' },
      { terminalID: elsewhere, nickname: 'Not mine' },
    ];
    type Line = { terminalID: string; status: string; move: boolean };
    const ownerOf = async (tid: string) =>
      String(
        (
          await server.ctx.db
            .selectFrom('devices')
            .select('user_id')
            .where('terminal_id', '=', tid)
            .executeTakeFirstOrThrow()
        ).user_id,
      );

    it('previews per line whether the device moves into the customer and what changes, writing nothing', async () => {
      const res = await agent.post<{ lines: Line[] }>('/device/dataImportPreview', {
        userId: customerId,
        rows: rows(),
      });
      expect(res.data.lines.map((l) => [l.terminalID, l.status, l.move])).toEqual([
        [stock, 'change', true],
        [already, 'change', false],
        [elsewhere, 'failed', false],
      ]);
      expect(await ownerOf(stock)).toBe(agentId);
    });

    it('moves the devices into the customer’s account and writes their data', async () => {
      const res = await agent.post<{ success: number; failed: number; lines: Line[] }>('/device/dataImport', {
        userId: customerId,
        rows: rows(),
      });
      expect(res.data).toMatchObject({ success: 2, failed: 1 });
      expect(await ownerOf(stock)).toBe(customerId);
      const row = await server.ctx.db
        .selectFrom('devices')
        .select(['car_number', 'driver_name', 'driver_phone'])
        .where('terminal_id', '=', stock)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ car_number: '京C33333', driver_name: 'Owner One', driver_phone: '13700000001' });
      expect(await ownerOf(elsewhere)).not.toBe(customerId);
    });

    it('imports into one customer only, within reach, for holders of main:data_import', async () => {
      expect((await agent.post('/device/dataImport', { userId: agentId, rows: rows() })).status).toBe(400);
      expect((await other.post('/device/dataImport', { userId: customerId, rows: rows() })).status).toBe(403);
      expect((await customer.post('/device/dataImportPreview', { userId: customerId, rows: rows() })).status).toBe(403);
    });
  });
});
