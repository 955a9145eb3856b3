// Health and public client configuration.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, fail, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { DEMO_SETTING } from '../auth/routes.ts';

declare module '../../context.ts' {
  interface AppServices {
    /** Set while the process shuts down: /api/ready answers 503 so load balancers send work elsewhere. */
    lifecycle: { draining: boolean };
  }
}

const readyBody = z.object({ ready: z.boolean(), database: z.string(), bus: z.string(), accepting: z.boolean() });

/** Answers within `ms` or rejects. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Null when the database answers a query, else why not. */
async function databaseProblem(ctx: AppContext): Promise<string | null> {
  try {
    await within(ctx.db.selectNoFrom((eb) => eb.val(1).as('one')).execute(), 3000, 'the database');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

async function busProblem(ctx: AppContext): Promise<string | null> {
  try {
    await within(ctx.bus.ping(), 3000, 'the event bus');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export async function systemRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check (503 while the database does not answer)',
        response: {
          200: envelopeOf(z.object({ status: z.literal('ok'), database: z.string(), uptimeSeconds: z.number() })),
          503: envelopeOf(z.object({ status: z.literal('unavailable'), database: z.string(), reason: z.string() })),
        },
      },
    },
    async (req, reply) => {
      const problem = await databaseProblem(ctx);
      if (problem) {
        const data = { status: 'unavailable' as const, database: ctx.dbHandle.kind, reason: problem };
        return reply.code(503).send({ meta: fail(503, translate('serverBusy', callerLang(req))).meta, data });
      }
      return ok({ status: 'ok' as const, database: ctx.dbHandle.kind, uptimeSeconds: Math.round(process.uptime()) });
    },
  );

  app.get(
    '/ready',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database and the event bus answer and the process accepts work (else 503)',
        response: {
          200: envelopeOf(readyBody),
          503: envelopeOf(readyBody),
        },
      },
    },
    async (req, reply) => {
      const [database, bus] = await Promise.all([databaseProblem(ctx), busProblem(ctx)]);
      const draining = ctx.services.lifecycle?.draining === true;
      const body = {
        ready: !database && !bus && !draining,
        database: database ?? 'ok',
        bus: bus ?? 'ok',
        accepting: !draining,
      };
      if (!body.ready)
        return reply.code(503).send({ meta: fail(503, translate('serverBusy', callerLang(req))).meta, data: body });
      return ok(body);
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
