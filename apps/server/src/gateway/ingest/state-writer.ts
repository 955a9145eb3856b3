// Each device's last state (device_state), written coalesced: however many reports a device sends, its row is
// written at most once per flush interval. Online/offline changes are written at once and in order with the
// coalesced updates, so a closing session never overwrites a newer one's state. While the database is away they
// wait, in order, and are written when it returns (nobody waits on them: a login does not).
import type pg from 'pg';
import type { EventBus } from '../../bus/types.ts';
import { type DeviceEnvelope, type StateEvent, Subjects } from '../events.ts';
import { GroupTimer } from '../grouped.ts';
import { isTransient } from './batcher.ts';
import type { StatusPatch, StoredPosition } from './types.ts';

interface PendingState {
  lastSeen: number;
  pos: StoredPosition | null;
  acc?: boolean;
  battery?: number;
  mileage?: number;
  tyres?: unknown;
  batteryPack?: unknown;
  attributes?: Record<string, unknown>;
}

/** The incoming row carries a fix at least as new as the stored one. */
const NEWER = 'excluded.pos_time IS NOT NULL AND (s.pos_time IS NULL OR excluded.pos_time >= s.pos_time)';

const UPSERT_STATE = `INSERT INTO device_state AS s
  (device_id, online, last_seen, pos_time, lat, lon, altitude, speed, course, valid, satellites, location_type,
   acc, battery, mileage, tyres, battery_pack, attributes)
  SELECT x.d, false, to_timestamp(x.seen / 1000.0), to_timestamp(x.pt / 1000.0), x.la, x.lo, x.al, x.sp, x.co, x.va,
         x.sa, x.lt, x.ac, x.ba, x.mi, x.ty, x.bp, coalesce(x.at, '{}'::jsonb)
  FROM jsonb_to_recordset($1::jsonb) AS x(d bigint, seen float8, pt float8, la float8, lo float8, al real, sp real,
       co real, va bool, sa smallint, lt text, ac bool, ba real, mi float8, ty jsonb, bp jsonb, at jsonb)
  ON CONFLICT (device_id) DO UPDATE SET
    last_seen = greatest(s.last_seen, excluded.last_seen),
    pos_time = CASE WHEN ${NEWER} THEN excluded.pos_time ELSE s.pos_time END,
    lat = CASE WHEN ${NEWER} THEN excluded.lat ELSE s.lat END,
    lon = CASE WHEN ${NEWER} THEN excluded.lon ELSE s.lon END,
    altitude = CASE WHEN ${NEWER} THEN excluded.altitude ELSE s.altitude END,
    speed = CASE WHEN ${NEWER} THEN excluded.speed ELSE s.speed END,
    course = CASE WHEN ${NEWER} THEN excluded.course ELSE s.course END,
    valid = CASE WHEN ${NEWER} THEN excluded.valid ELSE s.valid END,
    satellites = CASE WHEN ${NEWER} THEN excluded.satellites ELSE s.satellites END,
    location_type = CASE WHEN ${NEWER} THEN excluded.location_type ELSE s.location_type END,
    acc = coalesce(excluded.acc, s.acc),
    battery = coalesce(excluded.battery, s.battery),
    mileage = coalesce(excluded.mileage, s.mileage),
    tyres = coalesce(excluded.tyres, s.tyres),
    battery_pack = coalesce(excluded.battery_pack, s.battery_pack),
    attributes = s.attributes || excluded.attributes`;

/** How long a login waits for its online-state write before going ahead without it (database unreachable). */
const ONLINE_WAIT_MS = 2000;

export interface LastPlace {
  lat: number | null;
  lon: number | null;
}

interface Transition {
  online: boolean;
  device: DeviceInfoForEvents;
  key: string;
  at: number;
  resolve: (place: LastPlace | null) => void;
  reject: (err: unknown) => void;
  /** When it was asked for (performance.now()). */
  since: number;
  /** Written (or failed): a login watch skips it. */
  settled?: boolean;
}

const noop = () => {};

export interface DeviceInfoForEvents {
  id: string;
  terminalId: string;
  path: string;
}

export class DeviceStateWriter {
  private pending = new Map<string, PendingState>();
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private flushing = false;
  private transitions: Transition[] = [];
  private transitionsScheduled = false;
  /** A batch of online/offline changes is being written; changes arriving meanwhile go in the next one. */
  private transitionsBusy = false;
  /** Logins waiting for their online write, oldest first (`watchLogin`). */
  private waitingLogins: Transition[] = [];
  private loginTimer: NodeJS.Timeout | undefined;
  private readonly groupTimer = new GroupTimer();
  private stopped = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly bus: EventBus,
    private readonly flushMs: number,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.flushing && this.pending.size > 0) void this.flush();
    }, this.flushMs);
    this.timer.unref();
  }

  /** Writes everything queued; later changes are ignored (the database is about to close). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.loginTimer) clearTimeout(this.loginTimer);
    this.stopped = true;
    const batch = this.transitions;
    this.transitions = [];
    if (batch.length > 0) await this.enqueue(() => this.writeTransitions(batch));
    await this.flush();
  }

  /** A committed record's latest fix and status (called by the batcher), or a heartbeat (pos null). */
  noteRecord(deviceId: string, pos: StoredPosition | null, status: StatusPatch | null, seenAt: number): void {
    let s = this.pending.get(deviceId);
    if (!s) {
      s = { lastSeen: seenAt, pos: null };
      this.pending.set(deviceId, s);
    }
    if (seenAt > s.lastSeen) s.lastSeen = seenAt;
    if (pos && (!s.pos || pos.time >= s.pos.time)) s.pos = pos;
    if (pos?.acc !== null && pos?.acc !== undefined) s.acc = pos.acc;
    if (pos?.battery !== null && pos?.battery !== undefined) s.battery = pos.battery;
    if (pos?.mileage !== null && pos?.mileage !== undefined) s.mileage = pos.mileage;
    if (status) {
      if (status.acc !== undefined) s.acc = status.acc;
      if (status.battery !== undefined) s.battery = status.battery;
      if (status.mileage !== undefined) s.mileage = status.mileage;
      if (status.tyres !== undefined) s.tyres = status.tyres;
      if (status.batteryPack !== undefined) s.batteryPack = status.batteryPack;
      if (status.attributes) s.attributes = { ...s.attributes, ...status.attributes };
    }
  }

  /** Writes the coalesced updates now. */
  flush(): Promise<void> {
    return this.enqueue(() => this.writePending());
  }

  /**
   * Marks the device online for this session (written at once, after any pending update). Resolves once written,
   * or as soon as the database fails to answer (a first failed attempt, or `ONLINE_WAIT_MS` without an answer):
   * the write then waits in order and catches up when the database is back.
   */
  setOnline(device: DeviceInfoForEvents, sessionKey: string, at: number): Promise<void> {
    return this.transition(true, device, sessionKey, at).then(noop);
  }

  /**
   * Marks the device offline if this session still owns it (a newer session elsewhere keeps it online).
   * Resolves to the last known position when the device went offline, null when it did not.
   */
  setOffline(device: DeviceInfoForEvents, sessionKey: string, at: number): Promise<LastPlace | null> {
    return this.transition(false, device, sessionKey, at);
  }

  /**
   * Online/offline changes are queued and written together (a reconnect storm after a restart is a few
   * statements, not one per device): one batch at a time, in order, after the pending coalesced updates; what
   * arrives during a write goes in the next batch.
   */
  private transition(online: boolean, device: DeviceInfoForEvents, key: string, at: number): Promise<LastPlace | null> {
    if (this.stopped) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const t: Transition = { online, device, key, at, resolve, reject, since: performance.now() };
      this.transitions.push(t);
      if (online) this.watchLogin(t);
      this.scheduleTransitions();
    });
  }

  /**
   * Logins whose online write has not answered within `ONLINE_WAIT_MS` go ahead (the write catches up later):
   * one timer for all of them, not one per login (a storm starts thousands a second).
   */
  private watchLogin(t: Transition): void {
    this.waitingLogins.push(t);
    if (this.loginTimer) return;
    const check = () => {
      const now = performance.now();
      let n = 0;
      while (n < this.waitingLogins.length) {
        const w = this.waitingLogins[n];
        if (!w.settled && now - w.since < ONLINE_WAIT_MS) break;
        if (!w.settled) w.resolve(null);
        n++;
      }
      this.waitingLogins.splice(0, n);
      this.loginTimer = this.waitingLogins.length > 0 ? setTimeout(check, ONLINE_WAIT_MS / 8) : undefined;
      this.loginTimer?.unref();
    };
    this.loginTimer = setTimeout(check, ONLINE_WAIT_MS / 8);
    this.loginTimer.unref();
  }

  private scheduleTransitions(): void {
    if (this.transitionsScheduled || this.transitionsBusy || this.stopped || this.transitions.length === 0) return;
    this.transitionsScheduled = true;
    this.groupTimer.run(() => {
      this.transitionsScheduled = false;
      if (this.stopped) return;
      const batch = this.transitions;
      this.transitions = [];
      this.transitionsBusy = true;
      void this.enqueue(() => this.writeTransitions(batch)).finally(() => {
        this.transitionsBusy = false;
        this.scheduleTransitions();
      });
    });
  }

  private async writeTransitions(batch: Transition[]): Promise<void> {
    await this.writePending().catch(this.onError);
    for (let i = 0; i < batch.length; ) {
      let j = i + 1;
      while (j < batch.length && batch[j].online === batch[i].online) j++;
      const run = batch.slice(i, j);
      // The database is away: wait for it (in order, later changes queue behind), unless the writer stops.
      for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
        try {
          if (run[0].online) await this.writeOnline(run);
          else await this.writeOffline(run);
          break;
        } catch (err) {
          if (!isTransient(err) || this.stopped) {
            for (const t of run) {
              t.settled = true;
              t.reject(err);
            }
            break;
          }
          this.onError(err);
          // Logins waiting for this write go ahead (the write catches up later); offline changes keep waiting.
          if (run[0].online)
            for (const t of run) {
              t.settled = true;
              t.resolve(null);
            }
          await new Promise((r) => setTimeout(r, delay));
        }
      }
      i = j;
    }
  }

  private async writeOnline(run: Transition[]): Promise<void> {
    const last = new Map<string, Transition>();
    for (const t of run) last.set(t.device.id, t);
    const rows = [...last.values()].map((t) => ({ d: t.device.id, at: t.at, k: t.key }));
    // The times come back as epoch milliseconds (a number parses faster than a timestamp in a storm).
    // A named statement: parsed and planned once per connection (a storm runs it a hundred times a second).
    const res = await this.pool.query<{ device_id: string; state_ms: number; seen_ms: number | null }>({
      name: 'gateway-online',
      text: `INSERT INTO device_state AS s (device_id, online, state_time, last_seen, session_key)
         SELECT x.d, true, to_timestamp(x.at / 1000.0), to_timestamp(x.at / 1000.0), x.k
           FROM jsonb_to_recordset($1::jsonb) AS x(d bigint, at float8, k text)
       ON CONFLICT (device_id) DO UPDATE SET
         online = true,
         session_key = excluded.session_key,
         last_seen = greatest(s.last_seen, excluded.last_seen),
         state_time = CASE WHEN s.online THEN s.state_time ELSE excluded.state_time END
       RETURNING device_id, (extract(epoch FROM state_time) * 1000)::float8 AS state_ms,
                 (extract(epoch FROM last_seen) * 1000)::float8 AS seen_ms`,
      values: [JSON.stringify(rows)],
    });
    for (const row of res.rows) {
      const t = last.get(String(row.device_id));
      if (t)
        this.publish(
          t.device,
          true,
          new Date(Math.floor(row.state_ms)),
          row.seen_ms === null ? null : new Date(Math.floor(row.seen_ms)),
        );
    }
    for (const t of run) {
      t.settled = true;
      t.resolve(null);
    }
  }

  private async writeOffline(run: Transition[]): Promise<void> {
    const rows = run.map((t) => ({ d: t.device.id, at: t.at, k: t.key }));
    const res = await this.pool.query<{
      device_id: string;
      k: string;
      last_seen: Date | null;
      lat: number | null;
      lon: number | null;
    }>(
      `UPDATE device_state s SET online = false, state_time = to_timestamp(x.at / 1000.0), session_key = NULL
         FROM jsonb_to_recordset($1::jsonb) AS x(d bigint, at float8, k text)
        WHERE s.device_id = x.d AND s.online AND s.session_key = x.k
       RETURNING s.device_id, x.k, s.last_seen, s.lat, s.lon`,
      [JSON.stringify(rows)],
    );
    const went = new Map(res.rows.map((r) => [`${r.device_id}|${r.k}`, r]));
    for (const t of run) {
      const row = went.get(`${t.device.id}|${t.key}`);
      if (!row) {
        t.resolve(null);
        continue;
      }
      this.publish(t.device, false, new Date(t.at), row.last_seen);
      t.resolve({ lat: row.lat, lon: row.lon });
    }
  }

  publish(device: DeviceInfoForEvents, online: boolean, stateTime: Date, lastSeen: Date | null): void {
    const event: StateEvent = {
      type: 'state',
      deviceId: device.id,
      terminalID: device.terminalId,
      online,
      stateTime: stateTime.toISOString(),
      lastSeen: lastSeen ? lastSeen.toISOString() : null,
    };
    this.bus.publish(Subjects.state, { path: device.path, event } satisfies DeviceEnvelope);
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.chain.then(job, job);
    this.chain = run.catch((err) => this.onError(err));
    return run;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = true;
    try {
      const rows: unknown[] = [];
      for (const [d, s] of batch) {
        const p = s.pos;
        rows.push({
          d,
          seen: s.lastSeen,
          pt: p?.time ?? null,
          la: p?.lat ?? null,
          lo: p?.lon ?? null,
          al: p?.altitude ?? null,
          sp: p?.speed ?? null,
          co: p?.course ?? null,
          va: p?.valid ?? null,
          sa: p?.satellites ?? null,
          lt: p?.locationType ?? null,
          ac: s.acc ?? null,
          ba: s.battery ?? null,
          mi: s.mileage ?? null,
          ty: s.tyres ?? null,
          bp: s.batteryPack ?? null,
          at: s.attributes ?? null,
        });
      }
      await this.pool.query(UPSERT_STATE, [JSON.stringify(rows)]);
    } catch (err) {
      // Put the updates back (newer ones that arrived meanwhile win) and try again at the next flush.
      for (const [d, s] of batch) if (!this.pending.has(d)) this.pending.set(d, s);
      throw err;
    } finally {
      this.flushing = false;
    }
  }
}
