// Notifications (issue 18) on a PostgreSQL server, in one run:
//  1. ingest cost of the rules: simulated JT/T 808 trackers (a separate process) send positions through the
//     gateway as fast as their ACKs come back, with the notifier listening on the bus; once with no rules
//     (baseline), once with 10,000 rules in place (1,000 accounts × 10 rules, and rules on the trackers' own
//     account asking for ignition changes and every alarm, so every position goes through the notifier's check).
//     Target: the rate with rules ≥ 0.9 of the rate without (and ≥ 5,000 positions/s).
//  2. 1,000 alarms published on the bus within one second, each matched by a webhook rule and delivered through
//     the job queue to a local receiver that checks the signatures; reported: time from the first alarm to the
//     last delivery.
//
//   npm run bench -- notify     (BENCH_DATABASE_URL; NOTIFY_DEVICES, NOTIFY_SECONDS to change the load)
import { performance } from 'node:perf_hooks';
import { startGateway } from '../apps/server/src/gateway/component.ts';
import { type AlarmEvent, type DeviceEnvelope, Subjects } from '../apps/server/src/gateway/events.ts';
import { gatewayOptionsFrom } from '../apps/server/src/gateway/options.ts';
import { startJobQueue } from '../apps/server/src/jobs/queue.ts';
import { deliver } from '../apps/server/src/modules/notify/deliver.ts';
import { DELIVER_JOB, Notifier } from '../apps/server/src/modules/notify/notifier.ts';
import { startWebhookReceiver } from '../apps/server/src/modules/notify/test-support.ts';
import { loadSecretKey } from '../apps/server/src/security/secretBox.ts';
import { spawnJsonChild } from './lib-gateway-child.ts';
import { openContext, registerDevices, report, round, scratchPostgres, terminalIds } from './lib-gateway-db.ts';

const DEVICES = Number(process.env.NOTIFY_DEVICES ?? 200);
const MEASURE_MS = Number(process.env.NOTIFY_SECONDS ?? 8) * 1000;
const WARMUP_MS = 3000;
const RULES = 10_000;
const ALARMS = 1000;
const FIRST = '13800000000';
const SECRET = 'bench-secret-1';

async function drive(port: number): Promise<number> {
  const load = spawnJsonChild('lib-gateway-load.ts', {
    mode: 'ingest',
    host: '127.0.0.1',
    port,
    protocol: 'jt808',
    first: FIRST,
    devices: DEVICES,
    window: 64,
    warmupMs: WARMUP_MS,
    measureMs: MEASURE_MS,
  });
  try {
    await load.next('connected', 120_000);
    return (await load.next<{ rate: number }>('result', WARMUP_MS + MEASURE_MS + 60_000)).rate;
  } finally {
    await load.kill();
  }
}

// The webhook receiver listens on 127.0.0.1, which webhooks may not reach by default.
process.env.NOTIFY_ALLOW_PRIVATE_WEBHOOKS = '1';
const store = await scratchPostgres('carhere_bench_notify');
const { ctx, close } = await openContext(store, 20);
await loadSecretKey({ secretKey: '7e57'.repeat(16), kind: 'postgres', pool: ctx.dbHandle.pool });
const pool = ctx.dbHandle.pool;
const hooks = await startWebhookReceiver(SECRET);
const jobs = await startJobQueue(pool, (err) => console.error('jobs:', err));
ctx.services.jobs = jobs;
const notifier = new Notifier(ctx, jobs, (err, what) => console.error(what, err));
await notifier.start();
for (let i = 0; i < 4; i++) {
  await jobs.work<{ ids: string[] }>(DELIVER_JOB, (job) => deliver(ctx, jobs, notifier, job.data.ids), {
    pollingIntervalSeconds: 0.5,
  });
}
await registerDevices(ctx, terminalIds(FIRST, DEVICES), 'jt808');
const gateway = await startGateway(
  ctx,
  { ...gatewayOptionsFrom(ctx.config, 'postgres', {}), host: '127.0.0.1', gt06Port: 0, jt808Port: 0 },
  { onError: (e) => console.error('gateway:', e) },
);
let exitCode = 0;
try {
  // 1,000 accounts below the admin with 10 rules each, and rules on the trackers' own account (demo, id 2).
  const users = await pool.query<{ id: string }>(
    `INSERT INTO users (username, password_hash, role, parent_id)
     SELECT 'bench-notify-' || g, 'x', 2, 1 FROM generate_series(1, 1000) g RETURNING id::text AS id`,
  );
  await pool.query(`UPDATE users SET path = '/1/' || id || '/' WHERE username LIKE 'bench-notify-%'`);
  await pool.query(
    `INSERT INTO notify_rules (user_id, name, events, channels, min_interval_seconds, enabled)
     SELECT u.id::bigint, 'rule ' || k, ARRAY['alarm:*', 'ignition.on', 'ignition.off', 'offline'],
            '[{"type":"webhook","url":"http://127.0.0.1:9/x","secret":"abcdefgh"}]'::jsonb, 60, false
       FROM unnest($1::text[]) AS u(id), generate_series(1, $2::int) k`,
    [users.rows.map((r) => r.id), RULES / 1000],
  );
  await pool.query(
    `INSERT INTO notify_rules (user_id, name, events, channels, min_interval_seconds, enabled)
     SELECT 2, 'own ' || k, ARRAY['ignition.on', 'ignition.off', 'overspeed'], '[{"type":"inApp"}]'::jsonb, 600, false
       FROM generate_series(1, 10) k`,
  );
  // One untimed round of each kind first: in a quiet run (2026-11-27 10:31) the first round of each kind was
  // 13–18 % slower than its second (JIT, caches and the database's plans warming), which timed the warm-up, not
  // the rules. Then the timed rounds in the order none, rules, rules, none, so a drift of the machine's load
  // over the run weighs on both kinds alike.
  for (const warm of [false, true]) {
    await pool.query('UPDATE notify_rules SET enabled = $1', [warm]);
    await notifier.reload();
    await drive(gateway.ports.jt808);
  }
  const rates = { none: [] as number[], rules: [] as number[] };
  for (const round_ of ['none', 'rules', 'rules', 'none'] as const) {
    await pool.query('UPDATE notify_rules SET enabled = $1', [round_ === 'rules']);
    await notifier.reload();
    const rate = await drive(gateway.ports.jt808);
    rates[round_].push(rate);
    console.log(`${notifier.ruleCount} rules: ${Math.round(rate)} ACKed positions/s (${DEVICES} devices)`);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const without = mean(rates.none);
  const withRules = mean(rates.rules);
  const ratio = withRules / without;
  console.log(
    `mean: no rules ${Math.round(without)}/s, ${RULES + 10} rules ${Math.round(withRules)}/s; target: with rules ≥ 0.9 of without (${round(ratio, 3)}: ${ratio >= 0.9 ? 'met' : 'NOT met'}), ≥ 5000/s (${withRules >= 5000 ? 'met' : 'NOT met'})`,
  );

  // 2. 1,000 alarms in one second to a webhook receiver.
  const rule = await pool.query<{ id: string }>(
    `INSERT INTO notify_rules (user_id, name, events, channels) VALUES (1, 'bench webhook', ARRAY['alarm:1'], $1)
     RETURNING id::text AS id`,
    [JSON.stringify([{ type: 'webhook', url: `${hooks.url}/bench`, secret: SECRET }])],
  );
  await notifier.reload();
  const devices = (await pool.query<{ id: string }>('SELECT id::text AS id FROM devices ORDER BY id')).rows;
  const t0 = performance.now();
  for (let i = 0; i < ALARMS; i++) {
    const event: AlarmEvent = {
      type: 'alarm',
      id: `bench-${i}`,
      deviceId: devices[i % devices.length].id,
      terminalID: '',
      alarmType: 1,
      name: 'SOS',
      source: 'device',
      time: new Date().toISOString(),
      lat: 39.9,
      lon: 116.4,
      speed: 0,
      read: false,
    };
    ctx.bus.publish(Subjects.alarm, { path: '/1/2/', event } satisfies DeviceEnvelope<AlarmEvent>);
    if (i % 100 === 99) await new Promise((r) => setTimeout(r, 100 - ((performance.now() - t0) % 100)));
  }
  const published = performance.now() - t0;
  const deadline = Date.now() + 600_000;
  while (hooks.hooks.length < ALARMS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const last = Math.max(...hooks.hooks.map((h) => h.at));
  const lastMs = hooks.hooks.length >= ALARMS ? last - (performance.timeOrigin + t0) : Number.NaN;
  const bad = hooks.hooks.filter((h) => !h.signatureValid).length;
  const ids = new Set(hooks.hooks.map((h) => h.body.id)).size;
  const sent = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM notify_deliveries WHERE rule_id = $1 AND status = 'sent'`,
    [rule.rows[0].id],
  );
  console.log(
    `${ALARMS} alarms published in ${Math.round(published)} ms: ${hooks.hooks.length} webhooks received ` +
      `(${ids} distinct ids, ${bad} bad signatures, ${sent.rows[0].n} logged as sent); last delivery ${Math.round(lastMs)} ms after the first alarm`,
  );
  if (hooks.hooks.length < ALARMS) exitCode = 1;
  report('notify', withRules, 'positions/s', without, {
    rules: RULES + 10,
    alarms: ALARMS,
    lastDeliveryMs: Math.round(lastMs),
  });
} finally {
  await gateway.stop();
  await notifier.stop();
  await jobs.stop();
  await hooks.close();
  await close();
  await store.drop();
}
process.exit(exitCode);
