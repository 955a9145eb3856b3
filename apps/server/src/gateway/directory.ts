// Registered devices by terminal ID, cached. One DeviceRef object per device is shared by every holder
// (sessions, the batcher) and refreshed in place, so an ownership change (transfer) reaches live filtering
// within `refreshMs` without reconnecting the device.
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { GroupTimer } from './grouped.ts';

export interface DeviceRef {
  id: string;
  terminalId: string;
  /** devices.protocol: 0 other, 1 808, 2 GT06, 3 808 long-standby, 4 BSJ */
  protocol: number;
  nbDeviceId: string | null;
  /** devices.device_type: the model code (NB-IoT models have no TCP session). */
  deviceType: number;
  /** Time zone (hours east of UTC) configured on the device. */
  timeZone: number;
  /** Speed limit (km/h) above which the device overspeeds (devices.speed_limit, issue 13). */
  speedLimit: number;
  /** Owner's hierarchy path ('/1/2/'), or '' when the device has no owner (admin sees it). */
  path: string;
  activated: boolean;
  /** Set when the row disappeared (deleted device); sessions holding it close. */
  deleted: boolean;
  /** JT/T 808 authentication code issued to the device (devices.jt808_auth_code), read with the device. */
  jt808AuthCode?: string | null;
  /** Read by the preload and not asked for since (dropped from the cache if nobody asks within 10 minutes). */
  preloaded?: boolean;
}

interface DeviceRow {
  id: string;
  terminal_id: string;
  protocol: number;
  nb_device_id: string | null;
  device_type: number;
  time_zone: number;
  speed_limit: number;
  path: string | null;
  /** devices.activated_at is set (read as a flag: a storm reads thousands of rows, and a time costs a parse). */
  activated: boolean;
  jt808_auth_code: string | null;
}

const NEGATIVE_TTL_MS = 10_000;
/** Preloaded devices nobody asked for within this long are dropped (another process holds their sessions). */
const PRELOAD_KEEP_MS = 10 * 60_000;
/** Directory queries in flight at once; lookups arriving meanwhile wait and go together in the next one. */
const LOOKUPS_IN_FLIGHT = 2;

interface Lookup {
  resolve: (ref: DeviceRef | null) => void;
  reject: (err: unknown) => void;
}

/** JT/T 808 headers carry the number BCD-padded with leading zeros ('012345678901'); devices register it without. */
export function terminalIdCandidates(terminalId: string): string[] {
  const trimmed = terminalId.replace(/^0+(?=\d)/, '');
  return trimmed === terminalId ? [terminalId] : [terminalId, trimmed];
}

export class DeviceDirectory {
  private readonly byTerminal = new Map<string, DeviceRef>();
  private readonly byId = new Map<string, DeviceRef>();
  private readonly byNbId = new Map<string, DeviceRef>();
  private readonly missing = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private lookups = new Map<string, Lookup[]>();
  private lookupScheduled = false;
  private lookupsInFlight = 0;
  private readonly groupTimer = new GroupTimer();
  private preloadTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: Pick<AppContext, 'db'>,
    private readonly refreshMs = 30_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.refreshAll().catch(() => {});
    }, this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.preloadTimer) clearTimeout(this.preloadTimer);
  }

  /**
   * Reads the devices seen in the last `hours` (most recent first, at most `limit`) into the cache in one query:
   * after a restart or a failover those are the devices about to reconnect all at once, and each login then finds
   * its device without waiting for a lookup (a storm's logins cost the database nothing but the online writes).
   * Resolves to the number of devices read.
   */
  async preload(limit: number, hours = 24): Promise<number> {
    if (limit <= 0) return 0;
    const rows = await this.baseQuery()
      .innerJoin('device_state as s', 's.device_id', 'd.id')
      .where('s.last_seen', '>', sql<Date>`now() - make_interval(hours => ${hours})`)
      .orderBy('s.last_seen', 'desc')
      .limit(limit)
      .execute();
    for (const row of rows) {
      const ref = this.remember(row);
      ref.preloaded = true;
    }
    // With several gateway processes each preloads every recent device but serves only some: what nobody asked
    // this process for is dropped after a while, so the cache (and its periodic refresh) is what it serves.
    if (this.preloadTimer) clearTimeout(this.preloadTimer);
    this.preloadTimer = setTimeout(() => this.dropUnused(), PRELOAD_KEEP_MS);
    this.preloadTimer.unref();
    return rows.length;
  }

  /** Drops preloaded devices nobody asked for (not marked deleted: no session holds them). */
  dropUnused(): number {
    let dropped = 0;
    for (const ref of [...this.byId.values()]) {
      if (!ref.preloaded) continue;
      this.byId.delete(ref.id);
      // Never asked for, so never stored under a padded JT/T 808 number either.
      if (this.byTerminal.get(ref.terminalId) === ref) this.byTerminal.delete(ref.terminalId);
      if (ref.nbDeviceId && this.byNbId.get(ref.nbDeviceId) === ref) this.byNbId.delete(ref.nbDeviceId);
      dropped++;
    }
    return dropped;
  }

  /**
   * The registered device for a terminal ID, or null (negative answers are cached for 10 s). Lookups are grouped
   * (a reconnect storm after a restart): those of one event-loop turn (a few ms in a storm) share one query, and
   * while two queries are running, new lookups wait and go together in the next one.
   */
  find(terminalId: string): Promise<DeviceRef | null> {
    const cached = this.byTerminal.get(terminalId) ?? this.paddedJt808(terminalId);
    if (cached && !cached.deleted) {
      cached.preloaded = false;
      return Promise.resolve(cached);
    }
    const missAt = this.missing.get(terminalId);
    if (missAt !== undefined && Date.now() - missAt < NEGATIVE_TTL_MS) return Promise.resolve(null);
    let waiting = this.lookups.get(terminalId);
    if (!waiting) {
      waiting = [];
      this.lookups.set(terminalId, waiting);
    }
    return new Promise((resolve, reject) => {
      (waiting as Lookup[]).push({ resolve, reject });
      this.scheduleLookup();
    });
  }

  /**
   * A JT/T 808 header's zero-padded number ('013900000000') whose device is cached under its registered number
   * (preloaded): the lookup would find the same device (it prefers an exact match, which a preloaded fleet does
   * not have).
   */
  private paddedJt808(terminalId: string): DeviceRef | undefined {
    const candidates = terminalIdCandidates(terminalId);
    if (candidates.length < 2) return undefined;
    const ref = this.byTerminal.get(candidates[1]);
    return ref && (ref.protocol === 1 || ref.protocol === 3) ? ref : undefined;
  }

  private scheduleLookup(): void {
    if (this.lookupScheduled || this.lookupsInFlight >= LOOKUPS_IN_FLIGHT || this.lookups.size === 0) return;
    this.lookupScheduled = true;
    this.groupTimer.run(() => {
      this.lookupScheduled = false;
      const batch = this.lookups;
      this.lookups = new Map();
      this.lookupsInFlight++;
      this.lookUp(batch)
        .catch((err) => {
          for (const ws of batch.values()) for (const w of ws) w.reject(err);
        })
        .finally(() => {
          this.lookupsInFlight--;
          this.scheduleLookup();
        });
    });
  }

  private async lookUp(batch: Map<string, Lookup[]>): Promise<void> {
    const wanted = [...batch.keys()];
    const candidates = [...new Set(wanted.flatMap(terminalIdCandidates))];
    const rows = [];
    for (let i = 0; i < candidates.length; i += 5000) {
      const slice = candidates.slice(i, i + 5000);
      rows.push(...(await this.query((q) => q.where('d.terminal_id', '=', sql<string>`any(${slice}::text[])`))));
    }
    const byTerminal = new Map(rows.map((r) => [r.terminal_id, r]));
    for (const [terminalId, waiters] of batch) {
      // Prefer the exact match over the zero-stripped one.
      const row = terminalIdCandidates(terminalId)
        .map((c) => byTerminal.get(c))
        .find((r) => r !== undefined);
      let ref: DeviceRef | null = null;
      if (row) {
        ref = this.remember(row);
        if (terminalId !== ref.terminalId) this.byTerminal.set(terminalId, ref);
      } else {
        this.missing.set(terminalId, Date.now());
        if (this.missing.size > 100_000) this.missing.clear();
      }
      for (const w of waiters) w.resolve(ref);
    }
  }

  async findByNbDeviceId(nbDeviceId: string): Promise<DeviceRef | null> {
    const cached = this.byNbId.get(nbDeviceId);
    if (cached && !cached.deleted) {
      cached.preloaded = false;
      return cached;
    }
    const rows = await this.query((q) => q.where('d.nb_device_id', '=', nbDeviceId));
    return rows[0] ? this.remember(rows[0]) : null;
  }

  /** Re-reads one device (after a device.changed notice) or, without arguments, every cached device. */
  async refresh(notice: { terminalID?: string; deviceId?: string } = {}): Promise<void> {
    if (notice.terminalID) this.missing.delete(notice.terminalID);
    const ref = notice.deviceId
      ? this.byId.get(notice.deviceId)
      : notice.terminalID
        ? this.byTerminal.get(notice.terminalID)
        : undefined;
    if (ref) await this.reload([ref.id]);
    else if (!notice.deviceId && !notice.terminalID) await this.refreshAll();
  }

  private async refreshAll(): Promise<void> {
    const ids = [...this.byId.keys()];
    for (let i = 0; i < ids.length; i += 10_000) await this.reload(ids.slice(i, i + 10_000));
  }

  private async reload(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.query((q) => q.where('d.id', '=', sql<string>`any(${ids}::bigint[])`));
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.id);
      this.remember(row);
    }
    for (const id of ids) {
      if (seen.has(id)) continue;
      const ref = this.byId.get(id);
      if (ref) this.forget(ref);
    }
  }

  private forget(ref: DeviceRef): void {
    ref.deleted = true;
    this.byId.delete(ref.id);
    for (const [k, v] of this.byTerminal) if (v === ref) this.byTerminal.delete(k);
    if (ref.nbDeviceId) this.byNbId.delete(ref.nbDeviceId);
  }

  private remember(row: DeviceRow): DeviceRef {
    const fields = {
      id: row.id,
      terminalId: row.terminal_id,
      protocol: row.protocol,
      nbDeviceId: row.nb_device_id,
      deviceType: row.device_type,
      timeZone: row.time_zone,
      speedLimit: row.speed_limit,
      path: row.path ?? '',
      activated: row.activated,
      deleted: false,
      jt808AuthCode: row.jt808_auth_code,
    };
    let ref = this.byId.get(row.id);
    if (ref) {
      if (ref.terminalId !== row.terminal_id) this.byTerminal.delete(ref.terminalId);
      if (ref.nbDeviceId && ref.nbDeviceId !== row.nb_device_id) this.byNbId.delete(ref.nbDeviceId);
      Object.assign(ref, fields);
    } else {
      ref = fields;
      this.byId.set(row.id, ref);
    }
    this.byTerminal.set(row.terminal_id, ref);
    if (row.nb_device_id) this.byNbId.set(row.nb_device_id, ref);
    this.missing.delete(row.terminal_id);
    return ref;
  }

  private query(
    where: (q: ReturnType<DeviceDirectory['baseQuery']>) => ReturnType<DeviceDirectory['baseQuery']>,
  ): Promise<DeviceRow[]> {
    return where(this.baseQuery()).execute();
  }

  private baseQuery() {
    return this.ctx.db
      .selectFrom('devices as d')
      .leftJoin('users as u', 'u.id', 'd.user_id')
      .select([
        'd.id',
        'd.terminal_id',
        'd.protocol',
        'd.nb_device_id',
        'd.device_type',
        'd.time_zone',
        'd.speed_limit',
        'u.path',
        sql<boolean>`d.activated_at IS NOT NULL`.as('activated'),
        'd.jt808_auth_code',
      ]);
  }
}
