// The job queue on the test database (PGlite by default, PostgreSQL with DATABASE_URL): jobs run once, progress
// is kept, singleton keys collapse repeated requests, two queue instances (as two processes would) share jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../gateway/test-support.ts';
import { createTestServer, type TestServer } from '../testing/harness.ts';
import { type JobQueue, startJobQueue } from './queue.ts';

describe('job queue', () => {
  let server: TestServer;
  let second: JobQueue;

  beforeAll(async () => {
    server = await createTestServer();
    second = await startJobQueue(server.ctx.dbHandle.pool);
  });
  afterAll(async () => {
    await second.stop();
    await server.close();
  });

  it('runs a job once, records its progress and state', async () => {
    const jobs = server.ctx.services.jobs as JobQueue;
    const seen: number[] = [];
    await jobs.work<{ n: number }>(
      'test.once',
      async (job) => {
        await job.progress(0.5, { half: true });
        seen.push(job.data.n);
      },
      { pollingIntervalSeconds: 0.5 },
    );
    const id = await jobs.enqueue('test.once', { n: 7 });
    expect(id).toBeTruthy();
    await waitFor(() => seen.length === 1, 15_000, 'job');
    const p = await waitFor(
      async () => {
        const progress = await jobs.progressOf('test.once', id as string);
        return progress?.state === 'completed' ? progress : null;
      },
      15_000,
      'completed',
    );
    expect(p).toMatchObject({ progress: 1, detail: { half: true } });
    expect(seen).toEqual([7]);
  });

  it('collapses jobs with the same singleton key in one time slot', async () => {
    const jobs = server.ctx.services.jobs as JobQueue;
    const opts = { singletonKey: 'k', singletonSeconds: 600, startAfterSeconds: 60 };
    const a = await jobs.enqueue('test.single', {}, opts);
    const b = await jobs.enqueue('test.single', {}, opts);
    const c = await jobs.enqueue('test.single', {}, { ...opts, singletonNextSlot: true });
    expect(a).toBeTruthy();
    expect(b).toBeNull();
    expect(c).toBeTruthy(); // moved to the next slot
  });

  it('shares jobs between two queue instances, each job handled once', async () => {
    const jobs = server.ctx.services.jobs as JobQueue;
    const handled: string[] = [];
    await jobs.work<{ i: number }>(
      'test.shared',
      async (job) => {
        handled.push(`a${job.data.i}`);
      },
      { pollingIntervalSeconds: 0.5 },
    );
    await second.work<{ i: number }>(
      'test.shared',
      async (job) => {
        handled.push(`b${job.data.i}`);
      },
      { pollingIntervalSeconds: 0.5 },
    );
    for (let i = 0; i < 10; i++) await jobs.enqueue('test.shared', { i });
    await waitFor(() => handled.length >= 10, 20_000, 'ten jobs');
    await new Promise((r) => setTimeout(r, 1000));
    expect(handled.map((h) => Number(h.slice(1))).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
