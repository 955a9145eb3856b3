// The demo fleet: unless DEMO=0, `npm start` registers a few GT06 and JT/T 808 devices for the demo account
// (once; an admin may delete or transfer them afterwards) and drives them with the simulator against the
// local gateway ports, so the map moves around Beijing.
import { BEIJING, Fleet } from '@carhere/simulator';
import type { AppContext } from '../context.ts';
import type { ComponentStarter } from '../main.ts';
import { FENCE_CHANGED_SUBJECT } from '../modules/fence/detector.ts';
import { DEMO_HISTORY_DAYS, writeDemoHistory } from '../modules/stat/demo-history.ts';
import { markForRebuild } from '../modules/stat/rollup.ts';
import { seedDemoExtras } from './demo-extras.ts';

const SEEDED_SETTING = 'demo_fleet_seeded';
export const DEMO_GT06_FIRST = '868120000000000';
export const DEMO_JT808_FIRST = '13800000000';
export const DEMO_FENCE_NAME = 'Demo: Beijing centre (3 km)';

/** GT06 and 808 model codes of the domain catalogue. */
const MODEL_GT06 = 12;
const MODEL_808 = 8;

export interface DemoFleetOptions {
  devices: number;
  intervalSeconds: number;
}

export function demoFleetOptionsFrom(env: NodeJS.ProcessEnv = process.env): DemoFleetOptions {
  const devices = Number(env.DEMO_DEVICES ?? 6);
  const interval = Number(env.DEMO_INTERVAL_SECONDS ?? 5);
  return {
    devices: Number.isInteger(devices) && devices >= 0 && devices <= 1000 ? devices : 6,
    intervalSeconds: Number.isFinite(interval) && interval >= 1 ? interval : 5,
  };
}

/** Registers the demo devices for the demo account the first time; returns how many were created. */
export async function seedDemoDevices(ctx: AppContext, count: number): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const seeded = await trx.selectFrom('settings').select('key').where('key', '=', SEEDED_SETTING).executeTakeFirst();
    if (seeded) return 0;
    const demo = await trx.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirst();
    if (!demo) return 0;
    const gt06 = Math.ceil(count / 2);
    const rows = [
      ...Array.from({ length: gt06 }, (_, i) => ({
        terminal_id: (BigInt(DEMO_GT06_FIRST) + BigInt(i)).toString(),
        nickname: `Demo GT06 ${i + 1}`,
        protocol: 2,
        device_type: MODEL_GT06,
      })),
      ...Array.from({ length: count - gt06 }, (_, i) => ({
        terminal_id: (BigInt(DEMO_JT808_FIRST) + BigInt(i)).toString(),
        nickname: `Demo 808 ${i + 1}`,
        protocol: 1,
        device_type: MODEL_808,
      })),
    ].map((r) => ({ ...r, user_id: demo.id }));
    let created = 0;
    if (rows.length > 0) {
      const res = await trx
        .insertInto('devices')
        .values(rows)
        .onConflict((oc) => oc.column('terminal_id').doNothing())
        .executeTakeFirst();
      created = Number(res.numInsertedOrUpdatedRows ?? 0);
    }
    // A fence the fleet drives in and out of: the demo's fence alarms are made by the server, not by visitors
    // (whose "try it out" sessions are read-only).
    const fence = await trx
      .insertInto('fences')
      .values({
        user_id: demo.id,
        name: DEMO_FENCE_NAME,
        shape: 'circle',
        lat: BEIJING.lat,
        lon: BEIJING.lon,
        radius: 3000,
        alarm_type: 'inOut',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const devices = await trx
      .selectFrom('devices')
      .select('id')
      .where('user_id', '=', demo.id)
      .where(
        'terminal_id',
        'in',
        rows.map((r) => r.terminal_id),
      )
      .execute();
    if (devices.length > 0)
      await trx
        .insertInto('fence_devices')
        .values(devices.map((d) => ({ fence_id: fence.id, device_id: d.id })))
        .execute();
    await trx
      .insertInto('settings')
      .values({ key: SEEDED_SETTING, value: JSON.stringify({ devices: count }) })
      .execute();
    return created;
  });
}

/** 30 days of past driving for the demo devices, with their daily statistics rows (first start only). */
export async function seedDemoHistory(ctx: AppContext): Promise<void> {
  const devices = await ctx.db
    .selectFrom('devices as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select('d.id')
    .where('u.username', '=', 'demo')
    .execute();
  const r = await writeDemoHistory(
    ctx.dbHandle.pool,
    devices.map((d) => String(d.id)),
  );
  console.log(
    `  Demo history: ${DEMO_HISTORY_DAYS} days, ${r.fixes} fixes and ${r.alarms} alarms for ${devices.length} devices, with their daily statistics, in ${(r.ms / 1000).toFixed(1)} s`,
  );
}

export const demoFleetStarter: ComponentStarter = async (ctx) => {
  const gateway = ctx.services.gateway;
  if (!ctx.config.demo || !gateway) return null;
  const o = demoFleetOptionsFrom();
  if (o.devices === 0) return null;
  const created = await seedDemoDevices(ctx, o.devices);
  if (created > 0) {
    ctx.bus.publish(FENCE_CHANGED_SUBJECT, { origin: 'demo-fleet' });
    const started = performance.now();
    await seedDemoHistory(ctx);
    const extras = await seedDemoExtras(ctx);
    // The extras' alarms of the last hours were written straight into the table: mark their days for the
    // roll-up, so the dashboard's and the statistics' alarm counts of today include them.
    await markForRebuild(ctx.dbHandle.pool, Date.now() - 86_400_000, Date.now());
    console.log(
      `  Demo extras: ${extras.devices} parked, expired and expiring devices, tyre and battery readings, ${extras.alarms} unread alarms, ${extras.commands} queued and answered commands; the whole demo in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  const gt06 = Math.ceil(o.devices / 2);
  const fleets = [
    new Fleet({
      protocol: 'gt06',
      devices: gt06,
      interval: o.intervalSeconds,
      host: '127.0.0.1',
      port: gateway.ports.gt06,
      firstTerminalId: DEMO_GT06_FIRST,
    }),
    new Fleet({
      protocol: 'jt808',
      devices: o.devices - gt06,
      interval: o.intervalSeconds,
      host: '127.0.0.1',
      port: gateway.ports.jt808,
      firstTerminalId: DEMO_JT808_FIRST,
    }),
  ].filter((f) => f.devices.length > 0);
  // Start in the background: the server is already answering; the devices log in over the next second.
  for (const f of fleets) void f.start();
  console.log(
    `  Demo fleet: ${o.devices} simulated trackers around Beijing for the demo account (DEMO=0 turns it off)`,
  );
  return {
    name: 'demo-fleet',
    stop: async () => {
      for (const f of fleets) f.stop();
    },
  };
};
