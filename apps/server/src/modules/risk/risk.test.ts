// Risk points through the API: permission (admin, granted agent, refused others), hierarchy, import, template.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { type CustomerMapTree, customerMapTree } from '../checks/testTree.ts';

describe('risk points', () => {
  let server: TestServer;
  let t: CustomerMapTree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await customerMapTree(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const point = { name: 'Car market', kind: 'market', lat: 39.9, lon: 116.4, radius: 500, note: 'north gate' };

  it('a granted agent adds, lists, edits and deletes its points; siblings and end users cannot', async () => {
    const added = await t.agentA.post<{ id: string; userId: string; dwellMinutes: number }>('/riskPoint/add', point);
    expect(added.status).toBe(200);
    expect(added.data).toMatchObject({ userId: t.ids.agentA.id, dwellMinutes: 30 });
    const forUser = await t.agentA.post<{ userId: string }>('/riskPoint/add', { ...point, userId: t.ids.userA1.id });
    expect(forUser.data.userId).toBe(t.ids.userA1.id);
    expect((await t.agentA.post('/riskPoint/add', { ...point, userId: t.ids.agentB.id })).status).toBe(403);
    expect((await t.agentB.post('/riskPoint/find', {})).status).toBe(403);
    expect((await t.userA1.post('/riskPoint/find', {})).status).toBe(403);

    const list = await t.agentA.post<{ total: number; list: { name: string; note: string }[] }>('/riskPoint/find', {
      name: 'market',
    });
    expect(list.data.total).toBe(2);
    const edited = await t.agentA.post<{ radius: number; dwellMinutes: number }>('/riskPoint/update', {
      id: added.data.id,
      radius: 800,
      dwellMinutes: 90,
    });
    expect(edited.data).toMatchObject({ radius: 800, dwellMinutes: 90 });
    // The administrator's own point is outside agent A's reach.
    const adminPoint = await t.admin.post<{ id: string }>('/riskPoint/add', point);
    expect((await t.agentA.post('/riskPoint/update', { id: adminPoint.data.id, radius: 600 })).status).toBe(403);
    expect((await t.agentA.post('/riskPoint/delete', { id: adminPoint.data.id })).status).toBe(403);
    expect((await t.agentA.post('/riskPoint/delete', { id: added.data.id })).status).toBe(200);
    expect((await t.agentA.post('/riskPoint/update', { id: added.data.id, radius: 600 })).status).toBe(404);
  });

  it('refuses bad input: radius, kind, dwell time', async () => {
    expect((await t.admin.post('/riskPoint/add', { ...point, radius: 5 })).status).toBe(400);
    expect((await t.admin.post('/riskPoint/add', { ...point, kind: 'casino' })).status).toBe(400);
    expect((await t.admin.post('/riskPoint/add', { ...point, dwellMinutes: 0 })).status).toBe(400);
  });

  it('imports the template filled in, with per-line results', async () => {
    const template = await server.app.inject({
      method: 'GET',
      url: '/api/riskPoint/template',
      headers: { cookie: t.agentA.cookie },
    });
    expect(template.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, 'name', 'kind', 'lat', 'lon', 'radius', 'dwellMinutes', 'note']);
    sheet.addRow(['Border post', 'border', 40.1, 116.9, 1000, 15, '']);
    sheet.addRow(['No radius', 'other', 40.1, 116.9, '', 15, '']);
    const buffer = Buffer.from((await book.xlsx.writeBuffer()) as ArrayBuffer);
    const res = await t.agentA.post<{
      added: number;
      failed: number;
      lines: { line: number; ok: boolean; field: string }[];
    }>('/riskPoint/import', {
      file: { name: 'points.xlsx', base64: buffer.toString('base64') },
      userId: t.ids.userA1.id,
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ added: 2, failed: 1 });
    expect(res.data.lines.find((l) => !l.ok)).toEqual({ line: 4, ok: false, field: 'radius' });
    const pasted = await t.agentA.post<{ added: number }>('/riskPoint/import', {
      text: 'Yard\trepair\t39.8\t116.3\t200\t10\tback lot',
    });
    expect(pasted.data.added).toBe(1);
    expect((await t.agentA.post('/riskPoint/import', { text: 'x', userId: t.ids.userB1.id })).status).toBe(403);
  });

  it('the visits report is limited to devices the caller reaches', async () => {
    const window = { startTime: Date.now() - 86_400_000, endTime: Date.now() };
    expect((await t.agentA.post('/riskPoint/visits', { ...window, terminalID: t.deviceB.terminalId })).status).toBe(
      403,
    );
    const mine = await t.agentA.post<{ total: number }>('/riskPoint/visits', {
      ...window,
      terminalID: t.deviceA.terminalId,
    });
    expect(mine.status).toBe(200);
    expect(mine.data.total).toBe(0);
  });
});
