// Runs against a real NATS server (NATS_TEST_URL, default nats://127.0.0.1:4222; CI starts one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsAvailable, startNats } from '../ops/test-support.ts';
import { natsReachable } from '../testing/expectations.ts';
import { NatsBus } from './nats.ts';

const url = process.env.NATS_TEST_URL ?? 'nats://127.0.0.1:4222';

const available = await natsReachable(url);
if (!available) console.warn(`NATS bus tests skipped: no NATS server at ${url}`);

describe.skipIf(!available)('NatsBus between two connections (two processes in production)', () => {
  let a: NatsBus;
  let b: NatsBus;
  const prefix = `test${process.pid}${Date.now()}`;
  beforeAll(async () => {
    a = await NatsBus.connect(url);
    b = await NatsBus.connect(url);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('delivers JSON payloads published on one connection to wildcard and exact subscribers on another', async () => {
    const got: [string, unknown][] = [];
    const done = new Promise<void>((resolve) => {
      b.subscribe(`${prefix}.device.>`, (p, s) => {
        got.push([s, p]);
        if (got.length === 2) resolve();
      });
    });
    const exact: unknown[] = [];
    const off = b.subscribe(`${prefix}.device.position`, (p) => exact.push(p));
    await b.flush();
    a.publish(`${prefix}.device.position`, { deviceId: '7', lat: 39.9 });
    a.publish(`${prefix}.device.alarm`, { deviceId: '7', type: 1 });
    await a.flush();
    await done;
    off();
    expect(got).toEqual([
      [`${prefix}.device.position`, { deviceId: '7', lat: 39.9 }],
      [`${prefix}.device.alarm`, { deviceId: '7', type: 1 }],
    ]);
    expect(exact).toEqual([{ deviceId: '7', lat: 39.9 }]);
  });

  it('keeps deployments with different prefixes apart; handlers see subjects without the prefix', async () => {
    const eu = await NatsBus.connect(url, () => {}, `${prefix}eu.`);
    const eu2 = await NatsBus.connect(url, () => {}, `${prefix}eu.`);
    const asia = await NatsBus.connect(url, () => {}, `${prefix}asia.`);
    try {
      const euGot: [string, unknown][] = [];
      const asiaGot: unknown[] = [];
      eu2.subscribe('device.>', (p, s) => euGot.push([s, p]));
      asia.subscribe('device.>', (p) => asiaGot.push(p));
      await eu2.flush();
      await asia.flush();
      eu.publish('device.position', { deviceId: '1' });
      asia.publish('other.thing', { x: 1 });
      await eu.flush();
      await asia.flush();
      await eu2.flush();
      await new Promise((r) => setTimeout(r, 200));
      expect(euGot).toEqual([['device.position', { deviceId: '1' }]]);
      expect(asiaGot).toEqual([]);
    } finally {
      await eu.close();
      await eu2.close();
      await asia.close();
    }
  });
});

describe.skipIf(!natsAvailable)('NatsBus when its server goes away and comes back', () => {
  it('tells its resume listeners when it is back, with the time it was lost; subscriptions work again', async () => {
    const nats = await startNats();
    const bus = await NatsBus.connect(nats.url);
    try {
      const resumed: number[] = [];
      const got: unknown[] = [];
      bus.onResume((downSince) => resumed.push(downSince));
      bus.subscribe('device.position', (p) => got.push(p));
      await bus.flush();
      const stoppedAt = Date.now();
      await nats.stop();
      await nats.start();
      const deadline = Date.now() + 30_000;
      while (resumed.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(resumed).toHaveLength(1);
      expect(resumed[0]).toBeGreaterThanOrEqual(stoppedAt);
      bus.publish('device.position', { deviceId: '9' });
      await bus.flush();
      while (got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(got).toEqual([{ deviceId: '9' }]);
    } finally {
      await bus.close();
      await nats.stop();
    }
  });
});

/** What waits in this process for the NATS server: nats.js's own buffer and the socket's (nats.js internals). */
function queuedBytes(bus: NatsBus): number {
  const protocol = (bus as unknown as { nc: { protocol: Record<string, unknown> } }).nc.protocol as {
    outbound: { size(): number };
    transport: { socket?: { writableLength: number } };
  };
  return protocol.outbound.size() + (protocol.transport.socket?.writableLength ?? 0);
}

describe.skipIf(!natsAvailable)('NatsBus when its server falls behind or is away (publishing is bounded)', () => {
  const payload = { deviceId: '1', filler: 'x'.repeat(10_000) };

  it('keeps at most the bound waiting while the server reads nothing; once it catches up, others catch up too', async () => {
    const nats = await startNats();
    const bus = await NatsBus.connect(nats.url, () => {}, { maxPendingBytes: 2 * 2 ** 20 });
    const other = await NatsBus.connect(nats.url);
    try {
      const resumed: number[] = [];
      other.onResume((since) => resumed.push(since));
      const own: number[] = [];
      bus.onResume((since) => own.push(since));
      const alarms: unknown[] = [];
      other.subscribe('device.alarm', (p) => alarms.push(p));
      await other.flush();
      await bus.flush();
      const frozenAt = Date.now();
      nats.freeze();
      // 50 MB for a server that reads nothing (the kernel's socket buffers take a few MB of it).
      for (let i = 0; i < 5000; i++) {
        bus.publish('device.position', payload);
        if (i % 500 === 0) await new Promise((r) => setImmediate(r));
      }
      await new Promise((r) => setImmediate(r));
      expect(queuedBytes(bus)).toBeLessThan(4 * 2 ** 20);
      expect(bus.dropped).toBeGreaterThan(4000);
      // Other events still go out (rare, and their listeners have no other source).
      const dropped = bus.dropped;
      bus.publish('device.alarm', { deviceId: '1', type: 1 });
      expect(bus.dropped).toBe(dropped);
      nats.thaw();
      const deadline = Date.now() + 30_000;
      while (resumed.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(resumed).toHaveLength(1);
      expect(resumed[0]).toBeGreaterThanOrEqual(frozenAt);
      await new Promise((r) => setTimeout(r, 200));
      expect(own).toEqual(resumed); // its own live hub catches up too, once
      while (alarms.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(alarms).toEqual([{ deviceId: '1', type: 1 }]);
      expect(bus.pendingBytes).toBeLessThan(2 * 2 ** 20);
    } finally {
      nats.thaw();
      await bus.close();
      await other.close();
      await nats.stop();
    }
  });

  it('buffers nothing while the connection is down (nats.js would discard it on reconnect anyway)', async () => {
    const nats = await startNats();
    const bus = await NatsBus.connect(nats.url);
    try {
      await bus.flush();
      await nats.stop();
      const deadline = Date.now() + 10_000;
      // The client notices the closed socket on its own.
      while ((bus as unknown as { downSince: number | null }).downSince === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      for (let i = 0; i < 2000; i++) bus.publish('device.position', payload);
      expect(queuedBytes(bus)).toBeLessThan(2 ** 20);
      expect(bus.dropped).toBe(2000);
      await nats.start();
    } finally {
      await bus.close();
      await nats.stop();
    }
  });
});
