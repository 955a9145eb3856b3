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

  it("fills the account's yesterday (UTC+8) at any hour, and today up to the end", () => {
    const beijingDate = (t: number) => new Date(t + 8 * 3_600_000).toISOString().slice(0, 10);
    // 16:25 UTC is 00:25 of the next day in Beijing: yesterday there is the UTC date itself.
    const lateUtc = Date.UTC(2026, 10, 27, 16, 25);
    const late = demoHistory(42, lateUtc).fixes.t.filter((t) => t < lateUtc);
    expect(late.filter((t) => beijingDate(t) === '2026-11-27').length).toBeGreaterThan(50);
    expect(new Set(late.map(beijingDate)).size).toBe(DEMO_HISTORY_DAYS);
    // 05:00 UTC is 13:00 in Beijing: the morning's drives are there, and the 30 days before.
    const noon = Date.UTC(2026, 10, 27, 5, 0);
    const morning = demoHistory(42, noon).fixes.t.filter((t) => t < noon);
    expect(morning.filter((t) => beijingDate(t) === '2026-11-27').length).toBeGreaterThan(0);
    expect(morning.filter((t) => beijingDate(t) === '2026-11-26').length).toBeGreaterThan(50);
    expect(new Set(morning.map(beijingDate)).size).toBe(DEMO_HISTORY_DAYS + 1);
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
