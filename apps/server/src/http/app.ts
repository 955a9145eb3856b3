// Fastify setup: zod validation, OpenAPI, cookies, sessions, permission guard, envelope errors, the web app.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyError } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';
import { holdsPermission, permissionsOf } from './access.ts';
import { fail } from './envelope.ts';
import { ApiError, SessionExpired } from './errors.ts';
import { callerLang, translate } from './i18n.ts';
import { registerSecurityHeaders } from './securityHeaders.ts';
import { loadSession } from './session.ts';
import type { App } from './types.ts';
import './types.ts';

export type RouteModule = (app: App, ctx: AppContext) => Promise<void> | void;

export interface BuildAppOptions {
  modules: RouteModule[];
  /** Folder of the built web app to serve at '/', if present. */
  webDist?: string;
  logger?: boolean | { level: string };
}

export async function buildApp(ctx: AppContext, opts: BuildAppOptions): Promise<App> {
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: true,
    bodyLimit: 20 * 1024 * 1024,
    // Long jobs (imports, exports) may run for minutes; the web client waits up to 300000 ms (spec §7).
    requestTimeout: 300_000,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(fastifyCookie);
  await registerSecurityHeaders(app);
  await app.register(fastifyWebsocket);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Carhere API',
        description:
          'Every response is the envelope {meta:{success,message,code},data}. Authenticated calls use the carhere_sid session cookie set by POST /api/login.',
        version: '0.1.0',
      },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'carhere_sid' } } },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.decorateRequest('user', null);
  app.decorateRequest('permissions', null as unknown as string[]);

  app.addHook('preHandler', async (req) => {
    if (!req.url.startsWith('/api/') || req.url.startsWith('/api/docs')) return;
    const cfg = req.routeOptions.config;
    req.user = await loadSession(ctx, req);
    req.permissions = req.user ? permissionsOf(req.user.role, ctx.config.appEnv) : [];
    if (cfg.public) return;
    if (!req.user) throw new SessionExpired();
    if (cfg.permission && !holdsPermission(req.permissions, cfg.permission)) {
      throw new ApiError(403, 'noPermissionAccount', 403);
    }
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = callerLang(req);
    if (err instanceof ApiError) {
      const message = err.code === 407 ? '407' : translate(err.key, lang, err.params);
      return reply.status(err.status).send(fail(err.code, message));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field = String(first?.instancePath || first?.params?.missingProperty || '').replace(/^\//, '') || 'body';
      return reply.status(400).send(fail(400, translate('invalidParam', lang, { field }), err.validation));
    }
    if (err.statusCode && err.statusCode < 500) {
      return reply.status(err.statusCode).send(fail(err.statusCode, err.message));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(fail(500, translate('serverBusy', lang)));
  });

  await app.register(
    async (api) => {
      const typed = api.withTypeProvider<ZodTypeProvider>();
      for (const mod of opts.modules) await mod(typed, ctx);
      typed.setNotFoundHandler((req, reply) => {
        reply.status(404).send(fail(404, translate('noData', callerLang(req))));
      });
    },
    { prefix: '/api' },
  );

  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  const webDist = opts.webDist;
  if (webDist && existsSync(join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: ['index.html'] });
    // The SPA owns every other path (client-side routing); unknown paths render its /notFound screen.
    app.setNotFoundHandler((req, reply) => {
      if (req.method !== 'GET' || req.url.startsWith('/api')) {
        return reply.status(404).send(fail(404, translate('noData', callerLang(req))));
      }
      return reply.type('text/html').sendFile('index.html');
    });
  } else {
    app.get('/', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('text/html')
        .send(
          '<!doctype html><html><body>Carhere API is running. The web app is not built: run <code>npm run build</code>.</body></html>',
        ),
    );
  }

  await app.ready();
  return app;
}
