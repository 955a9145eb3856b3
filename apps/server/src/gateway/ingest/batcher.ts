// The ingest batcher: positions and alarms of many devices written together, ACKs released after the commit.
//
// Group commit: a record arriving while no write is running is flushed on the next turn of the event loop;
// records arriving during a write wait for it and go in the next batch. Latency stays low at low load and
// batches grow by themselves under load. Positions are published to the bus when they arrive (live views do not
// wait for the disk); alarms after the commit (they need their row ids). A failed write is retried (connection trouble: forever, with
// back-off; a data error: the batch is split to isolate the bad record, which is dropped without an ACK).
import type pg from 'pg';
import type { EventBus } from '../../bus/types.ts';
import { INVALIDATE_SEGMENTS_SQL, notePastDay } from '../../modules/track/segments.ts';
import { ingestBatchSeconds, ingestRetries, positionsAcknowledged } from '../../ops/metrics.ts';
import { type AlarmEvent, type DeviceEnvelope, type PositionEvent, Subjects } from '../events.ts';
import type { PartitionManager } from './partitions.ts';
import type { DeviceStateWriter } from './state-writer.ts';
import type { IngestRecord, StoredPosition } from './types.ts';

export interface BatcherOptions {
  maxBatchRows: number;
  writers: number;
  highWaterRows: number;
  onError?: (err: unknown) => void;
  /**
   * Statistics (issue 13): mark the device-days a batch touched as dirty (table stat_dirty) in the same
   * statement or transaction as the fixes, so the roll-up job recomputes them; `onMarked` runs after a commit
   * that marked some (the statistics area uses it to request a roll-up). Off when absent.
   */
  statistics?: { onMarked(): void };
  /**
   * Track segments (issue 22): runs after a commit that stored fixes of closed days (their segments were cleared
   * in the same transaction), so the segments are built again before a query needs them. Off when absent.
   */
  segments?: { onPastDays(): void };
}

export interface BatcherStats {
  committedRows: number;
  committedBatches: number;
  droppedRecords: number;
  retries: number;
  /** Slowest batch write so far, ms (from taking the batch to its commit). */
  slowestWriteMs: number;
}

const DAY_MS = 86_400_000;

const INSERT_POSITIONS = `INSERT INTO positions
  (device_id, time, lat, lon, altitude, speed, course, valid, satellites, location_type, acc, mileage)
  SELECT d, to_timestamp(t / 1000.0), la, lo, al, sp, co, va, sa, lt, ac, mi
  FROM unnest($1::bigint[], $2::float8[], $3::float8[], $4::float8[], $5::real[], $6::real[], $7::real[],
              $8::bool[], $9::smallint[], $10::text[], $11::bool[], $12::float8[])
    AS u(d, t, la, lo, al, sp, co, va, sa, lt, ac, mi)
  ON CONFLICT DO NOTHING`;

const INSERT_ALARMS = `INSERT INTO alarms (device_id, type, name, source, time, lat, lon, speed, course)
  SELECT d, ty, na, so, to_timestamp(t / 1000.0), la, lo, sp, co
  FROM jsonb_to_recordset($1::jsonb) AS x(d bigint, ty smallint, na text, so text, t float8, la float8, lo float8, sp real, co real)
  ON CONFLICT DO NOTHING
  RETURNING id, device_id, type, name, source, time, lat, lon, speed`;

const MARK_DIRTY_FROM = `INSERT INTO stat_dirty (device_id, from_time, to_time)
  SELECT d, to_timestamp(f / 1000.0), to_timestamp(t / 1000.0)
  FROM unnest($DEV::bigint[], $FROM::float8[], $TO::float8[]) AS x(d, f, t)
  ON CONFLICT (device_id) DO UPDATE SET from_time = LEAST(stat_dirty.from_time, EXCLUDED.from_time),
    to_time = GREATEST(stat_dirty.to_time, EXCLUDED.to_time)`;

const MARK_DIRTY = MARK_DIRTY_FROM.replace('$DEV', '$1').replace('$FROM', '$2').replace('$TO', '$3');
/** Per device, the earliest and latest time a batch touched, as three array literals (device ids ascending). */
function dirtyParams(records: IngestRecord[]): string[] | null {
  const spans = new Map<string, [number, number]>();
  const note = (id: string, t: number) => {
    const span = spans.get(id);
    if (!span) spans.set(id, [t, t]);
    else if (t < span[0]) span[0] = t;
    else if (t > span[1]) span[1] = t;
  };
  for (const r of records) {
    for (const p of r.positions) note(r.device.id, p.time);
    for (const a of r.alarms) note(r.device.id, a.time);
  }
  if (spans.size === 0) return null;
  // Ascending ids: concurrent writers lock shared rows in one order (no deadlock).
  const ids = [...spans.keys()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  return [
    `{${ids.join(',')}}`,
    `{${ids.map((id) => spans.get(id)?.[0]).join(',')}}`,
    `{${ids.map((id) => spans.get(id)?.[1]).join(',')}}`,
  ];
}

/** SQL states worth retrying as they are: the connection or the server, not the data. */
export function isTransient(err: unknown): boolean {
  const code = String((err as { code?: string }).code ?? '');
  if (!code) return true; // socket errors, pool errors
  return /^(08|53|57|58|40)/.test(code) || code === 'ECONNREFUSED' || code === 'ECONNRESET';
}

const num = (v: number | null) => (v === null || !Number.isFinite(v) ? 'NULL' : String(v));
const bool = (v: boolean | null) => (v === null ? 'NULL' : v ? 't' : 'f');
const word = (v: string | null) => (v !== null && /^[a-z0-9]+$/i.test(v) ? v : 'NULL');

/** The twelve array literals of INSERT_POSITIONS, built as strings directly (no array per value). */
function positionParams(records: IngestRecord[]): string[] {
  let d = '';
  let t = '';
  let la = '';
  let lo = '';
  let al = '';
  let sp = '';
  let co = '';
  let va = '';
  let sa = '';
  let lt = '';
  let ac = '';
  let mi = '';
  let sep = '';
  for (const r of records) {
    const id = r.device.id;
    for (const p of r.positions) {
      d += sep + id;
      t += sep + p.time;
      la += sep + p.lat;
      lo += sep + p.lon;
      al += sep + num(p.altitude);
      sp += sep + num(p.speed);
      co += sep + num(p.course);
      va += p.valid ? `${sep}t` : `${sep}f`;
      sa += sep + num(p.satellites);
      lt += sep + word(p.locationType);
      ac += sep + bool(p.acc);
      mi += sep + num(p.mileage);
      sep = ',';
    }
  }
  return [d, t, la, lo, al, sp, co, va, sa, lt, ac, mi].map((c) => `{${c}}`);
}

function alarmParam(records: IngestRecord[]): string | null {
  const rows: unknown[] = [];
  for (const r of records) {
    for (const a of r.alarms) {
      rows.push({
        d: r.device.id,
        ty: a.type,
        na: a.name,
        so: a.source,
        t: a.time,
        la: a.lat,
        lo: a.lon,
        sp: a.speed,
        co: a.course,
      });
    }
  }
  return rows.length > 0 ? JSON.stringify(rows) : null;
}

interface AlarmRow {
  id: string;
  device_id: string;
  type: number;
  name: string;
  source: string;
  time: Date;
  lat: number | null;
  lon: number | null;
  speed: number | null;
}

export class IngestBatcher {
  private queue: IngestRecord[] = [];
  private queuedRows = 0;
  private inFlight = 0;
  private inFlightRows = 0;
  private scheduled = false;
  private closed = false;
  private closing = false;
  private readonly drainWaiters: (() => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  readonly stats: BatcherStats = {
    committedRows: 0,
    committedBatches: 0,
    droppedRecords: 0,
    retries: 0,
    slowestWriteMs: 0,
  };

  constructor(
    private readonly pool: pg.Pool,
    private readonly bus: EventBus,
    private readonly partitions: PartitionManager,
    private readonly state: DeviceStateWriter,
    private readonly opts: BatcherOptions,
  ) {}

  /** Positions waiting for or being written. */
  get pendingRows(): number {
    return this.queuedRows + this.inFlightRows;
  }

  /** True when sessions should stop reading until `whenRoom` resolves. */
  get overloaded(): boolean {
    return this.pendingRows >= this.opts.highWaterRows;
  }

  whenRoom(): Promise<void> {
    if (!this.overloaded) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  submit(record: IngestRecord): void {
    if (this.closed) {
      record.done?.(new Error('ingest is closed'));
      return;
    }
    this.queue.push(record);
    this.queuedRows += record.positions.length;
    // Live views get the fix at once; the device's ACK still waits for the commit. (A fix whose write fails
    // is not ACKed, so the device sends it again: a browser may see it twice, never miss a stored one.)
    if (record.positions.length > 0) this.publishPositions(record);
    this.schedule();
  }

  /** Resolves when everything submitted so far has been written (or dropped). */
  async flush(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Writes what is queued; a write that cannot reach the database gives up instead of retrying forever. */
  async close(): Promise<void> {
    this.closing = true;
    await this.flush();
    this.closed = true;
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.opts.writers || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.opts.writers && this.queue.length > 0) {
      const batch = this.take();
      this.inFlight++;
      const rows = batch.reduce((n, r) => n + r.positions.length, 0);
      this.inFlightRows += rows;
      this.writeWithRetry(batch).finally(() => {
        this.inFlight--;
        this.inFlightRows -= rows;
        this.afterWrite();
      });
    }
  }

  private take(): IngestRecord[] {
    let rows = 0;
    let n = 0;
    while (n < this.queue.length) {
      const size = this.queue[n].positions.length;
      if (n > 0 && rows + size > this.opts.maxBatchRows) break;
      rows += size;
      n++;
    }
    const batch = this.queue.slice(0, n);
    this.queue = n === this.queue.length ? [] : this.queue.slice(n);
    this.queuedRows -= rows;
    return batch;
  }

  private afterWrite(): void {
    if (!this.overloaded) {
      for (const w of this.drainWaiters.splice(0)) w();
    }
    if (this.queue.length > 0) this.schedule();
    else if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private async writeWithRetry(batch: IngestRecord[]): Promise<void> {
    let delay = 50;
    for (let attempt = 1; ; attempt++) {
      try {
        const started = performance.now();
        const alarms = await this.write(batch);
        const took = performance.now() - started;
        if (took > this.stats.slowestWriteMs) this.stats.slowestWriteMs = took;
        ingestBatchSeconds.observe(took / 1000);
        this.committed(batch, alarms);
        return;
      } catch (err) {
        this.opts.onError?.(err);
        this.stats.retries++;
        ingestRetries.inc();
        if (!isTransient(err)) {
          if (batch.length > 1) {
            const half = Math.ceil(batch.length / 2);
            await this.writeWithRetry(batch.slice(0, half));
            await this.writeWithRetry(batch.slice(half));
            return;
          }
          if (attempt >= 3) {
            this.stats.droppedRecords++;
            batch[0].done?.(err instanceof Error ? err : new Error(String(err)));
            return;
          }
        }
        if (this.closing) {
          this.stats.droppedRecords += batch.length;
          for (const r of batch) r.done?.(new Error('ingest closed while the database was unavailable'));
          return;
        }
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private async write(batch: IngestRecord[]): Promise<AlarmRow[]> {
    let hasPositions = false;
    const times: number[] = [];
    // Fixes for days that have ended invalidate those days' cached track segments, in the same transaction.
    const todayStart = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    let pastDays: Map<string, { d: string; day: string }> | null = null;
    for (const r of batch) {
      if (r.positions.length > 0) hasPositions = true;
      for (const p of r.positions) {
        times.push(p.time);
        if (p.time < todayStart) {
          pastDays ??= new Map();
          notePastDay(r.device.id, p.time, pastDays);
        }
      }
    }
    if (hasPositions) await this.partitions.ensure(times);
    const alarms = alarmParam(batch);
    const dirty = this.opts.statistics ? dirtyParams(batch) : null;
    if (!alarms && !pastDays && !dirty) {
      if (hasPositions) await this.pool.query(INSERT_POSITIONS, positionParams(batch));
      return [];
    }
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      if (hasPositions) await client.query(INSERT_POSITIONS, positionParams(batch));
      if (pastDays) await client.query(INVALIDATE_SEGMENTS_SQL, [JSON.stringify([...pastDays.values()])]);
      const inserted = alarms ? (await client.query<AlarmRow>(INSERT_ALARMS, [alarms])).rows : [];
      // The marks last, just before the commit: every batch of a busy fleet marks the same devices, and their rows
      // stay locked from the mark to the commit, so the concurrent writers queue behind each other only for that
      // moment (marking in the positions statement held them for the whole insert: measured 0.54 of the unmarked
      // ingest rate on a loaded machine, 0.9–1.0 on a quiet one).
      if (dirty) await client.query(MARK_DIRTY, dirty);
      await client.query('COMMIT');
      if (pastDays) this.opts.segments?.onPastDays();
      return inserted;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  private committed(batch: IngestRecord[], alarms: AlarmRow[]): void {
    let rows = 0;
    for (const r of batch) {
      rows += r.positions.length;
      r.done?.();
    }
    this.stats.committedRows += rows;
    positionsAcknowledged.inc(rows);
    this.stats.committedBatches++;
    if (this.opts.statistics) this.opts.statistics.onMarked();
    for (const r of batch) {
      const latest = latestPosition(r.positions);
      this.state.noteRecord(r.device.id, latest, r.status, r.receivedAt);
    }
    if (alarms.length > 0) this.publishAlarms(batch, alarms);
  }

  private publishPositions(r: IngestRecord): void {
    const receivedAt = new Date(r.receivedAt).toISOString();
    for (const p of r.positions) {
      const event: PositionEvent = {
        type: 'position',
        deviceId: r.device.id,
        terminalID: r.device.terminalId,
        time: new Date(p.time).toISOString(),
        lat: p.lat,
        lon: p.lon,
        speed: p.speed,
        course: p.course,
        altitude: p.altitude,
        valid: p.valid,
        locationType: p.locationType,
        acc: p.acc,
        battery: p.battery,
        receivedAt,
      };
      this.bus.publish(Subjects.position, { path: r.device.path, event } satisfies DeviceEnvelope);
    }
  }

  private publishAlarms(batch: IngestRecord[], rows: AlarmRow[]): void {
    const devices = new Map(batch.map((r) => [r.device.id, r.device]));
    for (const row of rows) {
      const device = devices.get(String(row.device_id));
      if (!device) continue;
      publishAlarm(this.bus, device, row);
    }
  }
}

export function publishAlarm(
  bus: EventBus,
  device: { id: string; terminalId: string; path: string },
  row: Omit<AlarmRow, 'device_id'>,
): void {
  const event: AlarmEvent = {
    type: 'alarm',
    id: String(row.id),
    deviceId: device.id,
    terminalID: device.terminalId,
    alarmType: row.type,
    name: row.name,
    source: row.source,
    time: row.time.toISOString(),
    lat: row.lat,
    lon: row.lon,
    speed: row.speed,
    read: false,
  };
  bus.publish(Subjects.alarm, { path: device.path, event } satisfies DeviceEnvelope);
}

function latestPosition(positions: StoredPosition[]): StoredPosition | null {
  let best: StoredPosition | null = null;
  for (const p of positions) if (!best || p.time >= best.time) best = p;
  return best;
}
