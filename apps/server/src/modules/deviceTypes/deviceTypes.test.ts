import { SEED_DEVICE_TYPES } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';

interface Stored {
  deviceType: number;
  name: string;
  edited: boolean;
  features: Record<string, boolean>;
  menu: { group: string; commands: { id: string; template: string }[] }[];
  protocolMenus: Record<string, unknown>;
}
interface Oil {
  outcome: string;
  messages: string[];
}

const UNSUPPORTED = 'The device does not support this feature!';

describe('device types as data (/api/deviceType/*) and what reads them', () => {
  let server: GatewayTestServer;
  let admin: ApiClient;
  let demo: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer({ commandTimeoutMs: 1500 });
    admin = await adminClient(server);
    demo = await demoClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  async function edit(code: number, change: (t: Stored) => Stored): Promise<Stored> {
    const detail = await admin.post<Stored>('/deviceType/detail', { deviceType: code });
    const { edited: _e, updatedAt: _u, ...config } = detail.data as Stored & { updatedAt: string | null };
    const saved = await admin.post<Stored>('/deviceType/addOrUpdate', change(config as Stored));
    expect(saved.meta.success, saved.meta.message).toBe(true);
    return saved.data;
  }

  it('answers the seeded catalogue keyed by deviceType to every account, the admin list only to the admin', async () => {
    const all = await demo.post<Record<string, Stored>>('/deviceType/findAll', {});
    expect(all.meta.success).toBe(true);
    expect(
      Object.keys(all.data)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(SEED_DEVICE_TYPES.map((t) => t.deviceType).sort((a, b) => a - b));
    expect(all.data['4'].menu.map((g) => g.group)).toContain('tyre');
    expect(all.data['12'].edited).toBe(false);
    const page = await admin.post<{ total: number; list: Stored[] }>('/deviceType/find', { keyword: 'gt06' });
    expect(page.data.list.map((t) => t.deviceType)).toEqual([12]);
    for (const [url, body] of [
      ['/deviceType/find', {}],
      ['/deviceType/detail', { deviceType: 12 }],
      ['/deviceType/addOrUpdate', all.data['12']],
    ] as const) {
      const res = await demo.post(url, body);
      expect(res.meta.success, url).toBe(false);
      expect(res.meta.code, url).toBe(403);
    }
    const agent = await userClient(server, 'dtAgent', 2);
    expect((await agent.post('/deviceType/find', {})).meta.code).toBe(403);
  });

  it('refuses bad input: unknown protocol, icon out of 1–12, an own command without a label, a two-line template', async () => {
    const base = (await admin.post<Stored>('/deviceType/detail', { deviceType: 3 })).data as Stored & {
      edited?: boolean;
      updatedAt?: string;
    };
    const { edited: _e, updatedAt: _u, ...config } = base;
    for (const bad of [
      { ...config, protocolType: 9 },
      { ...config, iconType: 13 },
      { ...config, menu: [{ group: 'x', commands: [{ id: 'mine', template: 'MINE#' }] }] },
      { ...config, menu: [{ group: 'x', commands: [{ id: 'status', template: 'STATUS#\nRESET#' }] }] },
    ]) {
      const res = await admin.post('/deviceType/addOrUpdate', bad);
      expect(res.meta.success).toBe(false);
      expect(res.meta.code).toBe(400);
    }
  });

  it("the device's type decides: oil cut refused when the type lacks it (spec §8), tyres and battery likewise", async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06', { deviceType: 5 });
    const before = await demo.post<{ status: string }>('/command/add', { terminalID: tid, content: 'RELAY,1#' });
    expect(before.meta.success).toBe(true);
    expect((await demo.post('/tire/find', { terminalID: tid })).meta.success).toBe(true);
    const saved = await edit(5, (t) => ({
      ...t,
      features: { ...t.features, oilCut: false, tyres: false, battery: false },
    }));
    expect(saved.edited).toBe(true);
    const after = await demo.post('/command/add', { terminalID: tid, content: 'RELAY,1#' });
    expect(after.meta).toMatchObject({ success: false, message: UNSUPPORTED });
    const tyres = await demo.post('/tire/find', { terminalID: tid });
    expect(tyres.meta).toMatchObject({ success: false, message: UNSUPPORTED });
    const battery = await demo.post('/battery', { terminalID: tid });
    expect(battery.meta).toMatchObject({ success: false, message: UNSUPPORTED });
    // The batch path refuses that device's row with the same message, and keeps the others.
    const other = newTerminalId('gt06');
    await addDevice(server, other, 'gt06');
    const batch = await demo.post<{ terminalID: string; status: string; message: string }[]>('/command/addBatch', {
      terminalIDs: [tid, other],
      content: 'RELAY,1#',
      offline: true,
    });
    expect(batch.data.find((r) => r.terminalID === tid)).toMatchObject({ status: 'refused', message: UNSUPPORTED });
    expect(batch.data.find((r) => r.terminalID === other)?.status).toBe('pending');
    // A command the type still has goes through.
    expect((await demo.post('/command/add', { terminalID: tid, content: 'STATUS#' })).meta.success).toBe(true);
  });

  it('checks time mode, power-on time, interval hours and mixed mode on the server with the spec messages', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06');
    const send = (content: string) => demo.post('/command/add', { terminalID: tid, content });
    expect((await send('TIMEMODE,-5#')).meta.message).toBe('Enter whole minutes, 0 or more (0 turns it off)');
    expect((await send('TIMEMODE,1.5#')).meta.success).toBe(false);
    expect((await send('POWERON,2530,2#')).meta.message).toBe('Enter a time such as 18:30');
    expect((await send('POWERON,1830,0#')).meta.message).toBe('Enter a whole number of hours, at least 1');
    expect((await send('MIXMODE,2#')).meta.message).toBe('Without mixed mode the device runs one mode only');
    for (const ok of ['TIMEMODE,0#', 'TIMEMODE,30#', 'POWERON,1830,2#', 'MIXMODE,1#'])
      expect((await send(ok)).meta.success, ok).toBe(true);
    // A type's own template with a ruled placeholder is checked too.
    await edit(7, (t) => ({
      ...t,
      menu: [
        ...t.menu,
        { group: 'mine', commands: [{ id: 'sleepAt', template: 'SLEEPAT,{powerOn}#', label: { en: 'Sleep at' } }] },
      ],
    }));
    const sagex = newTerminalId('gt06');
    await addDevice(server, sagex, 'gt06', { deviceType: 7 });
    const bad = await demo.post('/command/add', { terminalID: sagex, content: 'SLEEPAT,9999#' });
    expect(bad.meta.message).toBe('Enter a time such as 18:30');
    const batch = await demo.post<{ status: string; message: string }[]>('/command/addBatch', {
      terminalIDs: [tid],
      content: 'POWERON,1830,0#',
      offline: true,
    });
    expect(batch.data[0]).toMatchObject({ status: 'refused', message: 'Enter a whole number of hours, at least 1' });
    // The settings drawer's stored work mode follows the same rules (/order/save).
    const both = await demo.post('/order/save', {
      terminalID: tid,
      items: { timeModeMinutes: 30, powerOnTime: '18:30', mixedMode: false },
    });
    expect(both.meta).toMatchObject({ success: false, message: 'Without mixed mode the device runs one mode only' });
    const badTime = await demo.post('/order/save', { terminalID: tid, items: { powerOnTime: '25:61' } });
    expect(badTime.meta.message).toBe('Enter a time such as 18:30');
    const mixed = await demo.post<{ items: Record<string, unknown> }>('/order/save', {
      terminalID: tid,
      items: { timeModeMinutes: 30, powerOnTime: '18:30', intervalHours: 6, mixedMode: true, oilVolumeL: 12.5 },
    });
    expect(mixed.meta.success).toBe(true);
    expect(mixed.data.items).toMatchObject({ powerOnTime: '18:30', oilVolumeL: 12.5 });
    // Tyre thresholds: the low pressure below the high one (the drawer checks the same domain rule).
    const tyres = await demo.post('/order/save', { terminalID: tid, items: { tyreLowKpa: 300, tyreHighKpa: 200 } });
    expect(tyres.meta).toMatchObject({
      success: false,
      message: 'The low tyre pressure must be below the high one, and the high temperature above 0 °C',
    });
    // The tank volume is one of the spec's options (OIL_VOLUME_OPTIONS_L): 1.0–29.9 L in steps of 0.1 L.
    for (const oilVolumeL of [30, 12.55, 0.5]) {
      const bad = await demo.post('/order/save', { terminalID: tid, items: { oilVolumeL } });
      expect(bad.meta, String(oilVolumeL)).toMatchObject({
        success: false,
        message: 'Choose a tank volume from 1.0 to 29.9 L, in steps of 0.1 L',
      });
    }
  });

  it('reads oil cut replies with the spec texts on the live, record, batch, task and offline-queue paths', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', tid, {
      replyTo: (text) => (text.startsWith('RELAY,1') ? 'Cut failed, GPS has Not FIXED, delay' : 'OK'),
    });
    await sim.connect();
    try {
      const live = await demo.post<{ oil: Oil; commandId: string }>('/tracker_cmd', {
        terminalID: tid,
        content: 'RELAY,1#',
      });
      expect(live.data.oil.outcome).toBe('failure');
      expect(live.data.oil.messages[0]).toMatch(/GPS/);
      const records = await demo.post<{ list: { content: string; oil: Oil | null }[] }>('/command/find', {
        terminalID: tid,
      });
      expect(records.data.list[0].oil?.messages).toEqual(live.data.oil.messages);
      const restore = await demo.post<{ oil: Oil }>('/tracker_cmd', { terminalID: tid, content: 'RELAY,0#' });
      expect(restore.data.oil).toEqual({ outcome: 'success', messages: ['Set successfully'] });
      const status = await demo.post<{ oil: Oil | null }>('/tracker_cmd', { terminalID: tid, content: 'STATUS#' });
      expect(status.data.oil).toBeNull();
      const batch = await demo.post<{ taskId: string; oil: Oil }[]>('/command/addBatch', {
        terminalIDs: [tid],
        content: 'RELAY,1#',
      });
      expect(batch.data[0].oil.outcome).toBe('failure');
      const items = await demo.post<{ list: { oil: Oil }[] }>('/task/items', { id: batch.data[0].taskId });
      expect(items.data.list[0].oil.messages).toEqual(live.data.oil.messages);
    } finally {
      sim.stop();
    }
    // The offline queue: a cut queued while the device is away is answered when it connects again; its record
    // and the offline list read the reply with the same texts.
    const queued = await demo.post<{ id: string; oil: Oil | null }>('/command/insertOffline', {
      terminalID: tid,
      content: 'RELAY,1#',
    });
    expect(queued.meta.success).toBe(true);
    const again = simulatedDevice(server.gateway, 'gt06', tid, {
      replyTo: () => 'Cut failed, GPS has Not FIXED, delay',
    });
    await again.connect();
    try {
      const answered = await waitFor(
        async () => {
          const res = await demo.post<{ list: { id: string; status: string; oil: Oil | null }[] }>('/command/find', {
            terminalID: tid,
          });
          const row = res.data.list.find((r) => r.id === queued.data.id);
          return row?.status === 'answered' ? row : null;
        },
        20_000,
        'the queued cut answered',
      );
      expect(answered.oil?.outcome).toBe('failure');
      expect(answered.oil?.messages[0]).toMatch(/GPS/);
    } finally {
      again.stop();
    }
  });

  it('gives wanweiTest its lists (spec §6): the named account the long list, others GW005W, other roles the types', async () => {
    await server.ctx.db
      .insertInto('settings')
      .values({ key: 'wanwei_test_account', value: JSON.stringify('wwNamed') })
      .execute();
    const named = await userClient(server, 'wwNamed', 7);
    const other = await userClient(server, 'wwOther', 7);
    const long = await named.post<string[]>('/deviceType/list', {});
    expect(long.data.length).toBeGreaterThan(10);
    expect(long.data).toContain('GW005W');
    expect((await other.post<string[]>('/deviceType/list', {})).data).toEqual(['GW005W']);
    const types = await demo.post<string[]>('/deviceType/list', {});
    expect(types.data).toContain('Gt06');
    expect(types.data).not.toContain('GW005W');
  });
});
