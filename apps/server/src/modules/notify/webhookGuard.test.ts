// The webhook SSRF guard: addresses a webhook may not reach, rules refused at save time with a localized 400 (the
// default, without NOTIFY_ALLOW_PRIVATE_WEBHOOKS), and a rule stored with a name that now resolves to loopback
// (DNS rebinding after the save) refused at delivery: the local receiver gets nothing. Also: `find` shows webhook
// secrets masked, and an update sending the mask back keeps the stored secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from './test-support.ts';
import { isRefusedAddress, webhookUrlProblem } from './webhookGuard.ts';

const SECRET = 'guard-secret-1';
const WAIT = 60_000;

describe('webhook address guard', () => {
  it('refuses loopback, private, link-local, unique-local, unspecified and multicast addresses', () => {
    for (const a of [
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '100.64.0.1',
      '::',
      '::1',
      'fe80::1',
      'fd00::1',
      'fc12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(isRefusedAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '2001:4860:4860::8888']) {
      expect(isRefusedAddress(a), a).toBe(false);
    }
  });

  it('checks the scheme and every address a name resolves to', async () => {
    expect(await webhookUrlProblem('ftp://example.com/x', false)).toMatch(/scheme/);
    expect(await webhookUrlProblem('file:///etc/passwd', false)).toMatch(/scheme/);
    expect(await webhookUrlProblem('http://localhost:8080/x', false)).toMatch(/not a public address/);
    expect(await webhookUrlProblem('http://[::1]/x', false)).toMatch(/not a public address/);
    expect(await webhookUrlProblem('http://93.184.216.34/x', false)).toBeNull();
    // The option opens private addresses, never other schemes.
    expect(await webhookUrlProblem('http://127.0.0.1:9/x', true)).toBeNull();
    expect(await webhookUrlProblem('gopher://127.0.0.1:9/x', true)).toMatch(/scheme/);
  });
});

describe('webhook rules without NOTIFY_ALLOW_PRIVATE_WEBHOOKS', () => {
  let server: TestServer;
  let hooks: WebhookReceiver;
  let admin: ApiClient;

  beforeAll(async () => {
    hooks = await startWebhookReceiver(SECRET);
    server = await createTestServer({ allowPrivateWebhooks: false });
    admin = await adminClient(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await hooks?.close();
  });

  const rule = (url: string) => ({
    name: 'guarded',
    events: ['alarm:1'],
    channels: [{ type: 'webhook', url, secret: SECRET }],
  });

  it('refuses internal addresses at add and update with a localized message', async () => {
    for (const url of [
      `${hooks.url}/direct`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/x',
      'http://[fd00::5]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0:80/x',
      'http://localhost/x',
    ]) {
      const res = await admin.post('/notify/rules/add', rule(url));
      expect(res.status, url).toBe(400);
      expect(res.meta.message, url).toContain('webhook address is refused');
    }
    admin.lang = 'fr';
    const fr = await admin.post('/notify/rules/add', rule('http://192.168.0.10/x'));
    admin.lang = 'en';
    expect(fr.status).toBe(400);
    expect(fr.meta.message).toContain("L'adresse du webhook est refusée");
    const inApp = await admin.post<{ id: string }>('/notify/rules/add', {
      name: 'in-app first',
      events: ['alarm:1'],
      channels: [{ type: 'inApp' }],
    });
    expect(inApp.status).toBe(200);
    const update = await admin.post('/notify/rules/update', {
      id: inApp.data.id,
      channels: [{ type: 'webhook', url: `${hooks.url}/update`, secret: SECRET }],
    });
    expect(update.status).toBe(400);
    expect(update.meta.message).toContain('webhook address is refused');
  });

  it('refuses at delivery a stored name that now resolves to loopback, and a stored private literal', async () => {
    const port = new URL(hooks.url).port;
    // As if the rule had been saved while these names resolved to public addresses.
    const pool = server.ctx.dbHandle.pool;
    const ids: string[] = [];
    for (const url of [`http://localhost:${port}/rebound`, `http://127.0.0.1:${port}/literal`]) {
      const row = await pool.query<{ id: string }>(
        `INSERT INTO notify_rules (user_id, name, events, channels) VALUES (1, 'stored', ARRAY['alarm:1'], $1)
         RETURNING id::text AS id`,
        [JSON.stringify([{ type: 'webhook', url, secret: SECRET }])],
      );
      ids.push(row.rows[0].id);
      expect((await admin.post('/notify/rules/test', { id: row.rows[0].id })).status).toBe(200);
    }
    const deadline = Date.now() + WAIT;
    let rows: { status: string; response: string }[] = [];
    while (Date.now() < deadline) {
      rows = (
        await pool.query<{ status: string; response: string }>(
          'SELECT status, response FROM notify_deliveries WHERE rule_id = ANY($1::bigint[])',
          [ids],
        )
      ).rows;
      if (rows.length === 2 && rows.every((r) => r.status === 'failed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed']);
    for (const r of rows) expect(r.response).toMatch(/^refused: .*not a public address/);
    expect(hooks.attempts).toHaveLength(0);
  });

  it('shows webhook secrets masked and keeps the stored one when the mask comes back', async () => {
    const pool = server.ctx.dbHandle.pool;
    const stored = async (id: string) =>
      (await pool.query<{ channels: { secret?: string }[] }>('SELECT channels FROM notify_rules WHERE id = $1', [id]))
        .rows[0].channels[1].secret;
    // A public address literal: accepted without asking DNS, never contacted here.
    const url = 'http://93.184.216.34/hook';
    const added = await admin.post<{ id: string }>('/notify/rules/add', {
      name: 'masked secret',
      events: ['alarm:1'],
      channels: [{ type: 'inApp' }, { type: 'webhook', url, secret: 'very-secret-7781' }],
    });
    expect(added.status).toBe(200);
    const found = await admin.post<{ list: { id: string; channels: { type: string; secret?: string }[] }[] }>(
      '/notify/rules/find',
      { name: 'masked secret' },
    );
    const shown = found.data.list.find((r) => r.id === added.data.id)!;
    expect(shown.channels[1].secret).toBe('********7781');
    expect(JSON.stringify(found.data)).not.toContain('very-secret');
    // The editor sends the mask back with another URL: the stored secret stays.
    const kept = await admin.post<{ channels: { secret?: string }[] }>('/notify/rules/update', {
      id: added.data.id,
      channels: [{ type: 'inApp' }, { type: 'webhook', url: 'http://93.184.216.35/hook', secret: '********7781' }],
    });
    expect(kept.status).toBe(200);
    expect(kept.data.channels[1].secret).toBe('********7781');
    expect(await stored(added.data.id)).toBe('very-secret-7781');
    // A new secret replaces it; a mask of no stored secret is refused.
    await admin.post('/notify/rules/update', {
      id: added.data.id,
      channels: [{ type: 'inApp' }, { type: 'webhook', url, secret: 'brand-new-secret' }],
    });
    expect(await stored(added.data.id)).toBe('brand-new-secret');
    const wrong = await admin.post('/notify/rules/update', {
      id: added.data.id,
      channels: [{ type: 'inApp' }, { type: 'webhook', url, secret: '********0000' }],
    });
    expect(wrong.status).toBe(400);
    expect(await stored(added.data.id)).toBe('brand-new-secret');
  });
});
