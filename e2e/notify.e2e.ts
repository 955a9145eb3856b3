// Notification rules in Chromium (issue 18), against `npm start` with a real SMTP server and a webhook receiver
// that checks signatures: the admin adds a rule on the notifications screen (e-mail + webhook), "send test"
// reaches both receivers and the delivery log shows them sent with the receiver's answer; then an SOS from a
// simulated GT06 tracker over TCP produces one e-mail and one webhook.
import type { SimulatedDevice } from '@carhere/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SmtpReceiver,
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
});
