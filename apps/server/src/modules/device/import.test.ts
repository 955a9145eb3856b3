import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { adminClient, buildTree, expectOk, loginAs, nextImei, type Tree } from '../agent/fixtures.ts';

interface Job {
  id: string;
  status: string;
  total: number;
  processed: number;
  result: {
    success: number;
    failure: number;
    unqualified: number;
    noFactoryTest: number;
    notPreset: number;
    alreadyStocked: number;
    imported: string[];
    rejected: { terminalID: string; reason: string; message: string }[];
  } | null;
}

describe('device import (IMEI lines, 808 rules, duplicates, quota, progress)', () => {
  let server: TestServer;
  let t: Tree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('imports valid lines and counts unqualified, repeated and already stocked ones', async () => {
    const [x, y, z] = [nextImei(), nextImei(), nextImei()];
    await expectOk(
      t.admin.post('/device/import', { userId: t.ids.agentB, text: z, protocol: 2, deviceType: 12, wait: true }),
    );
    const job = await expectOk<Job>(
      t.admin.post('/device/import', {
        userId: t.ids.agentA,
        text: ` ${x} \r\n${y}\n\n${x}\nshort\n${z}\nABC-123456789`,
        protocol: 2,
        deviceType: 12,
        serviceTerm: 1,
        iconType: 4,
        wait: true,
      }),
    );
    expect(job.status).toBe('done');
    expect(job.result).toMatchObject({
      success: 2,
      unqualified: 2,
      alreadyStocked: 1,
      failure: 1,
      noFactoryTest: 0,
      notPreset: 0,
    });
    expect(job.result!.imported).toEqual([x, y]);
    const reasons = Object.fromEntries(job.result!.rejected.map((r) => [r.terminalID, r.reason]));
    expect(reasons).toEqual({
      short: 'unqualified',
      'ABC-123456789': 'unqualified',
      [x]: 'duplicate',
      [z]: 'alreadyStocked',
    });
    const agentA = await loginAs(server, 'agentA');
    const d = await expectOk<{
      serviceTerm: number;
      device: { iconType: number; deviceType: number };
      username: string;
    }>(agentA.post('/device/findById', { terminalID: x }));
    expect(d).toMatchObject({ serviceTerm: 1, device: { iconType: 4, deviceType: 12 }, username: 'agentA' });
  });

  it('808 protocols need exactly 11 digits, and a duplicate 808 IMEI is rejected', async () => {
    const job = await expectOk<Job>(
      t.admin.post('/device/import', {
        userId: t.ids.agentA,
        text: '13912345678\n1391234567890\n1391234567A\n13912345679',
        protocol: 1,
        deviceType: 8,
        wait: true,
      }),
    );
    expect(job.result).toMatchObject({ success: 2, unqualified: 2 });
    expect(job.result!.rejected.map((r) => r.message)).toEqual([
      'An 808-protocol IMEI must be exactly 11 digits',
      'An 808-protocol IMEI must be exactly 11 digits',
    ]);
    const again = await expectOk<Job>(
      t.admin.post('/device/import', {
        userId: t.ids.agentA,
        text: '13912345678',
        protocol: 3,
        deviceType: 8,
        wait: true,
      }),
    );
    expect(again.result).toMatchObject({ success: 0, alreadyStocked: 1 });
  });

  it('a large import runs as a job whose progress can be polled until done', async () => {
    const base = 860_000_000_000_000n + BigInt(Date.now() % 1_000_000) * 10_000n;
    const lines = Array.from({ length: 1800 }, (_, i) => String(base + BigInt(i)));
    const started = await expectOk<Job>(
      t.admin.post('/device/import', { userId: t.ids.agentB, text: lines.join('\n'), protocol: 2, deviceType: 12 }),
    );
    expect(started.total).toBe(1800);
    const seen: number[] = [];
    let job = started;
    for (let i = 0; i < 400 && job.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      job = await expectOk<Job>(t.admin.get(`/device/importJob?id=${started.id}`));
      seen.push(job.processed);
    }
    expect(job.status).toBe('done');
    expect(job.processed).toBe(1800);
    expect(job.result!.success).toBe(1800);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('refuses a foreign owner, a missing permission, unknown codes and imports over the limit', async () => {
    const agentA = await loginAs(server, 'agentA');
    expect(
      (await agentA.post('/device/import', { userId: t.ids.agentB, text: nextImei(), protocol: 2, deviceType: 12 }))
        .status,
    ).toBe(403);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/device/import', { text: nextImei(), protocol: 2, deviceType: 12 })).status).toBe(403);
    expect((await agentA.post('/device/import', { text: nextImei(), protocol: 9, deviceType: 12 })).status).toBe(400);
    const badTerm = await t.admin.post('/device/import', {
      text: nextImei(),
      protocol: 2,
      deviceType: 12,
      serviceTerm: 77,
    });
    expect(badTerm.meta.message).toBe('Unknown service term');
    const limits = await expectOk<Record<string, number>>(t.admin.get('/device/limits'));
    await expectOk(t.admin.post('/device/limits', { ...limits, devicesPerImport: 1 }));
    const over = await t.admin.post('/device/import', {
      text: `${nextImei()}\n${nextImei()}`,
      protocol: 2,
      deviceType: 12,
    });
    expect(over.meta.message).toBe('At most 1 devices per import');
    await expectOk(t.admin.post('/device/limits', limits));
    const other = await loginAs(server, 'agentB');
    const job = await expectOk<Job>(
      t.admin.post('/device/import', { text: nextImei(), protocol: 2, deviceType: 12, wait: true }),
    );
    expect((await other.get(`/device/importJob?id=${job.id}`)).status).toBe(404);
  });
});

describe('import jobs that died with their process', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('a running job silent for more than five minutes reads as failed, with a message to import again', async () => {
    const { randomUUID } = await import('node:crypto');
    const id = randomUUID();
    const old = new Date(Date.now() - 6 * 60_000);
    await server.ctx.db
      .insertInto('import_jobs')
      .values({
        id,
        kind: 'devices',
        user_id: '1',
        total: 10,
        processed: 4,
        created_at: old,
        updated_at: old,
        result: null,
        error: null,
      })
      .execute();
    const admin = await adminClient(server);
    const job = await expectOk<Job>(admin.get(`/device/importJob?id=${id}`));
    expect(job).toMatchObject({ status: 'failed', processed: 4 });
    expect((job as Job & { error: string }).error).toBe(
      'The import stopped before it finished (the server restarted); import the remaining lines again',
    );
  });
});

describe('service-term expiry in SQL (spec §4 reset-expiry)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lifelong (term 3) has no expiry, one year (term 1) is the same wall-clock time 12 months later', async () => {
    const at = Date.UTC(2023, 4, 10, 4, 30, 0);
    const res = await sql<{
      lifelong: Date | null;
      year: Date;
    }>`SELECT carhere_term_expiry(${new Date(at)}::timestamptz, 3::smallint) AS lifelong,
              carhere_term_expiry(${new Date(at)}::timestamptz, 1::smallint) AS year`.execute(server.ctx.db);
    expect(res.rows[0].lifelong).toBeNull();
    expect(res.rows[0].year.toISOString()).toBe('2024-05-10T04:30:00.000Z');
  });

  it('month ends clamp: 31 January + 1 month is the last day of February (UTC+8 wall clock)', async () => {
    const at = Date.UTC(2024, 0, 31, 2, 0, 0); // 31 Jan 10:00 in UTC+8
    const res = await sql<{
      e: Date;
    }>`SELECT carhere_term_expiry(${new Date(at)}::timestamptz, 4::smallint) AS e`.execute(server.ctx.db);
    expect(res.rows[0].e.toISOString()).toBe('2024-02-29T02:00:00.000Z');
  });
});
