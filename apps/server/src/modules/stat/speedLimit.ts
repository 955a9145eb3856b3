// A device's speed limit (issue 13, spec §9: overspeed above 120 km/h by default): read and set per device. The
// ingest's overspeed alarm (above the limit for OVERSPEED_MIN_SECONDS) and the statistics' overspeed count both
// use devices.speed_limit; setting it tells the gateway at once (device changed → its cached row is re-read).
import { DEFAULT_SPEED_LIMIT_KMH, OVERSPEED_MIN_SECONDS, SPEED_LIMIT_RANGE } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { deviceChanged } from '../device/events.ts';
import { deviceByRef } from '../location/devices.ts';
import { idSchema, terminalIdSchema } from '../location/params.ts';

const refFields = { terminalID: terminalIdSchema.optional(), deviceId: idSchema.optional() };
const hasRef = (b: { terminalID?: string; deviceId?: string }) =>
  b.terminalID !== undefined || b.deviceId !== undefined;

const speedLimitSchema = z.object({
  terminalID: z.string(),
  /** km/h */
  speedLimit: z.number(),
  /** The default (spec §9) and the range a limit may take, km/h; overspeed needs this many seconds above it. */
  defaultSpeedLimit: z.number(),
  min: z.number(),
  max: z.number(),
  overspeedSeconds: z.number(),
});

export async function speedLimitRoutes(app: App, ctx: AppContext): Promise<void> {
  const answer = async (id: string, terminalID: string) => {
    const row = await ctx.db.selectFrom('devices').select('speed_limit').where('id', '=', id).executeTakeFirstOrThrow();
    return {
      terminalID,
      speedLimit: row.speed_limit,
      defaultSpeedLimit: DEFAULT_SPEED_LIMIT_KMH,
      min: SPEED_LIMIT_RANGE[0],
      max: SPEED_LIMIT_RANGE[1],
      overspeedSeconds: OVERSPEED_MIN_SECONDS,
    };
  };

  app.post(
    '/device/speedLimit',
    {
      config: { permission: needs('devicesView') },
      schema: {
        tags: ['device'],
        summary: 'A device’s speed limit (km/h; overspeed: above it for 10 s or more)',
        body: z.object(refFields).refine(hasRef, { message: 'terminalID or deviceId' }),
        response: { 200: envelopeOf(speedLimitSchema) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      return ok(await answer(device.id, device.terminalId));
    },
  );

  app.post(
    '/device/updateSpeedLimit',
    {
      config: { permission: needs('deviceEdit') },
      schema: {
        tags: ['device'],
        summary: `Set a device’s speed limit (km/h, ${SPEED_LIMIT_RANGE[0]}–${SPEED_LIMIT_RANGE[1]}); the gateway uses it at once`,
        body: z
          .object({
            ...refFields,
            speedLimit: z.number().min(SPEED_LIMIT_RANGE[0]).max(SPEED_LIMIT_RANGE[1]),
          })
          .refine(hasRef, { message: 'terminalID or deviceId' }),
        response: { 200: envelopeOf(speedLimitSchema) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      await ctx.db
        .updateTable('devices')
        .set({ speed_limit: req.body.speedLimit, updated_at: new Date() })
        .where('id', '=', device.id)
        .execute();
      deviceChanged(ctx, { terminalIDs: [device.terminalId] });
      return ok(await answer(device.id, device.terminalId), translate('action.save.success', callerLang(req)));
    },
  );
}
