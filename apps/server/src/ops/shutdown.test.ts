// Graceful shutdown of a server with its gateway (PGlite, in this process): readiness turns 503 at once, the
// listeners stop accepting, what the devices already sent is written and acknowledged before their sockets
// close, so a device never loses a fix it sent and never resends one the platform already stored (every stored
// fix was acknowledged, every acknowledged fix is stored).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connection.ts';
import {
  addDevice,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  waitFor,
} from '../gateway/test-support.ts';
import { ApiClient } from '../testing/harness.ts';

// Embedded-database test: run by `npm test` (PGlite), not again in CI's PostgreSQL pass.
describe.skipIf(!!process.env.DATABASE_URL)('graceful shutdown', () => {
  let server: GatewayTestServer;
  // A data directory (not memory): the stored fixes are read after the server has stopped.
  const dataDir = mkdtempSync(join(tmpdir(), 'carhere-shutdown-'));
  beforeAll(async () => {
    server = await createGatewayTestServer({ dataDir, databaseUrl: undefined });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers ready, then drains: stops accepting, acknowledges what it stored, closes the device sockets', async () => {
    const api = new ApiClient(server);
    const ready = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toEqual({ ready: true, database: 'ok', bus: 'ok', accepting: true });
    expect((await api.get('/health')).meta.success).toBe(true);

    const sims = [];
    for (let i = 0; i < 4; i++) {
      const tid = newTerminalId('gt06');
      const id = await addDevice(server, tid, 'gt06');
      const sim = simulatedDevice(server.gateway, 'gt06', tid);
      await sim.connect();
      sims.push({ sim, id });
    }
    // Streams of fixes with many in flight; the stop comes in the middle of them, right after a fix has been
    // handed to the ingest (so some are waiting for the database when it begins).
    const batcher = server.gateway.batcher;
    const submit = batcher.submit.bind(batcher);
    let submitted = 0;
    let stopping: Promise<void> | undefined;
    let pendingAtStop = 0;
    let readyDuring: Promise<{ statusCode: number; json(): { data: { accepting: boolean } } }> | undefined;
    batcher.submit = (record) => {
      submit(record);
      if (++submitted === 300) {
        pendingAtStop = batcher.pendingRows;
        stopping = server.stop();
        readyDuring = server.app.inject({ method: 'GET', url: '/api/ready' });
      }
    };
    const sending = sims.map(({ sim }) => sim.sendPositions(400, 50, 5));
    await waitFor(() => stopping !== undefined, 20_000, 'the stop in the middle of the stream');
    expect(pendingAtStop).toBeGreaterThan(0);
    // Draining: readiness says so while the gateway finishes.
    const during = await (readyDuring as NonNullable<typeof readyDuring>);
    expect(during.statusCode).toBe(503);
    expect(during.json().data.accepting).toBe(false);
    await stopping;
    await Promise.all(sending);
    const db = await openDatabase({ dataDir });

    for (const { sim, id } of sims) {
      expect(sim.connected).toBe(false);
      // Stopped mid-stream: not everything was sent …
      expect(sim.stats.acked).toBeLessThan(400);
      const times = sim.acked;
      expect(times.length).toBeGreaterThan(0);
      // … and what was stored is exactly what was acknowledged.
      const stored = await db.pool.query<{ t: string }>(
        'SELECT (extract(epoch FROM time) * 1000)::bigint::text AS t FROM positions WHERE device_id = $1',
        [id],
      );
      expect(new Set(stored.rows.map((r) => Number(r.t)))).toEqual(new Set(times));
    }
    await db.close();
  });
});
