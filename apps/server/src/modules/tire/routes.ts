// /api/tire/find — the latest tyre report of a device with each wheel's status (spec §3 tyre data).
import { TYRE_POSITIONS, tyreStatuses } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { assertFeature } from '../deviceTypes/store.ts';
import { deviceByRef } from '../location/devices.ts';
import { terminalIdSchema } from '../location/params.ts';

const wheelSchema = z.object({
  index: z.number(),
  position: z.string().nullable(),
  /** kPa */
  pressure: z.number().nullable(),
  /** °C */
  temperature: z.number().nullable(),
  /** Most urgent first: airLeak, highTemperature, highPressure, lowPressure, lowPower, or normal. */
  statuses: z.array(z.string()),
});

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Wheels from the stored tyre report: the decoders' `[{index, pressure (bar), temperature (°C), …}]` (or an
 * object of them; `pressureKpa` is taken as it is). Pressures leave the API in kPa, like the domain limits.
 */
export function wheelsOf(tyres: unknown): z.infer<typeof wheelSchema>[] {
  const list = Array.isArray(tyres) ? tyres : tyres && typeof tyres === 'object' ? Object.values(tyres) : [];
  const wheels: z.infer<typeof wheelSchema>[] = [];
  list.forEach((w: unknown, i: number) => {
    if (typeof w !== 'object' || w === null) return;
    const r = w as Record<string, unknown>;
    const index = num(r.index) ?? i;
    const bar = num(r.pressure);
    const pressure = num(r.pressureKpa) ?? (bar === null ? null : Math.round(bar * 1000) / 10);
    const temperature = num(r.temperature) ?? num(r.temperatureC);
    wheels.push({
      index,
      position: TYRE_POSITIONS[index] ?? null,
      pressure,
      temperature,
      statuses: tyreStatuses({
        pressureKpa: pressure ?? Number.NaN,
        temperatureC: temperature ?? Number.NaN,
        leaking: r.leaking === true || r.airLeak === true,
        lowPower: r.lowPower === true || r.lowBattery === true,
      }),
    });
  });
  return wheels;
}

export async function tireRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/tire/find',
    {
      config: { permission: ['main:taiya'] },
      schema: {
        tags: ['tire'],
        summary: "A device's latest tyre pressures and temperatures",
        body: z.object({ terminalID: terminalIdSchema }),
        response: {
          200: envelopeOf(
            z.object({ terminalID: z.string(), time: z.string().nullable(), wheels: z.array(wheelSchema) }),
          ),
        },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      await assertFeature(ctx.db, device.deviceType, 'tyres');
      const s = await ctx.db
        .selectFrom('device_state')
        .select(['tyres', 'last_seen'])
        .where('device_id', '=', device.id)
        .executeTakeFirst();
      return ok({
        terminalID: device.terminalId,
        time: s?.last_seen ? s.last_seen.toISOString() : null,
        wheels: wheelsOf(s?.tyres ?? null),
      });
    },
  );
}
