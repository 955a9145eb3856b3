// The reconnect storm's login path (issue 22): the directory preloaded with the devices about to reconnect, and
// work that can wait (device-log rows, offline-command reads) giving logins the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/harness.ts';
import { DeviceLog } from './device-log.ts';
import { DeviceDirectory } from './directory.ts';
import { LoginActivity } from './grouped.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('reconnect storm login path', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await createTestServer();
    const { db } = server.ctx;
    const add = async (terminalId: string, protocol: number, seenHoursAgo: number | null) => {
      const row = await db
        .insertInto('devices')
        .values({ terminal_id: terminalId, user_id: '2', protocol })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[terminalId] = String(row.id);
      if (seenHoursAgo !== null)
        await db
          .insertInto('device_state')
          .values({
            device_id: String(row.id),
            online: false,
            attributes: '{}',
            last_seen: new Date(Date.now() - seenHoursAgo * 3_600_000),
          })
          .execute();
    };
    await add('868120000077001', 2, 0.1); // seen minutes ago: reconnects after a restart
    await add('868120000077002', 2, 1); // an hour ago
    await add('868120000077003', 2, 72); // three days ago: not in the preload
    await add('868120000077004', 2, null); // never seen
    await add('13900077005', 1, 0.2); // JT/T 808, its header carries '013900077005'
    await add('868120000077006', 2, 0.3); // for the drop test
    await add('868120000077007', 2, 0.4);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('preloads the devices seen in the last day, and finds them (also by a padded JT/T 808 number) without a query', async () => {
    const directory = new DeviceDirectory(server.ctx);
    expect(await directory.preload(100)).toBe(5);
    // The rows go away behind the directory's back (no device.changed notice): what it answers now comes from the
    // preload, and what was not preloaded is looked up and not found.
    await server.ctx.db
      .deleteFrom('devices')
      .where('terminal_id', 'in', ['868120000077001', '868120000077003', '13900077005'])
      .execute();
    expect((await directory.find('868120000077001'))?.id).toBe(ids['868120000077001']);
    expect((await directory.find('013900077005'))?.id).toBe(ids['13900077005']);
    expect(await directory.find('868120000077003')).toBeNull();
    expect((await directory.find('868120000077004'))?.id).toBe(ids['868120000077004']);
  });

  it('drops the preloaded devices nobody asked for (another gateway process serves them), keeps the others', async () => {
    const directory = new DeviceDirectory(server.ctx);
    expect(await directory.preload(100)).toBeGreaterThan(0);
    const asked = await directory.find('868120000077006');
    expect(asked?.id).toBe(ids['868120000077006']);
    expect(directory.dropUnused()).toBeGreaterThan(0);
    // Deleted behind the directory's back: the kept device still answers from the cache, the dropped one is
    // looked up (and is gone).
    await server.ctx.db
      .deleteFrom('devices')
      .where('terminal_id', 'in', ['868120000077006', '868120000077007'])
      .execute();
    expect((await directory.find('868120000077006'))?.id).toBe(ids['868120000077006']);
    expect(await directory.find('868120000077007')).toBeNull();
    expect(directory.dropUnused()).toBe(0);
  });

  it('preloads the most recently seen first, up to the limit, and nothing when switched off', async () => {
    const directory = new DeviceDirectory(server.ctx);
    expect(await directory.preload(1)).toBe(1);
    expect(await new DeviceDirectory(server.ctx).preload(0)).toBe(0);
  });

  it('lets waiting work go once logins stop starting, and at the latest after its longest wait', async () => {
    // Quiet after 300 ms without a login (longer than a busy machine's late timer), at the latest after 5 s.
    const activity = new LoginActivity(300, 5000);
    expect(await Promise.race([activity.whenQuiet().then(() => 'quiet'), sleep(0).then(() => 'waiting')])).toBe(
      'quiet',
    );

    // Logins keep starting every 5 ms for a while: the work waits, then goes after the last one.
    let done = false;
    activity.note();
    const waited = activity.whenQuiet().then(() => {
      done = true;
    });
    for (let i = 0; i < 10; i++) {
      await sleep(5);
      activity.note();
      expect(done).toBe(false);
    }
    await waited;
    expect(done).toBe(true);

    // Logins that never stop: the work goes anyway (its longest wait).
    const busy = new LoginActivity(300, 600);
    let stop = false;
    const storm = (async () => {
      while (!stop) {
        busy.note();
        await sleep(5);
      }
    })();
    await busy.whenQuiet();
    stop = true;
    await storm;
  });

  it('writes the device log once the logins of a storm stop, every entry', async () => {
    const activity = new LoginActivity(300, 10_000);
    const log = new DeviceLog(
      server.ctx.db,
      (err) => {
        throw err;
      },
      activity,
    );
    const count = async () =>
      Number(
        (
          await server.ctx.db
            .selectFrom('device_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('terminal_id', 'like', '86812999%')
            .executeTakeFirstOrThrow()
        ).n,
      );
    let stop = false;
    let entries = 0;
    const logins = (async () => {
      for (let i = 0; !stop; i++, entries++) {
        activity.note();
        log.write({
          terminalId: `86812999${String(i).padStart(7, '0')}`,
          deviceId: null,
          protocol: 'gt06',
          event: 'login',
        });
        await sleep(2);
      }
    })();
    // Well past the log's 200-ms flush and its 500-entry batch: nothing is written while logins keep starting.
    await sleep(700);
    expect(await count()).toBe(0);
    stop = true;
    await logins;
    await log.flush();
    expect(entries).toBeGreaterThan(50);
    expect(await count()).toBe(entries);
  });
});
