// Fastify setup: zod validation, OpenAPI, cookies, sessions, permission guard, envelope errors, the web app.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyError, type FastifyRequest, type FastifySchema } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';
import { AuditRecorder } from '../modules/audit/recorder.ts';
import { customTilesOrigin } from '../modules/map/tileProviders.ts';
import { httpSeconds, registry } from '../ops/metrics.ts';
import { holdsPermission, permissionsOf } from './access.ts';
import { fail } from './envelope.ts';
import { ApiError, SessionExpired } from './errors.ts';
import { callerLang, translate } from './i18n.ts';
import { findBadText } from './input.ts';
import { DEMO_ALLOWED_WRITES, isWriteOperation, operationName } from './operations.ts';
import { registerSecurityHeaders } from './securityHeaders.ts';
import { loadSession } from './session.ts';
import type { App } from './types.ts';
import './types.ts';

/**
 * A PostgreSQL data exception (SQLSTATE class 22: numeric or date/time out of range, invalid text representation,
 * untranslatable character …): the value came from the caller.
 */
function isDataException(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

export type RouteModule = (app: App, ctx: AppContext) => Promise<void> | void;

export interface BuildAppOptions {
  modules: RouteModule[];
  /** Folder of the built web app to serve at '/', if present. */
  webDist?: string;
  logger?: boolean | { level: string; hooks?: { logMethod: (...a: never[]) => void }; stream?: Writable };
  /** The text GET /metrics answers (default: this process's registry; a cluster primary adds its workers'). */
  metrics?: () => Promise<string>;
}

/** Constant-time comparison of two header values (hashed first, so lengths tell nothing). */
function sameToken(given: string, expected: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(given), h(expected));
}

export async function buildApp(ctx: AppContext, opts: BuildAppOptions): Promise<App> {
  const app = Fastify({
    // (hooks: the system log's pino hook; typed as the plain options to keep Fastify's HTTP/1 overload)
    logger: (opts.logger ?? false) as boolean | { level: string },
    // Only the configured reverse proxies may set the client address and protocol (X-Forwarded-For/-Proto);
    // with none configured those headers are ignored, so a client cannot spoof its address or https.
    trustProxy: ctx.config.trustProxy.length > 0 ? ctx.config.trustProxy : false,
    bodyLimit: 20 * 1024 * 1024,
    // Long jobs (imports, exports) may run for minutes; the web client waits up to 300000 ms (spec §7).
    requestTimeout: 300_000,
    // Every log line of a request carries its id (reqId): the caller's X-Request-Id when it is a short token
    // (a proxy's id follows the request through), else a fresh UUID. The response says which (X-Request-Id).
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // HTTP latency by route (the route's pattern, not the URL: ids do not multiply the series).
  app.addHook('onResponse', async (req, reply) => {
    httpSeconds.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(fastifyCookie);
  const tileOrigin = customTilesOrigin();
  await registerSecurityHeaders(app, tileOrigin ? [tileOrigin] : []);
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
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'carhere_sid' },
          // Test stations upload serial results with an API key (System → apiKey).
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  // The OpenAPI document says which operations are public (security: []) and which permissions the others need
  // (x-permissions, any one of them), so clients and tests know without reading the code.
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    // A public route may name its own scheme (the serial-result uploads take an API key); otherwise none.
    if (route.config?.public) route.schema = { security: [], ...route.schema };
    else if (route.config?.permission?.length) {
      const documented: FastifySchema & { 'x-permissions': string[] } = {
        ...route.schema,
        'x-permissions': route.config.permission,
      };
      route.schema = documented;
    }
  });

  app.decorateRequest('user', null);
  app.decorateRequest('permissions', null as unknown as string[]);

  // Authentication and the permission check run on request, before the body is parsed and validated: an
  // anonymous or unpermitted call learns nothing about a route's schema (401/407 or 403 whatever its body).
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') || req.url.startsWith('/api/docs')) return;
    const cfg = req.routeOptions.config;
    req.user = await loadSession(ctx, req);
    req.permissions = req.user ? permissionsOf(req.user.role, ctx.config.appEnv, req.user.grants) : [];
    if (cfg.public) return;
    if (!req.user) throw new SessionExpired();
    // "Try it out" sessions read only: the demo stays as the next visitor finds it (commands excepted).
    const operation = operationName(req.method, req.routeOptions.url ?? req.url);
    if (req.user.demo && isWriteOperation(operation) && !DEMO_ALLOWED_WRITES.has(operation)) {
      throw new ApiError(403, 'permission.noFeature', 403);
    }
    if (cfg.permission && !holdsPermission(req.permissions, cfg.permission)) {
      throw new ApiError(403, 'noPermissionAccount', 403);
    }
  });

  // Text the database cannot store (NUL) or encode (lone UTF-16 surrogates) is refused for every route at once,
  // naming the field, before any schema or handler sees it.
  app.addHook('preValidation', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    const bad = findBadText(req.query) ?? findBadText(req.body);
    if (bad !== null) throw new ApiError(400, 'invalidParam', 400, { field: bad });
  });

  // The audit log: every successful write through the API (http/operations.ts), with before/after.
  const audit = new AuditRecorder(ctx.db, (err) => app.log.error({ err }, 'audit log write failed'));
  ctx.services.audit = audit;
  const audited = (req: FastifyRequest): string | null => {
    if (!req.user || req.routeOptions.config.public || !req.routeOptions.url) return null;
    const operation = operationName(req.method, req.routeOptions.url);
    return isWriteOperation(operation) ? operation : null;
  };
  app.addHook('preHandler', async (req) => {
    const operation = audited(req);
    if (operation) await audit.before(req, operation);
  });
  app.addHook('preSerialization', async (req, _reply, payload) => {
    audit.noteAnswer(req, payload);
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    audit.after(req, reply);
  });
  app.addHook('onClose', async () => audit.flush());

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
    if (isDataException(err)) {
      // The database refused a value (out of range, unrepresentable): the caller's input, not our failure.
      req.log.warn({ err }, 'input refused by the database');
      return reply.status(400).send(fail(400, translate('http.badRequest', lang)));
    }
    if (err.statusCode && err.statusCode < 500) {
      return reply.status(err.statusCode).send(fail(err.statusCode, err.message));
    }
    req.log.error({ err }, 'unhandled error');
    ctx.services.systemLog?.write('error', `${req.method} ${req.url}: ${err.message}`, err.stack ?? '');
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

  // Prometheus scrapes this process here (text format). With METRICS_TOKEN set it asks for that bearer token;
  // without, keep the path on the internal network (the deployment guide's nginx does not pass it through).
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const token = ctx.config.metricsToken;
    if (token && !sameToken(String(req.headers.authorization ?? ''), `Bearer ${token}`)) {
      return reply.code(401).send(fail(401, translate('noPermissionAccount', callerLang(req))));
    }
    const text = await (opts.metrics ?? (() => registry.metrics()))();
    return reply.type(registry.contentType).send(text);
  });

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
