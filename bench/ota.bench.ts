// OTA and transfer IP at fleet scale, over loopback, with the gateway and the API in this process (PGlite):
//  1. 1,000 simulated JT/T 808 terminals (2019, each reassembling and checking the SHA-256) upgraded with a
//     256 KB firmware through POST /ota/push: 0x8108 sub-packages, each answered by 0x0001, the 0x0108 result.
//     All must succeed. Reported: time to the last success and the 0x8108 bytes written per second.
//     Baseline in the same run: a bare Node TCP server writing the same bytes (the same frames, per connection)
//     to the same number of loopback sockets, time until every client has read them all.
//  2. A transfer-IP task for 10,000 GT06 devices, all connected (held by a load process): time from
//     POST /transferIp/send to the last device sent.
// The JSON line: value = OTA goodput (the distinct 0x8108 frame bytes every terminal needed, per second of the
// upgrade), baseline = bare socket bytes/s of the same frames.
//
//   npm run bench -- ota   (OTA_TERMINALS=1000, OTA_FIRMWARE_KB=256, TRANSFER_DEVICES=10000)
import { createHash, randomBytes } from 'node:crypto';
import { createServer, connect as netConnect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { jt808PartCount, jt808SubPackage, jt808UpgradeBody } from '@carhere/protocols';
import { SimulatedDevice, VehicleTrack } from '@carhere/simulator';
import { sql } from 'kysely';
import {
  adminClient,
  createGatewayTestServer,
  type GatewayTestServer,
} from '../apps/server/src/gateway/test-support.ts';
import { spawnJsonChild } from './lib-gateway-child.ts';

const TERMINALS = Number(process.env.OTA_TERMINALS ?? 1000);
const FIRMWARE_BYTES = Number(process.env.OTA_FIRMWARE_KB ?? 256) * 1024;
const TRANSFER_DEVICES = Number(process.env.TRANSFER_DEVICES ?? 10_000);
const CONNECT_BATCH = 200;

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const track = () => new VehicleTrack({ centerLat: 22.54, centerLon: 114.06, radiusKm: 2, maxSpeed: 40 });

async function register(server: GatewayTestServer, ids: string[], protocol: number, deviceType: number) {
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000);
    await sql`INSERT INTO devices (terminal_id, user_id, protocol, device_type)
              SELECT t, 2, ${protocol}, ${deviceType} FROM unnest(${chunk}::text[]) AS t`.execute(server.ctx.db);
  }
}

async function connectAll(devices: SimulatedDevice[]): Promise<void> {
  for (let i = 0; i < devices.length; i += CONNECT_BATCH) {
    await Promise.all(devices.slice(i, i + CONNECT_BATCH).map((d) => d.connect(60_000)));
  }
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  let report = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out: ${what}`);
    if (Date.now() > report) {
      report = Date.now() + 10_000;
      console.log(`  … waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function states(server: GatewayTestServer, taskId: string): Promise<Record<string, number>> {
  // Items carried by commands take their command's outcome when settled (as the result screens do).
  await server.ctx.services.tasks?.store.settle([taskId]);
  const r = await sql<{ state: string; n: string }>`
    SELECT state, count(*) AS n FROM task_items WHERE task_id = ${taskId}::bigint GROUP BY state`.execute(
    server.ctx.db,
  );
  return Object.fromEntries(r.rows.map((x) => [x.state, Number(x.n)]));
}

/** The bare baseline: a server writes `perSocket` to each of `sockets` loopback clients; ms until all read it. */
async function bareSocketWrite(perSocket: Buffer, sockets: number): Promise<number> {
  const server = createServer((s) => {
    s.on('error', () => {});
    s.end(perSocket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const t0 = performance.now();
  const reads: Promise<void>[] = [];
  for (let i = 0; i < sockets; i++) {
    reads.push(
      new Promise((resolve, reject) => {
        let got = 0;
        const c = netConnect({ host: '127.0.0.1', port });
        c.on('data', (d) => {
          got += d.length;
        });
        c.on('end', () => (got === perSocket.length ? resolve() : reject(new Error(`short read ${got}`))));
        c.on('error', reject);
      }),
    );
  }
  await Promise.all(reads);
  const ms = performance.now() - t0;
  server.close();
  return ms;
}

async function main(): Promise<void> {
  const server = await createGatewayTestServer({ commandTimeoutMs: 60_000 }, { idleMs: 600_000 });
  try {
    const admin = await adminClient(server);

    // 1. OTA
    const image = randomBytes(FIRMWARE_BYTES);
    const sha256 = createHash('sha256').update(image).digest('hex');
    const terminals = Array.from({ length: TERMINALS }, (_, i) => `139${String(i).padStart(8, '0')}`);
    await register(server, terminals, 1, 8);
    const sims = terminals.map(
      (t) =>
        new SimulatedDevice({
          protocol: 'jt808',
          jt808Version: '2019',
          terminalId: t,
          host: '127.0.0.1',
          port: server.gateway.ports.jt808,
          track: track(),
          otaExpectSha256: sha256,
        }),
    );
    let t = performance.now();
    await connectAll(sims);
    console.log(`${TERMINALS} JT/T 808 terminals connected in ${round((performance.now() - t) / 1000)} s`);
    const fw = await admin.post<{ id: string }>('/ota/firmware/upload', {
      model: 8,
      version: 'bench-1',
      fileName: 'bench.bin',
      data: image.toString('base64'),
      manufacturer: 'BENCH',
    });
    if (fw.status !== 200) throw new Error(`upload: ${fw.meta.message}`);
    t = performance.now();
    const push = await admin.post<{ taskId: string }>('/ota/push', { firmwareId: fw.data.id, terminalIDs: terminals });
    if (push.status !== 200) throw new Error(`push: ${push.meta.message}`);
    await waitUntil(
      async () => {
        const s = await states(server, push.data.taskId);
        if ((s.failed ?? 0) + (s.timeout ?? 0) > 0) throw new Error(`OTA items failed: ${JSON.stringify(s)}`);
        return (s.success ?? 0) === TERMINALS;
      },
      30 * 60_000,
      'every terminal upgraded',
    );
    const otaMs = performance.now() - t;
    const ok = sims.filter((s) => s.upgraded?.result === 0 && s.upgraded.sha256 === sha256).length;
    if (ok !== TERMINALS) throw new Error(`only ${ok} terminals reassembled the image`);
    const sent = await sql<{ bytes: string; resent: string }>`
      SELECT sum(bytes_sent) AS bytes, sum(resent) AS resent FROM ota_items WHERE task_id = ${push.data.taskId}::bigint`.execute(
      server.ctx.db,
    );
    const otaBytes = Number(sent.rows[0]?.bytes ?? 0);
    const otaRate = otaBytes / (otaMs / 1000);
    console.log(
      `OTA: ${TERMINALS} terminals × ${FIRMWARE_BYTES / 1024} KB all succeeded in ${round(otaMs / 1000)} s; ` +
        `${round(otaBytes / 1e6)} MB of 0x8108 frames (${sent.rows[0]?.resent ?? 0} re-sent) = ${round(otaRate / 1e6, 2)} MB/s`,
    );
    for (const s of sims) s.stop();

    // The same frames (one terminal's, same length for all) written raw to as many sockets.
    const body = jt808UpgradeBody({ type: 0, manufacturer: 'BENCH', version: 'bench-1', firmware: image }, '2019');
    const parts = jt808PartCount(body.length);
    const frames = Buffer.concat(
      Array.from({ length: parts }, (_, i) =>
        jt808SubPackage(0x8108, terminals[0] as string, '2019', i + 1, body, i + 1),
      ),
    );
    const bareMs = await bareSocketWrite(frames, TERMINALS);
    const bareRate = (frames.length * TERMINALS) / (bareMs / 1000);
    // Goodput: the frames each terminal needed once, over the time it took (re-sent parts are not counted twice).
    const goodput = (frames.length * TERMINALS) / (otaMs / 1000);
    console.log(
      `OTA goodput: ${round(goodput / 1e6, 2)} MB/s of distinct 0x8108 frames (all bytes written: ${round(otaRate / 1e6, 2)} MB/s)`,
    );
    console.log(
      `bare socket write: ${round((frames.length * TERMINALS) / 1e6)} MB to ${TERMINALS} sockets in ${round(bareMs / 1000, 2)} s = ${round(bareRate / 1e6, 2)} MB/s`,
    );

    // 2. Transfer IP to 10,000 connected GT06 devices, held by a load process of their own (one process cannot
    // hold both ends of 10,000 connections within its file limit); they log in and stay silent, so the items
    // are sent and then wait for replies that do not come: the figure is the time to the last device sent.
    const FIRST_GT06 = '868140000000000';
    const gt06 = Array.from({ length: TRANSFER_DEVICES }, (_, i) => (BigInt(FIRST_GT06) + BigInt(i)).toString());
    await register(server, gt06, 2, 12);
    t = performance.now();
    const load = spawnJsonChild('lib-gateway-load.ts', {
      mode: 'idle',
      host: '127.0.0.1',
      port: server.gateway.ports.gt06,
      protocol: 'gt06',
      first: FIRST_GT06,
      devices: TRANSFER_DEVICES,
    });
    try {
      const up = await load.next<{ up: number; failed: number }>('up', 600_000);
      if (up.up !== TRANSFER_DEVICES) throw new Error(`only ${up.up} of ${TRANSFER_DEVICES} devices logged in`);
      console.log(`${TRANSFER_DEVICES} GT06 devices connected in ${round((performance.now() - t) / 1000)} s`);
      await waitUntil(
        async () => {
          const r = await sql<{ n: string }>`
            SELECT count(*) AS n FROM device_state s JOIN devices d ON d.id = s.device_id
             WHERE s.online AND d.protocol = 2`.execute(server.ctx.db);
          return Number(r.rows[0]?.n ?? 0) >= TRANSFER_DEVICES;
        },
        300_000,
        'devices online',
      );
      t = performance.now();
      const move = await admin.post<{ taskId: string }>('/transferIp/send', {
        terminalIDs: gt06,
        host: 'moved.example.net',
        port: 7700,
      });
      if (move.status !== 200) throw new Error(`transferIp: ${move.meta.message}`);
      const createdMs = performance.now() - t;
      await waitUntil(
        async () => (await states(server, move.data.taskId)).pending === undefined,
        30 * 60_000,
        'every device sent',
      );
      const sentMs = performance.now() - t;
      console.log(
        `transfer IP: ${TRANSFER_DEVICES} devices, task created in ${round(createdMs)} ms, last device sent after ` +
          `${round(sentMs / 1000, 2)} s (${JSON.stringify(await states(server, move.data.taskId))})`,
      );
    } finally {
      await load.kill();
    }

    console.log(
      JSON.stringify({
        bench: 'ota',
        value: Math.round(goodput),
        unit: 'bytes/s',
        baseline: Math.round(bareRate),
        ratio: round(goodput / bareRate, 4),
      }),
    );
  } finally {
    await server.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
