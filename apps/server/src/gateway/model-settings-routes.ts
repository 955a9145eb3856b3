// /api/gateway/modelSettings/*: the admin's per-model gateway settings (main:system_config): models allowed to send
// bad checksums, and the silence before the offline alarm. Every gateway process reloads them when they change.
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { envelopeOf, ok } from '../http/envelope.ts';
import type { App } from '../http/types.ts';
import { Subjects } from './events.ts';
import { listModelSettings, saveModelSetting } from './model-settings.ts';

const ADMIN = { permission: ['main:system_config'] };
const tags = ['gateway'];

const modelSetting = z.object({
  /** devices.device_type (the model code). */
  deviceType: z.number().int().min(0).max(32767),
  /** Accept frames whose GT06 CRC-ITU / JT/T 808 XOR does not match (default false: dropped and logged). */
  acceptBadChecksums: z.boolean(),
  /** Silence in minutes before the offline alarm; null: OFFLINE_ALARM_MINUTES (default 10). */
  offlineAlarmMinutes: z.number().int().min(1).max(10080).nullable(),
});

export async function modelSettingsRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/gateway/modelSettings/find',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Gateway settings per device model',
        response: { 200: envelopeOf(z.array(modelSetting)) },
      },
    },
    async () => ok(await listModelSettings(ctx.db)),
  );

  app.post(
    '/gateway/modelSettings/save',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Sets the gateway settings of one device model (checksum switch, offline alarm threshold)',
        body: modelSetting.strict(),
        response: { 200: envelopeOf(z.array(modelSetting)) },
      },
    },
    async (req) => {
      await saveModelSetting(ctx.db, req.body);
      ctx.bus.publish(Subjects.modelSettingsChanged, { deviceType: req.body.deviceType });
      return ok(await listModelSettings(ctx.db));
    },
  );
}
