// Subscription settings (setting/subscribe): NB-IoT / CCS platform settings edited on the screen, secrets sealed
// at rest and never sent back, the callbacks using the stored token and notifyType list, the gateway's downlink
// reconfigured, "test connection" against a platform on loopback (login accepted and refused), environment
// variables winning over stored values, permissions and bad input.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';
import { SUBSCRIBE_KEY } from './settings.ts';

interface View {
  values: Record<string, string>;
  secrets: Record<string, boolean>;
  fromEnv: string[];
  notifyTypes: string[];
}

describe('subscription settings', () => {
  let server: GatewayTestServer;
  let staff: ApiClient;
  let platform: Server;
  let base: string;
  const logins: string[] = [];

  beforeAll(async () => {
    server = await createGatewayTestServer({}, { nbCallbackToken: undefined });
    staff = await userClient(server, 'sub-test', 5);
    platform = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (req.url?.startsWith('/login')) {
          const form = new URLSearchParams(body);
          logins.push(`${form.get('appId')}:${form.get('secret')}`);
          if (form.get('secret') === 'right-secret') {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ accessToken: 'tok', expiresIn: 3600 }));
          } else res.writeHead(401).end('{"error":"bad credentials"}');
          return;
        }
        res.writeHead(req.headers.authorization === 'Bearer fixed' ? 405 : 401).end();
      });
    });
    await new Promise<void>((r) => platform.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    platform.close();
    await server.close();
  });

  it('stores the settings with sealed secrets, shows secrets only as set, and the callbacks and downlink use them', async () => {
    const nbId = `nb-${newTerminalId('gt06')}`;
    await addDevice(server, newTerminalId('gt06'), 'gt06', { nbDeviceId: nbId, deviceType: 11 });
    const pushData = (notifyType: string, token: string) =>
      server.app.inject({
        method: 'POST',
        url: `/api/ccs/subscribe?token=${token}`,
        payload: { notifyType, deviceId: nbId, service: { data: { latitude: 22.5, longitude: 114.1 } } },
      });
    // Nothing stored, nothing in the environment: callbacks closed.
    expect((await pushData('deviceDataChanged', 'x')).statusCode).toBe(403);

    const saved = await staff.post<View>('/setting/subscribe/save', {
      callbackToken: 'cb-token-secret',
      commandUrl: `${base}/iocm/app/cmd/v1.4.0/deviceCommands`,
      authUrl: `${base}/login`,
      appId: 'app-1',
      appSecret: 'right-secret',
      notifyTypes: ['customData', 'deviceDataChanged'],
    });
    expect(saved.status).toBe(200);
    expect(saved.data.secrets).toMatchObject({ callbackToken: true, appSecret: true, accessToken: false });
    expect(saved.data.values).toMatchObject({
      appId: 'app-1',
      commandUrl: `${base}/iocm/app/cmd/v1.4.0/deviceCommands`,
    });
    expect(saved.data.notifyTypes).toEqual(['customData', 'deviceDataChanged']);
    const shown = JSON.stringify((await staff.post<View>('/setting/subscribe/find')).data);
    expect(shown).not.toContain('cb-token-secret');
    expect(shown).not.toContain('right-secret');
    // At rest: sealed.
    const row = await server.ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', SUBSCRIBE_KEY)
      .executeTakeFirstOrThrow();
    const raw = JSON.stringify(row.value);
    expect(raw).not.toContain('cb-token-secret');
    expect(raw).not.toContain('right-secret');
    expect(raw).toContain('app-1');

    // The callbacks take the stored token and the notifyType list.
    expect((await pushData('customData', 'wrong')).statusCode).toBe(403);
    const stored = await pushData('customData', 'cb-token-secret');
    expect(stored.json().data).toEqual({ accepted: true, stored: 1, alarms: 0 });
    const ignored = await pushData('dataReport', 'cb-token-secret');
    expect(ignored.json().data).toEqual({ accepted: true, stored: 0, alarms: 0 });
    // The gateway's downlink now talks to the saved platform.
    await waitFor(() => server.gateway.nb.options?.commandUrl === `${base}/iocm/app/cmd/v1.4.0/deviceCommands`);
    expect(server.gateway.nb.options).toMatchObject({ appId: 'app-1', appSecret: 'right-secret' });

    // Test connection: the login is accepted; with a wrong secret it is refused.
    const good = await staff.post<{ ok: boolean; status: number; detail: string }>('/setting/subscribe/test');
    expect(good.data).toMatchObject({ ok: true, status: 200 });
    expect(logins.at(-1)).toBe('app-1:right-secret');
    await staff.post('/setting/subscribe/save', { appSecret: 'wrong-secret' });
    const bad = await staff.post<{ ok: boolean; status: number }>('/setting/subscribe/test');
    expect(bad.data).toMatchObject({ ok: false, status: 401 });
    // A fixed token instead: the command URL is tried with it.
    await staff.post('/setting/subscribe/save', { accessToken: 'fixed', appId: '', appSecret: null, authUrl: '' });
    const fixed = await staff.post<{ ok: boolean; status: number }>('/setting/subscribe/test');
    expect(fixed.data).toMatchObject({ ok: true, status: 405 });
    // A secret left out is kept; null clears it.
    const kept = await staff.post<View>('/setting/subscribe/save', { serviceId: 'Cmd' });
    expect(kept.data.secrets).toMatchObject({ callbackToken: true, accessToken: true, appSecret: false });
    const cleared = await staff.post<View>('/setting/subscribe/save', { callbackToken: null });
    expect(cleared.data.secrets.callbackToken).toBe(false);
    expect((await pushData('customData', 'cb-token-secret')).statusCode).toBe(403);
  });

  it('environment variables win: shown as held, not editable here', async () => {
    const saved = process.env.NB_NOTIFY_TYPES;
    process.env.NB_NOTIFY_TYPES = 'envType';
    try {
      const view = await staff.post<View>('/setting/subscribe/find');
      expect(view.data.fromEnv).toContain('notifyTypes');
      expect(view.data.notifyTypes).toEqual(['envType']);
      expect((await staff.post('/setting/subscribe/save', { notifyTypes: ['x'] })).status).toBe(400);
    } finally {
      if (saved === undefined) delete process.env.NB_NOTIFY_TYPES;
      else process.env.NB_NOTIFY_TYPES = saved;
    }
  });

  it('is for the roles with factory:subscribe; bad input is refused', async () => {
    for (const role of [6, 7, 8, 11]) {
      const c = await userClient(server, `sub-r${role}`, role);
      expect((await c.post('/setting/subscribe/find')).status).toBe(403);
      expect((await c.post('/setting/subscribe/save', { serviceId: 'x' })).status).toBe(403);
      expect((await c.post('/setting/subscribe/test')).status).toBe(403);
    }
    for (const bad of [
      { commandUrl: 'ftp://platform/cmd' },
      { encoding: 'binary' },
      { notifyTypes: ['has space'] },
      // appId without its secret (and no fixed token)
      { commandUrl: `${base}/cmd`, accessToken: null, appId: 'lonely', appSecret: null },
    ]) {
      expect((await staff.post('/setting/subscribe/save', bad)).status, JSON.stringify(bad)).toBe(400);
    }
  });
});
