// The notifier: listens to the bus (alarms, positions, state, commands, maintenance), matches each event with
// the rules in memory (indexed by owner path, so 10,000 rules cost a few map look-ups per event) and writes one
// delivery row per rule × channel. Rows are unique per (rule, event, channel), so several processes that all
// see the same bus event deliver it once; the rows are handed to the job queue in small batches (deliver.ts).
// Nothing here runs on the ingest path beyond a map look-up: positions only matter for ignition changes.
import { randomUUID } from 'node:crypto';
import { displayName, eventNamesOfAlarm, inQuietHours, isValidTimeZone } from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import {
  type AlarmEvent,
  type CommandEvent,
  type DeviceEnvelope,
  isDeviceEnvelope,
  type MaintenanceDueEvent,
  type PositionEvent,
  type StateEvent,
  Subjects,
} from '../../gateway/events.ts';
import { LIVE_NOTIFICATION_SUBJECT, type LiveNotification } from '../../gateway/live/hub.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { type ChannelSpec, type LoadedRule, loadRules, type NotifyPayload } from './store.ts';

/** API → notifiers: the rules changed; reload them. */
export const RULES_CHANGED_SUBJECT = 'notify.rules.changed';
export const DELIVER_JOB = 'notify.deliver';
export const OFFLINE_JOB = 'notify.offline';

const ADMIN_ROLE = 1;
const FINAL_COMMAND = new Set(['answered', 'timeout', 'failed', 'expired']);

/** One thing that happened to one device, with every event name it answers to. */
export interface Occurrence {
  names: string[];
  deviceId: string;
  /** The owner's hierarchy path when the bus told it. */
  path?: string;
  time: string;
  /** Unique per device for this happening: the same in every process that sees it. */
  key: string;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  alarmCode?: number;
  alarmName?: string;
  detail?: string;
  /** Only this rule (the delayed offline check). */
  ruleId?: string;
}

interface DeviceInfo {
  id: string;
  terminalId: string;
  name: string;
  deviceType: number;
  path: string;
  at: number;
}

class RuleIndex {
  private byPath = new Map<string, LoadedRule[]>();
  private admins: LoadedRule[] = [];
  readonly names = new Set<string>();
  readonly byId = new Map<string, LoadedRule>();

  constructor(rules: LoadedRule[]) {
    for (const r of rules) {
      this.byId.set(r.id, r);
      for (const e of r.events) this.names.add(e);
      if (r.role === ADMIN_ROLE) this.admins.push(r);
      else {
        const list = this.byPath.get(r.path);
        if (list) list.push(r);
        else this.byPath.set(r.path, [r]);
      }
    }
  }

  wants(name: string): boolean {
    return this.names.has(name);
  }

  /** Per owner path: does any rule naming ignition changes reach its devices? Memoized until the next reload. */
  private readonly ignitionAt = new Map<string, boolean>();

  /**
   * True when a rule that names `ignition.on` or `ignition.off` reaches devices of this owner path. The position
   * hot path asks it first: a position no rule cares about costs one map look-up.
   */
  ignitionReaches(path: string): boolean {
    let known = this.ignitionAt.get(path);
    if (known === undefined) {
      known = this.candidates(path, ['ignition.on', 'ignition.off']).length > 0;
      if (this.ignitionAt.size > 100_000) this.ignitionAt.clear();
      this.ignitionAt.set(path, known);
    }
    return known;
  }

  /** Rules whose owner reaches a device of this owner path and that name one of the names (the first it names). */
  candidates(path: string, names: string[]): { rule: LoadedRule; name: string }[] {
    const out: { rule: LoadedRule; name: string }[] = [];
    const take = (list: LoadedRule[] | undefined) => {
      for (const rule of list ?? []) {
        const name = names.find((n) => rule.events.includes(n));
        if (name) out.push({ rule, name });
      }
    };
    take(this.admins);
    // '/1/5/12/' → '/1/', '/1/5/', '/1/5/12/'
    for (let i = path.indexOf('/', 1); i > 0; i = path.indexOf('/', i + 1)) take(this.byPath.get(path.slice(0, i + 1)));
    return out;
  }
}

/** The WebSocket message of an in-app notification: the web titles it in the reader's language. */
function liveOf(userId: string, uid: string, p: NotifyPayload): LiveNotification {
  return {
    userId,
    message: {
      type: 'notification',
      id: uid,
      event: p.event,
      terminalID: p.terminalID,
      deviceName: p.deviceName,
      time: p.time,
      lat: p.lat,
      lon: p.lon,
      speed: p.speed,
      ...(p.detail !== undefined ? { detail: p.detail } : {}),
    },
  };
}

export class Notifier {
  private index = new RuleIndex([]);
  private readonly unsubscribe: (() => void)[] = [];
  private readonly acc = new Map<string, boolean>();
  private readonly devices = new Map<string, DeviceInfo>();
  /** Last notification per rule and device made by this process: a flapping device is skipped without a query. */
  private readonly lastLocal = new Map<string, number>();
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private inflight = new Set<Promise<unknown>>();
  /** First retry delay (seconds); doubles up to an hour, for 24 h. */
  retryBaseSeconds = 30;

  constructor(
    private readonly ctx: AppContext,
    private readonly jobs: JobQueue,
    private readonly onError: (err: unknown, what: string) => void,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    const bus = this.ctx.bus;
    this.unsubscribe.push(
      bus.subscribe(RULES_CHANGED_SUBJECT, () => this.track(this.reload())),
      bus.subscribe(Subjects.deviceChanged, () => this.devices.clear()),
      bus.subscribe(Subjects.alarm, (p) => this.onAlarm(p)),
      bus.subscribe(Subjects.position, (p) => this.onPosition(p)),
      bus.subscribe(Subjects.state, (p) => this.onState(p)),
      bus.subscribe(Subjects.command, (p) => this.onCommand(p)),
      bus.subscribe(Subjects.maintenanceDue, (p) => this.onMaintenance(p)),
    );
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe) u();
    await Promise.allSettled([...this.inflight]);
    await this.flush();
  }

  /** Waits until every event seen so far has its deliveries queued (tests, benchmarks). */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    await this.flush();
  }

  /** True when this process keeps the ACC state of the device (some ignition rule reaches it). */
  tracksAcc(deviceId: string): boolean {
    return this.acc.has(deviceId);
  }

  get ruleCount(): number {
    return this.index.byId.size;
  }

  async reload(): Promise<void> {
    this.index = new RuleIndex(await loadRules(this.ctx.dbHandle.pool));
  }

  /** Tells every process (this one included) that the rules changed. */
  changed(): void {
    this.ctx.bus.publish(RULES_CHANGED_SUBJECT, {});
  }

  private track(p: Promise<unknown>): void {
    const guarded = p.catch((err) => this.onError(err, 'notification failed'));
    this.inflight.add(guarded);
    void guarded.finally(() => this.inflight.delete(guarded));
  }

  private onAlarm(payload: unknown): void {
    if (!isDeviceEnvelope(payload) || payload.event.type !== 'alarm') return;
    const e = (payload as DeviceEnvelope<AlarmEvent>).event;
    const names = eventNamesOfAlarm(e.alarmType);
    if (!names.some((n) => this.index.wants(n))) return;
    this.track(
      this.handle({
        names,
        deviceId: e.deviceId,
        path: payload.path,
        time: e.time,
        key: `alarm:${e.id}`,
        lat: e.lat,
        lon: e.lon,
        speed: e.speed,
        alarmCode: e.alarmType,
        alarmName: e.name,
      }),
    );
  }

  private onPosition(payload: unknown): void {
    // The hot path: nothing unless some rule asks for ignition changes, then one memoized look-up of the owner path
    // (no rule reaching the device's owner: done), and the device's last ACC state.
    if (!this.index.wants('ignition.on') && !this.index.wants('ignition.off')) return;
    if (!isDeviceEnvelope(payload) || payload.event.type !== 'position') return;
    const e = (payload as DeviceEnvelope<PositionEvent>).event;
    if (e.acc === null || !this.index.ignitionReaches(payload.path)) return;
    const was = this.acc.get(e.deviceId);
    this.acc.set(e.deviceId, e.acc);
    if (was === undefined || was === e.acc) return;
    const name = e.acc ? 'ignition.on' : 'ignition.off';
    if (!this.index.wants(name)) return;
    this.track(
      this.handle({
        names: [name],
        deviceId: e.deviceId,
        path: payload.path,
        time: e.time,
        key: `acc:${e.time}`,
        lat: e.lat,
        lon: e.lon,
        speed: e.speed,
      }),
    );
  }

  private onState(payload: unknown): void {
    if (!isDeviceEnvelope(payload) || payload.event.type !== 'state') return;
    const e = (payload as DeviceEnvelope<StateEvent>).event;
    if (e.online) {
      if (!this.index.wants('online')) return;
      this.track(
        this.handle({
          names: ['online'],
          deviceId: e.deviceId,
          path: payload.path,
          time: e.stateTime,
          key: `online:${e.stateTime}`,
          lat: null,
          lon: null,
          speed: null,
        }),
      );
      return;
    }
    if (!this.index.wants('offline')) return;
    // Offline longer than N minutes: a delayed check on the queue per rule (survives restarts).
    this.track(this.scheduleOffline(e.deviceId, payload.path, e.stateTime));
  }

  private async scheduleOffline(deviceId: string, path: string, stateTime: string): Promise<void> {
    for (const { rule } of this.index.candidates(path, ['offline'])) {
      const minutes = rule.params.offlineMinutes ?? 10;
      await this.jobs.enqueue(
        OFFLINE_JOB,
        { ruleId: rule.id, deviceId, stateTime },
        { startAfterSeconds: Math.max(0, Math.round(minutes * 60)) },
      );
    }
  }

  /** The delayed offline check: still offline since the same change → the rule's `offline` event. */
  async checkOffline(data: { ruleId: string; deviceId: string; stateTime: string }): Promise<void> {
    const row = (
      await this.ctx.dbHandle.pool.query<{
        online: boolean;
        state_time: Date | null;
        lat: number | null;
        lon: number | null;
      }>('SELECT online, state_time, lat, lon FROM device_state WHERE device_id = $1', [data.deviceId])
    ).rows[0];
    if (!row || row.online || row.state_time?.toISOString() !== new Date(data.stateTime).toISOString()) return;
    await this.handle({
      names: ['offline'],
      deviceId: data.deviceId,
      time: data.stateTime,
      key: `offline:${data.stateTime}`,
      lat: row.lat,
      lon: row.lon,
      speed: null,
      ruleId: data.ruleId,
    });
  }

  private onCommand(payload: unknown): void {
    if (!this.index.wants('command.result')) return;
    if (!isDeviceEnvelope(payload) || payload.event.type !== 'command') return;
    const e = (payload as DeviceEnvelope<CommandEvent>).event;
    if (!FINAL_COMMAND.has(e.status)) return;
    this.track(
      this.handle({
        names: ['command.result'],
        deviceId: e.deviceId,
        path: payload.path,
        time: e.time,
        key: `command:${e.commandId}:${e.status}`,
        lat: null,
        lon: null,
        speed: null,
        detail: `${e.content} → ${e.status}${e.reply ? `: ${e.reply}` : ''}`,
      }),
    );
  }

  private onMaintenance(payload: unknown): void {
    if (!this.index.wants('maintenance')) return;
    const e = payload as MaintenanceDueEvent;
    if (typeof e?.deviceId !== 'string' || typeof e.itemId !== 'string') return;
    this.track(
      this.handle({
        names: ['maintenance'],
        deviceId: e.deviceId,
        time: e.time,
        key: `maintenance:${e.itemId}:${e.time}`,
        lat: null,
        lon: null,
        speed: null,
        detail: `${e.itemName} (${e.dueBy})`,
      }),
    );
  }

  /** Devices expiring within each `expiry.soon` rule's days (default 7): once per device and expiry date. */
  async checkExpiry(): Promise<void> {
    const pool = this.ctx.dbHandle.pool;
    for (const rule of this.index.byId.values()) {
      if (!rule.events.includes('expiry.soon')) continue;
      const days = rule.params.expiryDays ?? 7;
      const rows = (
        await pool.query<{ id: string; expire_at: Date }>(
          `SELECT d.id::text AS id, coalesce(d.user_expire_at, d.platform_expire_at) AS expire_at
             FROM devices d LEFT JOIN users u ON u.id = d.user_id
            WHERE coalesce(d.user_expire_at, d.platform_expire_at) BETWEEN now() AND now() + make_interval(days => $1)
              AND ($2 OR u.path LIKE $3)`,
          [days, rule.role === ADMIN_ROLE, `${rule.path}%`],
        )
      ).rows;
      for (const r of rows) {
        await this.handle({
          names: ['expiry.soon'],
          deviceId: r.id,
          time: new Date().toISOString(),
          key: `expiry:${r.expire_at.toISOString()}`,
          lat: null,
          lon: null,
          speed: null,
          detail: r.expire_at.toISOString(),
          ruleId: rule.id,
        });
      }
    }
  }

  private async device(id: string): Promise<DeviceInfo | undefined> {
    const cached = this.devices.get(id);
    if (cached && Date.now() - cached.at < 60_000) return cached;
    const row = (
      await this.ctx.dbHandle.pool.query<{
        terminal_id: string;
        nickname: string;
        car_number: string;
        device_type: number;
        path: string | null;
      }>(
        `SELECT d.terminal_id, d.nickname, d.car_number, d.device_type, u.path
           FROM devices d LEFT JOIN users u ON u.id = d.user_id WHERE d.id = $1`,
        [id],
      )
    ).rows[0];
    if (!row) return undefined;
    if (this.devices.size > 50_000) this.devices.clear();
    const info: DeviceInfo = {
      id,
      terminalId: row.terminal_id,
      name: displayName({ terminalID: row.terminal_id, carNumber: row.car_number, nickname: row.nickname }),
      deviceType: row.device_type,
      path: row.path ?? '',
      at: Date.now(),
    };
    this.devices.set(id, info);
    return info;
  }

  /** Matches one occurrence with the rules and queues its deliveries. */
  async handle(o: Occurrence): Promise<number> {
    let path = o.path;
    let device: DeviceInfo | undefined;
    if (path === undefined) {
      device = await this.device(o.deviceId);
      if (!device) return 0;
      path = device.path;
    }
    let candidates = this.index.candidates(path, o.names);
    if (o.ruleId) candidates = candidates.filter((c) => c.rule.id === o.ruleId);
    if (candidates.length === 0) return 0;
    device ??= await this.device(o.deviceId);
    if (!device) return 0;
    const at = Date.parse(o.time);
    // The rules' own checks first (in memory), then one query per distinct minimum interval and one insert for
    // every delivery row of the event, instead of a few queries per rule.
    const due: { rule: LoadedRule; payload: NotifyPayload }[] = [];
    const byInterval = new Map<number, string[]>();
    for (const { rule, name } of candidates) {
      if (rule.device_ids && !rule.device_ids.includes(o.deviceId)) continue;
      if (rule.device_types && !rule.device_types.includes(device.deviceType)) continue;
      const zone = isValidTimeZone(rule.time_zone) ? rule.time_zone : '+08:00';
      if (rule.quiet_from && rule.quiet_to && inQuietHours({ from: rule.quiet_from, to: rule.quiet_to }, at, zone)) {
        continue;
      }
      if (rule.min_interval_seconds > 0) {
        const previous = this.lastLocal.get(`${rule.id}:${o.deviceId}`);
        if (previous !== undefined && at - previous < rule.min_interval_seconds * 1000) continue;
        const group = byInterval.get(rule.min_interval_seconds);
        if (group) group.push(rule.id);
        else byInterval.set(rule.min_interval_seconds, [rule.id]);
      }
      due.push({
        rule,
        payload: {
          event: name === 'alarm:*' ? o.names[0] : name,
          terminalID: device.terminalId,
          deviceName: device.name,
          time: new Date(at).toISOString(),
          lat: o.lat,
          lon: o.lon,
          speed: o.speed,
          ...(o.alarmCode !== undefined ? { alarmCode: o.alarmCode, alarmName: o.alarmName } : {}),
          ...(o.detail !== undefined ? { detail: o.detail } : {}),
          lang: rule.lang,
          timeZone: zone,
        },
      });
    }
    if (due.length === 0) return 0;
    const passed = new Set<string>();
    for (const [seconds, ruleIds] of byInterval) {
      for (const id of await this.intervalPassed(ruleIds, seconds, o.deviceId, at)) {
        passed.add(id);
        if (this.lastLocal.size > 100_000) this.lastLocal.clear();
        this.lastLocal.set(`${id}:${o.deviceId}`, at);
      }
    }
    return this.queueMany(
      due
        .filter((d) => d.rule.min_interval_seconds === 0 || passed.has(d.rule.id))
        .map((d) => ({ ruleId: d.rule.id, ownerId: d.rule.user_id, channels: d.rule.channels, payload: d.payload })),
      `${o.deviceId}:${o.key}`,
      o.deviceId,
      false,
    );
  }

  /**
   * The rules (all of this minimum interval) whose last notification for this device is old enough; their time is
   * recorded in the same statement, so two processes cannot both pass.
   */
  private async intervalPassed(ruleIds: string[], seconds: number, deviceId: string, at: number): Promise<string[]> {
    const r = await this.ctx.dbHandle.pool.query<{ rule_id: string }>(
      `INSERT INTO notify_last (rule_id, device_id, last_at) SELECT unnest($1::bigint[]), $2, $3
       ON CONFLICT (rule_id, device_id) DO UPDATE SET last_at = EXCLUDED.last_at
        WHERE notify_last.last_at <= EXCLUDED.last_at - make_interval(secs => $4)
       RETURNING rule_id::text AS rule_id`,
      [ruleIds, deviceId, new Date(at), seconds],
    );
    return r.rows.map((row) => row.rule_id);
  }

  /** The deliveries of one rule's event (see queueMany). */
  async queueDeliveries(
    ruleId: string,
    ownerId: string,
    channels: ChannelSpec[],
    eventKey: string,
    deviceId: string | null,
    payload: NotifyPayload,
    test: boolean,
  ): Promise<number> {
    return this.queueMany([{ ruleId, ownerId, channels, payload }], eventKey, deviceId, test);
  }

  /**
   * One row per rule × channel, in one statement (a row another process wrote first is skipped); the rows go to
   * the queue. In-app rows of events that are not alarms (the live view pops alarms up by itself) go to the
   * owner's browsers through the WebSocket hubs of every process, once: only the process that wrote the row
   * publishes it.
   */
  private async queueMany(
    items: { ruleId: string; ownerId: string; channels: ChannelSpec[]; payload: NotifyPayload }[],
    eventKey: string,
    deviceId: string | null,
    test: boolean,
  ): Promise<number> {
    const cols = {
      rule: [] as string[],
      index: [] as number[],
      channel: [] as string[],
      event: [] as string[],
      uid: [] as string[],
      payload: [] as string[],
      target: [] as string[],
      status: [] as string[],
      response: [] as string[],
    };
    const live = new Map<string, LiveNotification>();
    for (const item of items) {
      const payload = JSON.stringify(item.payload);
      item.channels.forEach((channel, i) => {
        // In-app: logged as delivered; the live view shows it.
        const inApp = channel.type === 'inApp';
        const uid = randomUUID();
        cols.rule.push(item.ruleId);
        cols.index.push(i);
        cols.channel.push(channel.type);
        cols.event.push(item.payload.event);
        cols.uid.push(uid);
        cols.payload.push(payload);
        cols.target.push(JSON.stringify(channel));
        cols.status.push(inApp ? 'sent' : 'queued');
        cols.response.push(inApp ? 'live view' : '');
        if (inApp && item.payload.alarmCode === undefined) live.set(uid, liveOf(item.ownerId, uid, item.payload));
      });
    }
    if (cols.rule.length === 0) return 0;
    const rows = (
      await this.ctx.dbHandle.pool.query<{ id: string; uid: string; channel: string }>(
        `INSERT INTO notify_deliveries
           (rule_id, event_key, channel_index, channel, event, device_id, uid, payload, target, status, response, test)
         SELECT r, $2, i, c, e, $6::bigint, u, p, t, s, a, $12
           FROM unnest($1::bigint[], $3::smallint[], $4::text[], $5::text[], $7::text[], $8::jsonb[], $9::jsonb[],
                       $10::text[], $11::text[]) AS x(r, i, c, e, u, p, t, s, a)
         ON CONFLICT (rule_id, event_key, channel_index) DO NOTHING
         RETURNING id::text AS id, uid, channel`,
        [
          cols.rule,
          eventKey,
          cols.index,
          cols.channel,
          cols.event,
          deviceId,
          cols.uid,
          cols.payload,
          cols.target,
          cols.status,
          cols.response,
          test,
        ],
      )
    ).rows;
    for (const row of rows) {
      if (row.channel !== 'inApp') this.pending.push(row.id);
      else {
        const message = live.get(row.uid);
        if (message) this.ctx.bus.publish(LIVE_NOTIFICATION_SUBJECT, message);
      }
    }
    if (this.pending.length >= 200) await this.flush();
    else if (this.pending.length > 0 && !this.flushTimer) {
      this.flushTimer = setTimeout(() => this.track(this.flush()), 50);
    }
    return rows.length;
  }

  /** Hands the collected delivery rows to the queue, up to 50 a job. */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    while (this.pending.length > 0) {
      const ids = this.pending.splice(0, 50);
      await this.jobs.enqueue(DELIVER_JOB, { ids }, { retryLimit: 3 });
    }
  }
}
