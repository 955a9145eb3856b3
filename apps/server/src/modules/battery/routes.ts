// /api/battery — a device's battery level and battery-pack detail (spec §3 battery).
import { batteryPercent, batteryState } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { assertFeature } from '../deviceTypes/store.ts';
import type { Caller } from '../location/devices.ts';
import { deviceByRef } from '../location/devices.ts';
import { terminalIdSchema } from '../location/params.ts';

const BATTERY = ['main:monitor'];

const packSchema = z.object({
  voltage: z.number().nullable(),
  current: z.number().nullable(),
  percentage: z.number().nullable(),
  temperature: z.number().nullable(),
  useCount: z.number().nullable(),
  /** charging | discharging | idle */
  state: z.string(),
});
const batterySchema = z.object({
  terminalID: z.string(),
  time: z.string().nullable(),
  /** Battery level in %, as last reported. */
  battery: z.number().nullable(),
  pack: packSchema.nullable(),
});

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function packOf(raw: unknown): z.infer<typeof packSchema> | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const p = raw as Record<string, unknown>;
  const current = num(p.current);
  return {
    voltage: num(p.voltage),
    current,
    percentage: batteryPercent(num(p.percentage) ?? undefined) ?? null,
    temperature: num(p.temperature),
    useCount: num(p.useCount) ?? num(p.cycles),
    state: typeof p.state === 'string' ? p.state : batteryState(current ?? 0),
  };
}

export async function batteryRoutes(app: App, ctx: AppContext): Promise<void> {
  const find = async (caller: Caller, terminalID: string) => {
    const device = await deviceByRef(ctx, caller, { terminalID });
    await assertFeature(ctx.db, device.deviceType, 'battery');
    const s = await ctx.db
      .selectFrom('device_state')
      .select(['battery', 'battery_pack', 'last_seen'])
      .where('device_id', '=', device.id)
      .executeTakeFirst();
    return ok({
      terminalID: device.terminalId,
      time: s?.last_seen ? s.last_seen.toISOString() : null,
      battery: s?.battery ?? null,
      pack: packOf(s?.battery_pack ?? null),
    });
  };
  const schema = { tags: ['battery'], response: { 200: envelopeOf(batterySchema) } };
  const input = z.object({ terminalID: terminalIdSchema });

  app.post(
    '/battery',
    { config: { permission: BATTERY }, schema: { ...schema, summary: 'Battery of a device', body: input } },
    async (req) => find(req.user!, req.body.terminalID),
  );
  app.get(
    '/battery/findByTerminalID',
    {
      config: { permission: BATTERY },
      schema: { ...schema, summary: 'Battery of a device (query)', querystring: input },
    },
    async (req) => find(req.user!, req.query.terminalID),
  );
}
