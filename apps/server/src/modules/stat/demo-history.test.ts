// The demo's 30 days of history: written in bulk, rolled up, and answered by the statistics API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, demoClient, newTerminalId } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { DEMO_HISTORY_DAYS, demoHistory, writeDemoHistory } from './demo-history.ts';

describe('demo history', () => {
  let server: TestServer;
  let demo: ApiClient;
  const tids = [newTerminalId('gt06'), newTerminalId('jt808')];

  beforeAll(async () => {
    server = await createTestServer();
    demo = await demoClient(server);
    const ids = [await addDevice(server, tids[0], 'gt06'), await addDevice(server, tids[1], 'jt808')];
    await writeDemoHistory(server.ctx.dbHandle.pool, ids);
  });
  afterAll(async () => {
    await server.close();
  });

  it('is deterministic and has trips and stays every day', () => {
    const end = Date.UTC(2026, 10, 20);
    const a = demoHistory(42, end);
    expect(demoHistory(42, end)).toEqual(a);
    expect(a.fixes.t.length).toBeGreaterThan(DEMO_HISTORY_DAYS * 100);
    for (let i = 1; i < a.fixes.t.length; i++) expect(a.fixes.t[i]).toBeGreaterThan(a.fixes.t[i - 1]);
  });

  it('shows 30 days of figures in the statistics at once', async () => {
    const now = Date.now();
    const res = await demo.post<{
      total: number;
      list: { mileage: number; stopCount: number; statsticDate: string }[];
    }>('/stat/find', { startTime: now - 31 * 86_400_000, endTime: now });
    expect(res.status).toBe(200);
    expect(res.data.total).toBeGreaterThanOrEqual(2 * 29);
    expect(res.data.list.every((r) => r.mileage > 0 && r.stopCount >= 2)).toBe(true);
  });
});
