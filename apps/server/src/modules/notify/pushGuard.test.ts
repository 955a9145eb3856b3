// The SSRF guard of the browser push channel: the endpoint a browser posts (and the server later POSTs the
// encrypted message to) must be a public http(s) address, like a webhook. By default (no NOTIFY_ALLOW_PRIVATE_PUSH)
// a subscription to a loopback, private or link-local address is refused with a localized 400, and a stored one
// (saved while its name resolved elsewhere, or before the guard) is refused at delivery: the local push service
// gets nothing. With the test setting open, the same local push service receives and decrypts the message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { type BrowserKeys, browserKeys, type PushService, startPushService } from './test-support.ts';
import { generateVapidKeys, sendWebPush } from './webpush.ts';

const WAIT = 60_000;

describe('push endpoint guard of the sender', () => {
  let keys: BrowserKeys;
  let push: PushService;
  beforeAll(async () => {
    keys = browserKeys();
    push = await startPushService(keys);
  });
  afterAll(async () => {
    await push?.close();
  });

  it('refuses a non-public endpoint unless private addresses are allowed', async () => {
    const vapid = generateVapidKeys();
    const port = new URL(push.url).port;
    const opts = { subject: 'mailto:t@carhere.invalid' };
    for (const endpoint of [push.url, `http://localhost:${port}/push/abc`, 'gopher://93.184.216.34/x']) {
      const r = await sendWebPush({ endpoint, p256dh: keys.p256dh, auth: keys.auth }, { title: 'x' }, vapid, opts);
      expect(r, endpoint).toMatchObject({ ok: false, refused: true });
      expect(r.answer, endpoint).toMatch(/^refused: /);
    }
    expect(push.pushes).toHaveLength(0);
    const allowed = await sendWebPush(
      { endpoint: push.url, p256dh: keys.p256dh, auth: keys.auth },
      { title: 'local push service' },
      vapid,
      { ...opts, allowPrivate: true },
    );
    expect(allowed).toMatchObject({ ok: true, status: 201 });
    expect(push.pushes.map((p) => p.message)).toEqual([{ title: 'local push service' }]);
  });
});

describe('push subscriptions without NOTIFY_ALLOW_PRIVATE_PUSH', () => {
  let server: TestServer;
  let keys: BrowserKeys;
  let push: PushService;
  let admin: ApiClient;

  beforeAll(async () => {
    keys = browserKeys();
    push = await startPushService(keys);
    server = await createTestServer({ allowPrivatePush: false });
    admin = await adminClient(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await push?.close();
  });

  const subscription = (endpoint: string) => ({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });

  it('refuses internal endpoints when a browser subscribes, with a localized message', async () => {
    const port = new URL(push.url).port;
    for (const endpoint of [
      push.url,
      `http://localhost:${port}/push/abc`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/push',
      'https://192.168.1.20/push',
      'http://[::1]/push',
      'http://[fd00::5]/push',
      'http://[::ffff:127.0.0.1]/push',
    ]) {
      const res = await admin.post('/notify/push/subscribe', subscription(endpoint));
      expect(res.status, endpoint).toBe(400);
      expect(res.meta.message, endpoint).toContain('push service address is refused');
    }
    admin.lang = 'fr';
    const fr = await admin.post('/notify/push/subscribe', subscription('http://172.16.3.4/push'));
    admin.lang = 'en';
    expect(fr.status).toBe(400);
    expect(fr.meta.message).toContain("L'adresse du service de notifications push est refusée");
    const pool = server.ctx.dbHandle.pool;
    expect((await pool.query('SELECT 1 FROM notify_push_subscriptions')).rowCount).toBe(0);
    // A public address literal is kept (never contacted here).
    const ok = await admin.post('/notify/push/subscribe', subscription('https://93.184.216.34/push/public'));
    expect(ok.status).toBe(200);
    await admin.post('/notify/push/unsubscribe', { endpoint: 'https://93.184.216.34/push/public' });
  });

  it('refuses at delivery a stored endpoint that now resolves to loopback, and a stored private literal', async () => {
    const port = new URL(push.url).port;
    const pool = server.ctx.dbHandle.pool;
    // As if they had been saved while the name resolved to a public address (or before the guard existed).
    for (const endpoint of [`http://localhost:${port}/push/rebound`, `http://127.0.0.1:${port}/push/literal`]) {
      await pool.query(
        'INSERT INTO notify_push_subscriptions (user_id, endpoint, p256dh, auth) VALUES (1, $1, $2, $3)',
        [endpoint, keys.p256dh, keys.auth],
      );
    }
    const rule = await admin.post<{ id: string }>('/notify/rules/add', {
      name: 'push guarded',
      events: ['offline'],
      channels: [{ type: 'push' }],
    });
    expect(rule.status).toBe(200);
    expect((await admin.post('/notify/rules/test', { id: rule.data.id })).status).toBe(200);
    const deadline = Date.now() + WAIT;
    let rows: { status: string; response: string }[] = [];
    while (Date.now() < deadline) {
      rows = (
        await pool.query<{ status: string; response: string }>(
          'SELECT status, response FROM notify_deliveries WHERE rule_id = $1',
          [rule.data.id],
        )
      ).rows;
      if (rows.length === 1 && (rows[0].status === 'failed' || rows[0].status === 'sent')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows.map((r) => r.status)).toEqual(['failed']);
    expect(rows[0].response).toMatch(/^push 0\/2: refused: .*not a public address, refused: .*not a public address/);
    expect(push.pushes).toHaveLength(0);
  });
});
