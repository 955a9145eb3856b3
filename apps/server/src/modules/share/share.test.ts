// Share links: made by a device's user, opened anonymously, updated as the device reports (real OsmAnd HTTP
// fixes through the gateway), revocable, expiring, and opening nothing but that one device's position.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import { ApiClient } from '../../testing/harness.ts';

interface View {
  state: 'active' | 'expired' | 'revoked';
  expiresAt: string;
  device: { name: string; online: boolean; position: { lat: number; lon: number; time: string } | null } | null;
}

describe('share links', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;
  let stranger: ApiClient;
  let phoneUrl: string;
  const tid = `share${String(process.pid).padStart(8, '0').slice(-8)}`;
  const otherTid = `shareo${String(process.pid).padStart(8, '0').slice(-8)}`;

  beforeAll(async () => {
    server = await createGatewayTestServer();
    phoneUrl = `http://127.0.0.1:${server.gateway.ports.osmand}`;
    const id = await addDevice(server, tid, 'gt06');
    await server.ctx.db.updateTable('devices').set({ nickname: 'Delivery van 7' }).where('id', '=', id).execute();
    await addDevice(server, otherTid, 'gt06', { userId: '1' });
    demo = await demoClient(server);
    stranger = await userClient(server, `sharestranger${process.pid}`, 3);
  });
  afterAll(async () => {
    await server.close();
  });

  const anonymousView = async (token: string) => {
    const res = await server.app.inject({ method: 'GET', url: `/api/share/view/${token}` });
    return { status: res.statusCode, body: res.json() as { meta: { code: number }; data: View }, headers: res.headers };
  };

  const fix = async (lat: number, lon: number, secondsAgo: number) => {
    const ts = Math.floor(Date.now() / 1000) - secondsAgo;
    const res = await fetch(`${phoneUrl}/?id=${tid}&lat=${lat}&lon=${lon}&timestamp=${ts}&speed=5`, { method: 'POST' });
    expect(res.status).toBe(200);
  };

  it('shares a device anonymously, and the page follows its new positions', async () => {
    const made = await demo.post<{ token: string; path: string; expiresAt: string }>('/share/add', {
      terminalID: tid,
      hours: 2,
    });
    expect(made.meta.success).toBe(true);
    expect(made.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.data.path).toBe(`/share/${made.data.token}`);
    const first = await anonymousView(made.data.token);
    expect(first.status).toBe(200);
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.body.data).toMatchObject({ state: 'active', device: { name: 'Delivery van 7', position: null } });

    await fix(31.2304, 121.4737, 60);
    const seen = await waitFor(
      async () => (await anonymousView(made.data.token)).body.data.device?.position,
      20_000,
      'first position',
    );
    expect(seen).toMatchObject({ lat: 31.2304, lon: 121.4737 });
    await fix(31.24, 121.48, 30);
    const moved = await waitFor(
      async () => {
        const p = (await anonymousView(made.data.token)).body.data.device?.position;
        return p && p.lat === 31.24 ? p : null;
      },
      20_000,
      'moved position',
    );
    expect(moved.lon).toBe(121.48);
    // The answer names no IMEI, owner or anything else of the account.
    expect(JSON.stringify((await anonymousView(made.data.token)).body.data)).not.toContain(tid);
  });

  it('opens nothing else with the token', async () => {
    const { data } = await demo.post<{ token: string }>('/share/add', { terminalID: tid, hours: 1 });
    // The token is no session: as a cookie, a header or a query it reaches no other endpoint or device.
    for (const headers of [
      { cookie: `carhere_sid=${data.token}` },
      { authorization: `Bearer ${data.token}` },
      { 'x-share-token': data.token },
    ]) {
      const res = await server.app.inject({
        method: 'POST',
        url: `/api/location/find?token=${data.token}`,
        headers,
        payload: { terminalIDs: [otherTid] },
      });
      expect(res.statusCode).toBe(401);
      const track = await server.app.inject({
        method: 'POST',
        url: '/api/share/find',
        headers,
        payload: { terminalID: tid },
      });
      expect(track.statusCode).toBe(401);
    }
    // The view takes no device parameter: asking for another device still answers the shared one.
    const res = await server.app.inject({ method: 'GET', url: `/api/share/view/${data.token}?terminalID=${otherTid}` });
    expect(res.json().data.device.name).toBe('Delivery van 7');
    // Neighbouring paths are not the view.
    const sub = await server.app.inject({ method: 'GET', url: `/api/share/view/${data.token}/../../location/find` });
    expect(sub.statusCode).not.toBe(200);
  });

  it('answers unknown and malformed tokens without data', async () => {
    const unknown = await anonymousView('A'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.body.data ?? null).toBeNull();
    expect((await anonymousView('short')).status).toBe(400);
  });

  it('revokes a link at once; its page then says so and shows nothing', async () => {
    const { data } = await demo.post<{ id: string; token: string }>('/share/add', { terminalID: tid, hours: 24 });
    expect((await stranger.post('/share/revoke', { id: data.id })).status).toBe(403);
    expect((await anonymousView(data.token)).body.data.state).toBe('active');
    const revoked = await demo.post('/share/revoke', { id: data.id });
    expect(revoked.meta.success).toBe(true);
    const view = await anonymousView(data.token);
    expect(view.body.data).toMatchObject({ state: 'revoked', device: null });
  });

  it('expires, and a device transferred away ends its links', async () => {
    const a = await demo.post<{ id: string; token: string }>('/share/add', { terminalID: tid, hours: 1 });
    await server.ctx.db
      .updateTable('share_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', a.data.id)
      .execute();
    expect((await anonymousView(a.data.token)).body.data).toMatchObject({ state: 'expired', device: null });

    const otherOwned = `sharet${String(process.pid).padStart(8, '0').slice(-8)}`;
    const id = await addDevice(server, otherOwned, 'gt06');
    const b = await demo.post<{ token: string }>('/share/add', { terminalID: otherOwned, hours: 1 });
    expect((await anonymousView(b.data.token)).body.data.state).toBe('active');
    await server.ctx.db.updateTable('devices').set({ user_id: '1' }).where('id', '=', id).execute();
    expect((await anonymousView(b.data.token)).body.data).toMatchObject({ state: 'revoked', device: null });
  });

  it('lists a device’s links with who made them', async () => {
    const list = await demo.post<{ createdBy: string; state: string; expiresAt: string }[]>('/share/find', {
      terminalID: tid,
    });
    expect(list.meta.success).toBe(true);
    expect(list.data.length).toBeGreaterThanOrEqual(4);
    expect(list.data.every((l) => l.createdBy === 'demo')).toBe(true);
    expect(new Set(list.data.map((l) => l.state))).toEqual(new Set(['active', 'revoked', 'expired']));
  });

  it('checks permission, hierarchy and input', async () => {
    const anonymous = new ApiClient(server);
    expect((await anonymous.post('/share/add', { terminalID: tid, hours: 1 })).status).toBe(401);
    expect((await stranger.post('/share/add', { terminalID: tid, hours: 1 })).status).toBe(403);
    expect((await stranger.post('/share/find', { terminalID: tid })).status).toBe(403);
    expect((await demo.post('/share/add', { terminalID: otherTid, hours: 1 })).status).toBe(403);
    expect((await demo.post('/share/add', { terminalID: tid, hours: 0 })).status).toBe(400);
    expect((await demo.post('/share/add', { terminalID: tid, hours: 169 })).status).toBe(400);
    expect((await demo.post('/share/add', { terminalID: tid })).status).toBe(400);
    // A read-only "try it out" session cannot make links.
    const tryIt = new ApiClient(server);
    await tryIt.post('/login/demo');
    expect((await tryIt.post('/share/add', { terminalID: tid, hours: 1 })).meta.success).toBe(false);
  });
});
