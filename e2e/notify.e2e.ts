// Notification rules in Chromium (issue 18), against `npm start` with a real SMTP server and a webhook receiver
// that checks signatures: the admin adds a rule on the notifications screen (e-mail + webhook), "send test"
// reaches both receivers and the delivery log shows them sent with the receiver's answer; then an SOS from a
// simulated GT06 tracker over TCP produces one e-mail and one webhook. A rule for a chosen device type (picked from
// the device-type catalogue on the editor) is listed with that type and applies to that type only. Browser push:
// headless Chromium cannot subscribe offline (pushManager.subscribe answers "permission denied" in a browser
// context without a profile, and waits for Google's push registration with one), so a local push service stands in
// for the browser's (NOTIFY_ALLOW_PRIVATE_PUSH=1): it decrypts what the server sent (RFC 8291) and the decrypted
// message is handed to the app's service worker through CDP (ServiceWorker.deliverPushMessage), which must show it.
import type { SimulatedDevice } from '@carhere/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserKeys,
  type SmtpReceiver,
  startPushService,
  startSmtpReceiver,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../apps/server/src/modules/notify/test-support.ts';
import {
  adminWithTracker,
  apiPost,
  launchBrowser,
  type RunningPlatform,
  screenshot,
  startPlatform,
} from './harness.ts';

const IMEI = '868120000181001';
const SECRET = 'e2e-hook-secret';
const WAIT = 60_000;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('notification rules in Chromium', () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let smtp: SmtpReceiver;
  let hooks: WebhookReceiver;
  let page: Page;
  let tracker: SimulatedDevice;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    hooks = await startWebhookReceiver(SECRET);
    platform = await startPlatform({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'alerts@carhere.test',
      NOTIFY_ALLOW_PRIVATE_WEBHOOKS: '1',
      // The push service standing in for the browser's listens on 127.0.0.1.
      NOTIFY_ALLOW_PRIVATE_PUSH: '1',
    });
    browser = await launchBrowser();
    ({ page, tracker } = await adminWithTracker(platform, browser, IMEI));
  }, 240_000);
  afterAll(async () => {
    tracker?.stop();
    await browser?.close();
    await platform?.stop();
    await hooks?.close();
    await smtp?.close();
  });

  it('adds a rule, sends a test through e-mail and webhook, and shows the delivery log', async () => {
    await page.goto(`${platform.baseUrl}/index/notify`);
    await page.getByTestId('rule-add').click();
    const editor = page.getByTestId('rule-editor');
    await editor.waitFor();
    await page.getByTestId('rule-name').fill('SOS to the office');
    const emails = page.getByTestId('rule-emails').locator('input');
    await emails.fill('office@example.test');
    await emails.press('Enter');
    await page.getByTestId('rule-webhook-url').fill(`${hooks.url}/e2e`);
    await page.getByTestId('rule-webhook-secret').fill(SECRET);
    await page.getByTestId('rule-save').click();
    await editor.waitFor({ state: 'detached' });
    const row = page.locator('tr', { hasText: 'SOS to the office' });
    await row.waitFor();
    await row.getByRole('button', { name: /send test|发送测试/i }).click();
    await until(() => hooks.hooks.some((h) => h.path === '/e2e'), 'the test webhook');
    await until(() => smtp.mails.some((m) => m.to.includes('office@example.test')), 'the test e-mail');
    expect(hooks.hooks[0].signatureValid).toBe(true);
    expect(hooks.hooks[0].body.event).toBe('test');
    await page.getByRole('tab', { name: /delivery log|发送记录/i }).click();
    const log = page.getByTestId('notify-log');
    await log.getByTestId('delivery-status').nth(1).waitFor({ timeout: WAIT });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="delivery-answer"]')].some((e) =>
          e.textContent?.includes('HTTP 200 thanks'),
        ),
      undefined,
      { timeout: WAIT },
    );
    await screenshot(page, 'notify-delivery-log');
  });

  it('an SOS from the simulated tracker produces one e-mail and one webhook', async () => {
    const mailsBefore = smtp.mails.length;
    const hooksBefore = hooks.hooks.length;
    tracker.sendFix(
      {
        time: Date.now() - 2000,
        lat: 39.915,
        lon: 116.404,
        speed: 20,
        course: 0,
        altitude: 40,
        satellites: 9,
        mileage: 0,
        acc: true,
        battery: 90,
      },
      'sos',
    );
    await until(() => hooks.hooks.slice(hooksBefore).some((h) => h.body.event === 'alarm:1'), 'the SOS webhook');
    await until(() => smtp.mails.length > mailsBefore, 'the SOS e-mail');
    const sos = hooks.hooks.slice(hooksBefore).filter((h) => h.body.event === 'alarm:1');
    expect(sos).toHaveLength(1);
    expect(sos[0].body).toMatchObject({ terminalID: IMEI, alarmCode: 1 });
    expect(smtp.mails.slice(mailsBefore)).toHaveLength(1);
  });

  it('the editor shows the webhook secret masked; saved unchanged, the stored secret still signs', async () => {
    await page.goto(`${platform.baseUrl}/index/notify`);
    const row = page.locator('tr', { hasText: 'SOS to the office' });
    await row.getByRole('button', { name: /edit rule/i }).click();
    const masked = page.getByTestId('rule-webhook-secret-masked');
    await masked.waitFor();
    expect(await masked.inputValue()).toBe(`********${SECRET.slice(-4)}`);
    await expect(page.getByTestId('rule-webhook-secret').count()).resolves.toBe(0);
    await page.getByTestId('rule-save').click();
    await page.getByTestId('rule-editor').waitFor({ state: 'detached' });
    const before = hooks.hooks.length;
    await row.getByRole('button', { name: /send test|发送测试/i }).click();
    await until(() => hooks.hooks.slice(before).some((h) => h.path === '/e2e'), 'the test webhook after the edit');
    expect(hooks.hooks.slice(before).every((h) => h.signatureValid)).toBe(true);
  });

  it('an in-app rule pops a non-alarm notification up on the monitor page', async () => {
    const added = await apiPost<{ id: string }>(page, '/notify/rules/add', {
      name: 'In the browser',
      events: ['online', 'ignition.off'],
      channels: [{ type: 'inApp' }],
    });
    expect(added.meta.success).toBe(true);
    await page.goto(`${platform.baseUrl}/index/home`);
    await page.locator('[data-testid="live-status"][data-status="open"]').waitFor({ timeout: WAIT });
    await apiPost(page, '/notify/rules/test', { id: added.data.id });
    const popup = page.getByTestId('notify-popup').first();
    await popup.waitFor({ timeout: WAIT });
    expect(await popup.getAttribute('data-event')).toBe('test');
    const notice = page.locator('.ant-notification-notice', { has: popup });
    expect(await notice.textContent()).toContain('Test notification');
    await screenshot(page, 'notify-in-app');
  });

  it('a rule for a device type chosen on the editor is listed with it and applies to that type only', async () => {
    const types = await apiPost<Record<string, { deviceType: number; name: string }>>(page, '/deviceType/findAll', {});
    // The tracker is of type 12 (adminWithTracker); another type of the catalogue for the rule that must stay silent.
    const mine = types.data['12'];
    const other = Object.values(types.data).find((d) => d.deviceType !== 12)!;
    expect(mine).toBeDefined();
    await page.goto(`${platform.baseUrl}/index/notify`);
    // Names and paths of this attempt (the browser suite runs a failed test once more).
    const run = Date.now().toString(36);
    const rules = [
      [`By my type ${run}`, mine, `/by-type-${run}`],
      [`By another type ${run}`, other, `/other-type-${run}`],
    ] as const;
    for (const [name, type, path] of rules) {
      await page.getByTestId('rule-add').click();
      const editor = page.getByTestId('rule-editor');
      await editor.waitFor();
      await page.getByTestId('rule-name').fill(name);
      const select = page.getByTestId('rule-device-types');
      await select.click();
      await select.locator('input').fill(`${type.deviceType} ${type.name}`);
      await page.keyboard.press('Enter');
      await select.locator('.ant-select-selection-item', { hasText: `${type.deviceType} ${type.name}` }).waitFor();
      await page.getByTestId('rule-webhook-url').fill(`${hooks.url}${path}`);
      await page.getByTestId('rule-webhook-secret').fill(SECRET);
      await page.getByTestId('rule-save').click();
      await editor.waitFor({ state: 'detached' });
      const row = page.locator('tr', { hasText: name });
      await row.waitFor();
      expect(await row.getByTestId('rule-device-types-cell').textContent()).toBe(type.name);
    }
    const found = await apiPost<{ list: { name: string; deviceTypes: string[] | null }[] }>(
      page,
      '/notify/rules/find',
      { name: run },
    );
    expect(Object.fromEntries(found.data.list.map((r) => [r.name, r.deviceTypes]))).toEqual({
      [rules[0][0]]: ['12'],
      [rules[1][0]]: [String(other.deviceType)],
    });
    await screenshot(page, 'notify-device-types');
    const officeBefore = hooks.hooks.filter((h) => h.path === '/e2e' && h.body.event === 'alarm:1').length;
    tracker.sendFix(
      {
        time: Date.now() - 1000,
        lat: 39.916,
        lon: 116.405,
        speed: 20,
        course: 0,
        altitude: 40,
        satellites: 9,
        mileage: 0,
        acc: true,
        battery: 90,
      },
      'sos',
    );
    await until(() => hooks.hooks.some((h) => h.path === rules[0][2]), 'the webhook of the device-type rule');
    // The office rule (every device) saw the same SOS: every rule has been matched by then.
    await until(
      () => hooks.hooks.filter((h) => h.path === '/e2e' && h.body.event === 'alarm:1').length > officeBefore,
      'the SOS webhook of the office rule',
    );
    expect(hooks.hooks.filter((h) => h.path === rules[0][2]).map((h) => h.body.terminalID)).toEqual([IMEI]);
    expect(hooks.hooks.filter((h) => h.path === rules[1][2])).toHaveLength(0);
  });

  it('the service worker shows the push message the server sent, as decrypted at the push service', async () => {
    const keys = browserKeys();
    const push = await startPushService(keys);
    try {
      const context = page.context();
      await context.grantPermissions(['notifications'], { origin: platform.baseUrl });
      await page.goto(`${platform.baseUrl}/index/notify`);
      await page.evaluate(async () => {
        await navigator.serviceWorker.register('/notify-sw.js');
        await navigator.serviceWorker.ready;
      });
      const sub = await apiPost(page, '/notify/push/subscribe', {
        endpoint: push.url,
        keys: { p256dh: keys.p256dh, auth: keys.auth },
      });
      expect(sub.meta.success).toBe(true);
      const rule = await apiPost<{ id: string }>(page, '/notify/rules/add', {
        name: 'Push to this browser',
        events: ['offline'],
        channels: [{ type: 'push' }],
      });
      await apiPost(page, '/notify/rules/test', { id: rule.data.id });
      await until(() => push.pushes.length > 0, 'the push message at the push service');
      const [received] = push.pushes;
      expect(received.vapidValid).toBe(true);
      expect(received.headers['content-encoding']).toBe('aes128gcm');
      expect(typeof received.message.title).toBe('string');
      const cdp = await context.newCDPSession(page);
      const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
      await cdp.send('ServiceWorker.enable');
      await until(
        () => registrations.some((r) => r.scopeURL === `${platform.baseUrl}/` && !r.isDeleted),
        'the service worker registration',
      );
      const registration = registrations.find((r) => r.scopeURL === `${platform.baseUrl}/` && !r.isDeleted)!;
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: `${platform.baseUrl}/`,
        registrationId: registration.registrationId,
        data: JSON.stringify(received.message),
      });
      // By the message's tag (its delivery id): a notification of an earlier attempt may still be shown.
      const shown = await page.waitForFunction(
        async (tag) => {
          const r = await navigator.serviceWorker.ready;
          const list = await r.getNotifications({ tag });
          return list.length > 0 ? list.map((n) => ({ title: n.title, body: n.body, tag: n.tag })) : null;
        },
        String(received.message.id),
        { timeout: WAIT },
      );
      expect(await shown.jsonValue()).toEqual([
        { title: received.message.title, body: received.message.body, tag: received.message.id },
      ]);
      await cdp.detach();
      await apiPost(page, '/notify/push/unsubscribe', { endpoint: push.url });
    } finally {
      await push.close();
    }
  });
});
