// GET /api/ws — live positions, states, alarms and command changes for the logged-in user's devices.
// The session cookie authenticates the upgrade (the shared preHandler answers 401 / "407" without one);
// the session is re-checked every minute and the socket closed once it has ended (logout, expiry). A page of
// another origin is refused before anything else (http/origin.ts).
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { isAllowedOrigin } from '../../http/origin.ts';
import { loadSession } from '../../http/session.ts';
import type { App } from '../../http/types.ts';
import { watchLiveHub } from '../../ops/metrics.ts';
import { LiveCatchUp } from './catch-up.ts';
import { LiveHub } from './hub.ts';

const RECHECK_MS = 60_000;
/** The catch-up's second read: after the gateway's coalesced state writes (250 ms by default) have landed. */
const CATCH_UP_SECOND_PASS_MS = 1000;

declare module '../../context.ts' {
  interface AppServices {
    live: LiveHub;
  }
}

export async function liveRoutes(app: App, ctx: AppContext): Promise<void> {
  const hub = new LiveHub(ctx.bus);
  ctx.services.live = hub;
  const unwatch = watchLiveHub(hub);
  // After a bus outage, browsers get the latest state of every device that changed meanwhile (catch-up.ts).
  const catchUp = new LiveCatchUp(
    ctx.dbHandle.pool,
    (envelope) => hub.dispatch(envelope),
    CATCH_UP_SECOND_PASS_MS,
    (err) => app.log.warn({ err }, 'live catch-up after a bus outage failed'),
  );
  const unresume = ctx.bus.onResume((downSince) => {
    if (hub.size > 0) catchUp.resume(downSince);
  });
  app.addHook('onClose', async () => {
    unresume();
    catchUp.stop();
    unwatch();
    hub.close();
  });

  const allowed = ctx.config.allowedOrigins;
  const onRequest = async (req: { headers: Record<string, string | string[] | undefined>; host: string }) => {
    const origin = req.headers.origin;
    const ok = isAllowedOrigin(
      {
        origin: Array.isArray(origin) ? origin.join(',') : origin,
        hosts: [req.headers.host as string | undefined, req.host],
      },
      allowed,
    );
    if (!ok) throw new ApiError(403, 'noPermissionAccount', 403);
  };

  app.get('/ws', { websocket: true, schema: { hide: true }, onRequest }, (socket, req) => {
    const user = req.user;
    if (!user) {
      socket.close(4407, '407');
      return;
    }
    hub.add({ user: { id: user.id, role: user.role, path: user.path }, socket, watch: null });
    const timer = setInterval(async () => {
      try {
        const current = await loadSession(ctx, req);
        if (!current) socket.close(4407, '407');
      } catch {
        // database hiccup: keep the socket, try again next time
      }
    }, RECHECK_MS);
    timer.unref();
    socket.on('close', () => clearInterval(timer));
  });
}
