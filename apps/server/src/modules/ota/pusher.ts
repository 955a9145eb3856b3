// The gateway side of JT/T 808 remote upgrades. An OTA item of a JT/T 808 terminal is pushed on the connection
// that holds the terminal: when the task starts (bus 'ota.push') or when the terminal connects with an open item
// (restart-safe: the state is in task_items / ota_items, nothing in memory survives or needs to). The 0x8108 body
// goes out as sub-packages with consecutive serials reserved at the start, at most WINDOW unanswered at a time;
// each 0x0001 answering a part frees a slot; a 2019 terminal's 0x0005 gets the parts it names again, and parts
// left unanswered for partTimeoutMs (or three smoothed round trips, when longer) are sent again (2013 terminals
// have no 0x0005). The terminal's 0x0108 ends the
// item: result 0 success, anything else failed. Progress is written at most once a second for all pushes at once.

import type { DecodedMessage } from '@carhere/protocols';
import { type Jt808Version, jt808PartCount, jt808SubPackage, jt808UpgradeBody } from '@carhere/protocols';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { GroupedReads } from '../../gateway/grouped.ts';
import type { Session } from '../../gateway/session.ts';

export const OTA_PUSH_SUBJECT = 'ota.push';
export interface OtaPushRequest {
  itemId: string;
  deviceId: string;
}

interface Registry {
  sessionOf(deviceId: string): unknown;
}

interface Firmware {
  id: string;
  version: string;
  upgradeType: number;
  manufacturer: string;
  data: Uint8Array;
  bodies: Map<Jt808Version, Uint8Array>;
}

interface Job {
  itemId: string;
  session: Session;
  terminalId: string;
  version: Jt808Version;
  body: Uint8Array;
  total: number;
  firstSerial: number;
  acked: Uint8Array;
  ackedCount: number;
  /** Part index (1-based) → time sent, for parts awaiting their 0x0001. */
  inflight: Map<number, number>;
  next: number;
  resent: number;
  rounds: number;
  lastProgress: number;
  /** Smoothed time from a part's sending to its 0x0001 (ms); the re-send timeout follows it under load. */
  srtt: number;
  bytesSent: number;
  dirty: boolean;
  done: boolean;
}

export interface OtaPusherOptions {
  /** Parts unanswered for this long are sent again. */
  partTimeoutMs: number;
  /** Rounds of resending without any progress before the item times out. */
  maxIdleRounds: number;
  window: number;
}

const DEFAULTS: OtaPusherOptions = { partTimeoutMs: 2000, maxIdleRounds: 15, window: 32 };

export class OtaPusher {
  private readonly jobs = new Map<string, Job>();
  private readonly firmware = new Map<string, Promise<Firmware | null>>();
  private readonly unsubscribe: () => void;
  private readonly timer: NodeJS.Timeout;
  private readonly options: OtaPusherOptions;
  /** Each connecting terminal's latest open upgrade item, read together for many (a reconnect storm). */
  private readonly pendingItems = new GroupedReads<string | undefined>(async (ids) => {
    const rows = await sql<{ device_id: string; id: string }>`
      SELECT DISTINCT ON (ti.device_id) ti.device_id, ti.id FROM task_items ti JOIN tasks t ON t.id = ti.task_id
       WHERE ti.device_id = any(${ids}::bigint[]) AND t.kind = 'ota' AND ti.command_id IS NULL
         AND ti.state IN ('pending', 'sent') AND t.cancelled_at IS NULL AND t.expires_at > now()
       ORDER BY ti.device_id, ti.id DESC`.execute(this.ctx.db);
    return new Map(rows.rows.map((r) => [String(r.device_id), String(r.id)]));
  }, undefined);

  constructor(
    private readonly ctx: AppContext,
    private readonly registry: Registry,
    private readonly onError: (err: unknown) => void,
    options: Partial<OtaPusherOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.unsubscribe = ctx.bus.subscribe(OTA_PUSH_SUBJECT, (payload) => {
      const req = payload as OtaPushRequest;
      if (typeof req?.itemId !== 'string' || typeof req.deviceId !== 'string') return;
      const session = this.registry.sessionOf(req.deviceId) as Session | undefined;
      if (session?.device) this.startItem(session, req.itemId).catch(this.onError);
    });
    this.timer = setInterval(() => this.tick(), 500);
    this.timer.unref?.();
  }

  stop(): void {
    this.unsubscribe();
    clearInterval(this.timer);
    this.flush().catch(this.onError);
  }

  /** A terminal connected: push its newest open OTA item, if any. */
  async onBound(session: Session): Promise<void> {
    const device = session.device;
    if (!device || !session.codec.jt808Link) return;
    const id = await this.pendingItems.get(device.id);
    if (id !== undefined) await this.startItem(session, String(id));
  }

  private loadFirmware(id: string): Promise<Firmware | null> {
    let f = this.firmware.get(id);
    if (!f) {
      f = this.ctx.db
        .selectFrom('ota_firmware')
        .select(['id', 'version', 'upgrade_type', 'manufacturer', 'data'])
        .where('id', '=', id)
        .executeTakeFirst()
        .then((row) => {
          if (!row) {
            this.firmware.delete(id);
            return null;
          }
          return {
            id: String(row.id),
            version: row.version,
            upgradeType: row.upgrade_type,
            manufacturer: row.manufacturer,
            data: row.data,
            bodies: new Map(),
          };
        });
      this.firmware.set(id, f);
      // Keep a few firmware images only (a push of one image to many terminals shares it).
      if (this.firmware.size > 8) this.firmware.delete(this.firmware.keys().next().value as string);
    }
    return f;
  }

  private async startItem(session: Session, itemId: string): Promise<void> {
    const link = session.codec.jt808Link?.();
    if (!link || session.socket.destroyed) return;
    const current = this.jobs.get(session.key);
    if (current && !current.done && current.itemId === itemId) return;
    const item = await sql<{ firmware_id: string; state: string }>`
      SELECT o.firmware_id, ti.state FROM ota_items o JOIN task_items ti ON ti.id = o.item_id
       WHERE o.item_id = ${itemId}`.execute(this.ctx.db);
    const row = item.rows[0];
    if (!row || (row.state !== 'pending' && row.state !== 'sent')) return;
    const firmware = await this.loadFirmware(String(row.firmware_id));
    if (!firmware || session.socket.destroyed) return;
    let body = firmware.bodies.get(link.version);
    if (!body) {
      body = jt808UpgradeBody(
        {
          type: firmware.upgradeType,
          manufacturer: firmware.manufacturer,
          version: firmware.version,
          firmware: firmware.data,
        },
        link.version,
      );
      firmware.bodies.set(link.version, body);
    }
    const total = jt808PartCount(body.length);
    // Consecutive serials for the parts, reserved now (retransmissions reuse their part's serial).
    const firstSerial = link.nextSerial();
    for (let i = 1; i < total; i++) link.nextSerial();
    const job: Job = {
      itemId,
      session,
      terminalId: link.terminalId,
      version: link.version,
      body,
      total,
      firstSerial,
      acked: new Uint8Array(total + 1),
      ackedCount: 0,
      inflight: new Map(),
      next: 1,
      resent: 0,
      rounds: 0,
      lastProgress: Date.now(),
      srtt: 0,
      bytesSent: 0,
      dirty: true,
      done: false,
    };
    this.jobs.set(session.key, job);
    await sql`
      UPDATE task_items SET state = 'sent', sent_at = now(), detail = ${`upgrade push started (${total} sub-packages)`}
       WHERE id = ${itemId} AND state IN ('pending', 'sent')`.execute(this.ctx.db);
    await sql`UPDATE ota_items SET packets_total = ${total}, packets_acked = 0, updated_at = now()
               WHERE item_id = ${itemId}`.execute(this.ctx.db);
    this.fill(job);
  }

  private send(job: Job, index: number): void {
    const serial = (job.firstSerial + index - 1) & 0xffff;
    const frame = jt808SubPackage(0x8108, job.terminalId, job.version, serial, job.body, index);
    job.inflight.set(index, Date.now());
    job.bytesSent += frame.length;
    job.session.socket.write(frame);
  }

  /** Sends new parts while the window has room. */
  private fill(job: Job): void {
    if (job.session.socket.destroyed) return;
    job.session.socket.cork();
    while (job.inflight.size < this.options.window && job.next <= job.total) {
      if (!job.acked[job.next]) this.send(job, job.next);
      job.next++;
    }
    job.session.socket.uncork();
  }

  /** Every message of an admitted device: 0x0001 for a part, 0x0005, 0x0108. */
  onMessage(session: Session, msg: DecodedMessage): void {
    const job = this.jobs.get(session.key);
    if (!job || job.done) return;
    const reply = msg.commandReply;
    if (msg.messageId === 0x0001 && reply?.answeredMessageId === 0x8108 && reply.answeredSerial !== undefined) {
      const index = ((reply.answeredSerial - job.firstSerial) & 0xffff) + 1;
      if (index < 1 || index > job.total) return;
      const sentAt = job.inflight.get(index);
      if (sentAt !== undefined) {
        const rtt = Date.now() - sentAt;
        job.srtt = job.srtt === 0 ? rtt : job.srtt * 0.875 + rtt * 0.125;
      }
      job.inflight.delete(index);
      if (!job.acked[index]) {
        job.acked[index] = 1;
        job.ackedCount++;
        job.lastProgress = Date.now();
        job.rounds = 0;
        job.dirty = true;
      }
      this.fill(job);
      return;
    }
    const resend = msg.attributes.upgradeResend as { firstSerial: number; ids: number[] } | undefined;
    if (msg.messageId === 0x0005 && resend) {
      job.session.socket.cork();
      for (const index of resend.ids) {
        if (index >= 1 && index <= job.total) {
          this.send(job, index);
          job.resent++;
        }
      }
      job.session.socket.uncork();
      job.dirty = true;
      return;
    }
    const result = msg.attributes.upgradeResult as { type: number; result: number } | undefined;
    if (msg.messageId === 0x0108 && result) {
      job.done = true;
      this.jobs.delete(session.key);
      const ok = result.result === 0;
      const detail = ok ? 'upgraded (0x0108 result 0)' : `upgrade failed (0x0108 result ${result.result})`;
      this.finish(job, ok ? 'success' : 'failed', detail, `0x0108 ${result.result}`).catch(this.onError);
    }
  }

  private async finish(
    job: Job,
    state: 'success' | 'failed' | 'timeout' | 'pending',
    detail: string,
    reply: string | null,
  ) {
    await this.writeProgress([job]);
    const final = state !== 'pending';
    await sql`
      UPDATE task_items SET state = ${state}, detail = ${detail}, reply = ${reply},
             done_at = ${final ? sql`now()` : sql`NULL`}
       WHERE id = ${job.itemId} AND state IN ('pending', 'sent')`.execute(this.ctx.db);
  }

  /** Resends parts unanswered too long; gives up after maxIdleRounds without progress; forgets closed sessions. */
  private tick(): void {
    const now = Date.now();
    for (const [key, job] of this.jobs) {
      if (job.done) {
        this.jobs.delete(key);
        continue;
      }
      if (job.session.socket.destroyed) {
        // The connection went away mid-push: the item waits for the next connection.
        job.done = true;
        this.jobs.delete(key);
        this.finish(job, 'pending', 'connection lost during the push; resumes at the next connection', null).catch(
          this.onError,
        );
        continue;
      }
      // A loaded server (or link) answers slowly: wait for three smoothed round trips before re-sending.
      if (now - job.lastProgress < Math.max(this.options.partTimeoutMs, 3 * job.srtt)) continue;
      job.rounds++;
      job.lastProgress = now;
      if (job.rounds > this.options.maxIdleRounds) {
        job.done = true;
        this.jobs.delete(key);
        this.finish(job, 'timeout', `no progress after ${job.rounds - 1} resends`, null).catch(this.onError);
        continue;
      }
      // Everything sent and answered: waiting for 0x0108. Otherwise resend what is still unanswered.
      const missing: number[] = [];
      for (let i = 1; i < job.next && missing.length < this.options.window; i++) if (!job.acked[i]) missing.push(i);
      if (missing.length === 0) continue;
      job.session.socket.cork();
      for (const i of missing) this.send(job, i);
      job.session.socket.uncork();
      job.resent += missing.length;
      job.dirty = true;
    }
    this.flush().catch(this.onError);
  }

  private async flush(): Promise<void> {
    const dirty = [...this.jobs.values()].filter((j) => j.dirty);
    if (dirty.length > 0) await this.writeProgress(dirty);
  }

  /**
   * A push's counters only grow: a slower, older write (the periodic flush) landing after a newer one (the final
   * write at 0x0108) must not take them back, hence GREATEST.
   */
  private async writeProgress(jobs: Job[]): Promise<void> {
    for (const j of jobs) j.dirty = false;
    await sql`
      UPDATE ota_items o SET packets_acked = GREATEST(o.packets_acked, x.acked), resent = GREATEST(o.resent, x.resent),
             bytes_sent = GREATEST(o.bytes_sent, x.bytes), updated_at = now()
        FROM unnest(${jobs.map((j) => j.itemId)}::bigint[], ${jobs.map((j) => j.ackedCount)}::int[],
                    ${jobs.map((j) => j.resent)}::int[], ${jobs.map((j) => j.bytesSent)}::bigint[]) AS x(id, acked, resent, bytes)
       WHERE o.item_id = x.id`.execute(this.ctx.db);
  }
}
