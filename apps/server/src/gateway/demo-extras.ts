// What makes the demo look lived-in on its first start (issue 17), beside the driving fleet and its 30 days of
// history: a few devices that do not drive — one parked and offline for days, one whose platform service has
// expired, one expiring within the week — tyre and battery-pack readings, unread alarms of several kinds from
// the last hours, and commands both queued for an offline device and answered. Written straight into the
// tables in one transaction (no TCP), deterministic, in well under a second.
import { LOW_BATTERY_ALARM, OFFLINE_ALARM, OVERSPEED_ALARM, POWER_CUT_ALARM } from '@carhere/domain';
import type { AppContext } from '../context.ts';

/** The devices that do not drive (the simulator never logs them in). */
export const DEMO_STILL_DEVICES = [
  { terminalId: '868120000009001', nickname: 'Demo parked (offline)', lastSeenDaysAgo: 3, expireInDays: 300 },
  { terminalId: '868120000009002', nickname: 'Demo expired', lastSeenDaysAgo: 12, expireInDays: -5 },
  { terminalId: '868120000009003', nickname: 'Demo expiring soon', lastSeenDaysAgo: 1, expireInDays: 5 },
] as const;

const MODEL_GT06 = 12;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Unread alarms of the last hours: [code, protocol name, source, hours ago]. */
const RECENT_ALARMS: readonly [number, string, 'device' | 'derived', number][] = [
  [1, 'sos', 'device', 0.4],
  [OVERSPEED_ALARM, 'overspeed', 'derived', 0.9],
  [4, 'geofenceEnter', 'derived', 1.3],
  [5, 'geofenceExit', 'derived', 1.8],
  [3, 'vibration', 'device', 2.5],
  [LOW_BATTERY_ALARM, 'lowBattery', 'derived', 3.2],
  [POWER_CUT_ALARM, 'powerCut', 'derived', 4.1],
  [30, 'fatigueDriving', 'device', 5.5],
];

/** Four wheels in bar and °C (the decoders' form, tire/routes.ts wheelsOf); the rear left one is low. */
const TYRES = [
  { index: 0, pressure: 2.4, temperature: 31 },
  { index: 1, pressure: 2.5, temperature: 32 },
  { index: 2, pressure: 1.6, temperature: 29 },
  { index: 3, pressure: 2.4, temperature: 30 },
];
/** A BMS report (battery/routes.ts packOf): discharging at 3.2 A. */
const BATTERY_PACK = { voltage: 52.4, current: -3.2, percentage: 76, temperature: 29, useCount: 143 };

export interface DemoExtrasResult {
  devices: number;
  alarms: number;
  commands: number;
  ms: number;
}

/** Adds the demo's still devices, readings, recent alarms and commands (call once, after seedDemoDevices). */
export async function seedDemoExtras(ctx: AppContext, now = Date.now()): Promise<DemoExtrasResult> {
  const started = performance.now();
  return ctx.db.transaction().execute(async (trx) => {
    const demo = await trx.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirst();
    if (!demo) return { devices: 0, alarms: 0, commands: 0, ms: 0 };
    const inserted = await trx
      .insertInto('devices')
      .values(
        DEMO_STILL_DEVICES.map((d) => ({
          terminal_id: d.terminalId,
          nickname: d.nickname,
          protocol: 2,
          device_type: MODEL_GT06,
          user_id: demo.id,
          activated_at: new Date(now - 400 * DAY_MS),
          platform_expire_at: new Date(now + d.expireInDays * DAY_MS),
          user_expire_at: new Date(now + d.expireInDays * DAY_MS),
        })),
      )
      .onConflict((oc) => oc.column('terminal_id').doNothing())
      .returning(['id', 'terminal_id'])
      .execute();
    // Where each still device was last seen: a few km around the centre of Beijing.
    for (const [i, row] of inserted.entries()) {
      const spec = DEMO_STILL_DEVICES.find((d) => d.terminalId === row.terminal_id);
      if (!spec) continue;
      const seen = new Date(now - spec.lastSeenDaysAgo * DAY_MS);
      await trx
        .insertInto('device_state')
        .values({
          device_id: row.id,
          online: false,
          state_time: seen,
          last_seen: seen,
          pos_time: seen,
          lat: 39.95 - i * 0.04,
          lon: 116.32 + i * 0.07,
          speed: 0,
          course: 0,
          valid: true,
          satellites: 9,
          location_type: 'gps',
          acc: false,
          battery: 64 - i * 20,
          attributes: '{}',
        })
        .onConflict((oc) => oc.column('device_id').doNothing())
        .execute();
    }
    // The driving devices (the simulator's), oldest first.
    const fleet = await trx
      .selectFrom('devices')
      .select(['id', 'terminal_id', 'protocol'])
      .where('user_id', '=', demo.id)
      .where(
        'terminal_id',
        'not in',
        DEMO_STILL_DEVICES.map((d) => d.terminalId),
      )
      .orderBy('id')
      .execute();
    const jt808 = fleet.find((d) => d.protocol === 1) ?? fleet[0];
    const readingsOn = [jt808, inserted[0]].filter((d) => d !== undefined);
    for (const d of readingsOn) {
      // The gateway keeps stored readings while later reports carry none (state-writer coalesces them).
      await trx
        .insertInto('device_state')
        .values({
          device_id: d.id,
          tyres: JSON.stringify(TYRES),
          battery_pack: JSON.stringify(BATTERY_PACK),
          attributes: '{}',
        })
        .onConflict((oc) =>
          oc
            .column('device_id')
            .doUpdateSet({ tyres: JSON.stringify(TYRES), battery_pack: JSON.stringify(BATTERY_PACK) }),
        )
        .execute();
    }
    // Unread alarms of several kinds over the last hours, spread over the fleet, plus the offline device's own.
    const alarms = fleet.length === 0 ? [] : RECENT_ALARMS.map((a, i) => ({ a, device: fleet[i % fleet.length] }));
    const rows = alarms.map(({ a: [type, name, source, hoursAgo] }, i) => ({
      device_id: alarms[i].device.id,
      type,
      name,
      source,
      time: new Date(now - hoursAgo * HOUR_MS),
      lat: 39.915 + Math.sin(i) * 0.03,
      lon: 116.404 + Math.cos(i) * 0.04,
      speed: type === OVERSPEED_ALARM ? 128 : 0,
      read: false,
    }));
    if (inserted[0])
      rows.push({
        device_id: inserted[0].id,
        type: OFFLINE_ALARM,
        name: 'offline',
        source: 'derived',
        time: new Date(now - DEMO_STILL_DEVICES[0].lastSeenDaysAgo * DAY_MS + HOUR_MS),
        lat: 39.95,
        lon: 116.32,
        speed: 0,
        read: false,
      });
    if (rows.length > 0) await trx.insertInto('alarms').values(rows).execute();
    // Commands: answered ones on driving devices, queued ones waiting for the offline devices to connect.
    const sender = { sender_id: demo.id, sender_name: 'demo' };
    const commands = [
      ...[jt808, fleet.find((d) => d !== jt808)].flatMap((d, i) =>
        d === undefined
          ? []
          : [
              {
                device_id: d.id,
                terminal_id: d.terminal_id,
                protocol: d.protocol,
                content: d.protocol === 1 ? 'STATUS#' : 'WHERE#',
                mode: 'live' as const,
                status: 'answered' as const,
                result: 1,
                reply:
                  d.protocol === 1
                    ? 'GPS:OK, GSM:-67dBm, ACC:ON, BAT:4.1V'
                    : 'Lat:N39.91500, Lon:E116.40400, Course:0.00, Speed:0.0km/h',
                created_at: new Date(now - (2 + i) * HOUR_MS),
                sent_at: new Date(now - (2 + i) * HOUR_MS),
                answered_at: new Date(now - (2 + i) * HOUR_MS + 4_000),
                ...sender,
              },
            ],
      ),
      ...inserted.slice(0, 2).map((d, i) => ({
        device_id: d.id,
        terminal_id: d.terminal_id,
        protocol: 2,
        content: i === 0 ? 'TIMER,60#' : 'WHERE#',
        mode: 'offline' as const,
        status: 'pending' as const,
        result: null,
        reply: null,
        created_at: new Date(now - (5 + i) * HOUR_MS),
        sent_at: null,
        answered_at: null,
        expires_at: new Date(now + 7 * DAY_MS),
        ...sender,
      })),
    ];
    if (commands.length > 0) await trx.insertInto('commands').values(commands).execute();
    return {
      devices: inserted.length,
      alarms: rows.length,
      commands: commands.length,
      ms: performance.now() - started,
    };
  });
}
