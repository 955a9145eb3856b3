// Scheduled reports: a daily mileage report goes to a real SMTP server as an .xlsx attachment for yesterday in
// the owner's time zone, once per period; the list shows the last send; permission, hierarchy and input checks.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../notify/test-support.ts';

/** The base64 body of the first attachment of a raw MIME message. */
function attachmentOf(raw: string): { filename: string; data: Buffer } {
  const m = /Content-Disposition: attachment;\s*filename="?([^"\r\n]+)"?[\s\S]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(
    raw,
  );
  if (!m) throw new Error('no attachment');
  return { filename: m[1], data: Buffer.from(m[2].replace(/\s/g, ''), 'base64') };
}

describe('scheduled reports', () => {
  let server: TestServer;
  let smtp: SmtpReceiver;
  let admin: ApiClient;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await createTestServer({ smtpUrl: smtp.url, mailFrom: 'reports@carhere.test' });
    admin = await adminClient(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('mails yesterday’s mileage as .xlsx once, and lists the send', async () => {
    await server.ctx.dbHandle.pool.query(`UPDATE users SET time_zone = 'America/New_York' WHERE id = 1`);
    const added = await admin.post<{ id: string }>('/reportSchedule/add', {
      name: 'Daily mileage',
      kind: 'findAllMileage',
      params: { children: true },
      frequency: 'daily',
      emails: ['boss@example.test'],
    });
    expect(added.status).toBe(200);
    const first = await admin.post<{ status: string }>('/reportSchedule/sendNow', { id: added.data.id });
    expect(first.data.status).toBe('sent');
    expect((await admin.post<{ status: string }>('/reportSchedule/sendNow', { id: added.data.id })).data.status).toBe(
      'alreadySent',
    );
    const mails = smtp.mails.filter((m) => m.to.includes('boss@example.test'));
    expect(mails).toHaveLength(1);
    // Yesterday in New York.
    const ny = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(Date.now() - 0);
    const y = new Date(`${ny}T12:00:00Z`);
    y.setUTCDate(y.getUTCDate() - 1);
    const yesterday = y.toISOString().slice(0, 10);
    const file = attachmentOf(mails[0].raw);
    expect(file.filename).toBe(`Daily mileage-${yesterday}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.data as unknown as ArrayBuffer);
    expect(book.worksheets[0].getRow(1).cellCount).toBeGreaterThan(3);
    const list = await admin.post<{ list: { id: string; lastSend: { periodStart: string; status: string } | null }[] }>(
      '/reportSchedule/find',
      {},
    );
    expect(list.data.list.find((s) => s.id === added.data.id)?.lastSend).toMatchObject({
      periodStart: yesterday,
      status: 'sent',
    });
    const sends = await admin.post<{ total: number }>('/reportSchedule/sends', { scheduleId: added.data.id });
    expect(sends.data.total).toBe(1);
  });

  it('checks input, permission and hierarchy', async () => {
    const base = { name: 'r', kind: 'findAllMileage', params: {}, frequency: 'weekly', emails: ['a@example.test'] };
    expect((await admin.post('/reportSchedule/add', { ...base, kind: 'battery' })).status).toBe(400);
    expect((await admin.post('/reportSchedule/add', { ...base, frequency: 'hourly' })).status).toBe(400);
    expect((await admin.post('/reportSchedule/add', { ...base, emails: [] })).status).toBe(400);
    // Stays need devices, like the stays report.
    expect((await admin.post('/reportSchedule/add', { ...base, kind: 'stays' })).status).toBe(400);
    const agentA = await userClient(server, `rs-agentA-${process.pid}`, 2);
    const agentB = await userClient(server, `rs-agentB-${process.pid}`, 2);
    const mine = await agentA.post<{ id: string }>('/reportSchedule/add', base);
    expect(mine.status).toBe(200);
    expect((await agentB.post('/reportSchedule/sendNow', { id: mine.data.id })).status).toBe(403);
    expect((await agentB.post('/reportSchedule/delete', { id: mine.data.id })).status).toBe(403);
    expect((await agentB.post<{ total: number }>('/reportSchedule/find', {})).data.total).toBe(0);
    expect((await agentA.post('/reportSchedule/update', { id: mine.data.id, frequency: 'monthly' })).status).toBe(200);
    const factory = await userClient(server, `rs-test-${process.pid}`, 5);
    expect((await factory.post('/reportSchedule/find', {})).status).toBe(403);
    expect((await agentA.post('/reportSchedule/delete', { id: mine.data.id })).status).toBe(200);
  });
});
