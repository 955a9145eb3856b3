// Health and public client configuration.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { DEMO_SETTING } from '../auth/routes.ts';

export async function systemRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: {
          200: envelopeOf(z.object({ status: z.literal('ok'), database: z.string(), uptimeSeconds: z.number() })),
        },
      },
    },
    async () => {
      await ctx.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
      return ok({ status: 'ok' as const, database: ctx.dbHandle.kind, uptimeSeconds: Math.round(process.uptime()) });
    },
  );

  app.get(
    '/config/public',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'What the login page needs before anyone logs in',
        response: {
          200: envelopeOf(z.object({ appDownloadUrl: z.string(), demoEnabled: z.boolean(), environment: z.string() })),
        },
      },
    },
    async () => {
      const demo = await ctx.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', DEMO_SETTING)
        .executeTakeFirst();
      const demoEnabled = Boolean((demo?.value as { enabled?: boolean } | undefined)?.enabled);
      return ok({ appDownloadUrl: ctx.config.appDownloadUrl, demoEnabled, environment: ctx.config.appEnv });
    },
  );
}
