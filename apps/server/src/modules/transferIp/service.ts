// Transfer IP: moves devices to another server. One task of kind 'transferIp' (shared tasks area), one item per
// device carried by an offline command: GT06 devices get `SERVER,<0 IP | 1 domain>,<host>,<port>,0#`, JT/T 808
// terminals a 0x8103 setting the main server for the edition they speak (packages/protocols jt808/structured.ts).
// A device's success is its reply (GT06 text with an ok word, JT/T 808 0x0001 result 0); then its recorded host
// (devices.host) becomes host:port, once per item (transfer_ip_applied), live or when the items are next read.
import { COMMAND_RESULT } from '@carhere/domain';
import { jt808ServerContent } from '@carhere/protocols';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { isDeviceEnvelope, Subjects } from '../../gateway/events.ts';
import type { Caller } from '../tasks/service.ts';
import type { TaskItemRow } from '../tasks/store.ts';

export const TRANSFER_IP_KIND = 'transferIp';

/** True when `host` is an IPv4 address (GT06's SERVER command says 0 for an IP, 1 for a domain). */
export function isIpv4(host: string): boolean {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** The GT06 text command moving a device to host:port. */
export function gt06ServerCommand(host: string, port: number): string {
  return `SERVER,${isIpv4(host) ? 0 : 1},${host},${port},0#`;
}

/** The command content for a device of protocol type `protocol` (1, 3: JT/T 808; others: GT06 text). */
export function transferContent(protocol: number, host: string, port: number): string {
  return protocol === 1 || protocol === 3 ? jt808ServerContent(host, port) : gt06ServerCommand(host, port);
}

export interface TransferResultRow {
  taskId: string;
  terminalID: string;
  host: string;
  port: number;
  status: TaskItemRow['state'];
  reply: string | null;
  detail: string;
  sentTime: string | null;
  replyTime: string | null;
  createdAt: string;
}

export interface ResultQuery {
  taskId?: string;
  terminalID?: string;
  terminalIDs?: string[];
  status?: TaskItemRow['state'];
  from?: string;
  to?: string;
  /**
   * A model from the caller's device-type list (/deviceType/list, spec §6): the stock's model name of the IMEI,
   * or a device type of that name (modelCodes, its codes).
   */
  model?: string;
  modelCodes?: number[];
  pageNum: number;
  pageSize: number;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export class TransferIpService {
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: AppContext,
    private readonly onError: (err: unknown) => void,
  ) {
    // A success seen live: the device's recorded host changes at once.
    this.unsubscribe = ctx.bus.subscribe(Subjects.command, (payload) => {
      if (!isDeviceEnvelope(payload) || payload.event.type !== 'command') return;
      const e = payload.event;
      if (e.status !== 'answered' || e.result !== COMMAND_RESULT.success) return;
      this.applyHosts(sql`ti.command_id = ${e.commandId}::bigint`).catch(this.onError);
    });
  }

  private tasks() {
    const tasks = this.ctx.services.tasks;
    if (!tasks) throw new Error('the tasks module is not registered');
    return tasks;
  }

  close(): void {
    this.unsubscribe();
  }

  async send(caller: Caller, input: { terminalIds: string[]; host: string; port: number }, lang: string) {
    const { host, port } = input;
    return this.tasks().createCommandTask(
      caller,
      {
        content: gt06ServerCommand(host, port),
        terminalIds: input.terminalIds,
        area: 'factory',
        kind: TRANSFER_IP_KIND,
        title: `${host}:${port}`,
        params: { host, port },
        contentFor: (d) => transferContent(d.protocol, host, port),
      },
      lang,
    );
  }

  /**
   * Writes host:port to devices.host for answered transfer-IP items not applied yet (those matching `where`).
   * Safe to run from several processes: the applied row is claimed first.
   */
  async applyHosts(where = sql`TRUE`): Promise<number> {
    const res = await sql`
      WITH item AS (
        SELECT ti.id, ti.device_id, t.params
          FROM task_items ti
          JOIN tasks t ON t.id = ti.task_id
          JOIN commands c ON c.id = ti.command_id
         WHERE t.kind = ${TRANSFER_IP_KIND} AND c.status = 'answered' AND c.result = ${COMMAND_RESULT.success}
           AND ti.device_id IS NOT NULL AND ${where}
           AND NOT EXISTS (SELECT 1 FROM transfer_ip_applied a WHERE a.item_id = ti.id)
      ), claimed AS (
        INSERT INTO transfer_ip_applied (item_id) SELECT id FROM item ON CONFLICT DO NOTHING RETURNING item_id
      )
      UPDATE devices d
         SET host = (item.params->>'host') || ':' || (item.params->>'port'), updated_at = now()
        FROM item JOIN claimed ON claimed.item_id = item.id
       WHERE d.id = item.device_id`.execute(this.ctx.db);
    return Number(res.numAffectedRows ?? 0);
  }

  /** Brings open transfer-IP items in line with their commands and applies their successes. */
  private async settle(taskIds?: string[]): Promise<void> {
    const ids =
      taskIds ??
      (
        await sql<{ task_id: string }>`
          SELECT DISTINCT ti.task_id FROM task_items ti JOIN tasks t ON t.id = ti.task_id
           WHERE t.kind = ${TRANSFER_IP_KIND} AND ti.state IN ('pending', 'sent')`.execute(this.ctx.db)
      ).rows.map((r) => String(r.task_id));
    if (ids.length > 0) await this.tasks().store.settle(ids);
    await this.applyHosts(taskIds ? sql`ti.task_id = ANY(${taskIds}::bigint[])` : sql`ti.state = 'success'`);
  }

  /** The items of transfer-IP tasks matching the query, newest first. */
  async results(q: ResultQuery): Promise<{ total: number; list: TransferResultRow[] }> {
    await this.settle(q.taskId ? [q.taskId] : undefined);
    const conds = [sql`t.kind = ${TRANSFER_IP_KIND}`];
    if (q.taskId) conds.push(sql`ti.task_id = ${q.taskId}::bigint`);
    if (q.terminalID) conds.push(sql`ti.terminal_id LIKE ${`${q.terminalID}%`}`);
    if (q.terminalIDs && q.terminalIDs.length > 0) conds.push(sql`ti.terminal_id = ANY(${q.terminalIDs}::text[])`);
    if (q.status) conds.push(sql`ti.state = ${q.status}`);
    if (q.from) conds.push(sql`ti.created_at >= ${new Date(q.from)}`);
    if (q.to) conds.push(sql`ti.created_at <= ${new Date(q.to)}`);
    if (q.model) {
      conds.push(sql`(EXISTS (SELECT 1 FROM stock_records sr WHERE sr.imei = ti.terminal_id AND sr.model = ${q.model})
        OR EXISTS (SELECT 1 FROM devices d WHERE d.terminal_id = ti.terminal_id
                    AND d.device_type = ANY(${q.modelCodes ?? []}::int[])))`);
    }
    const where = sql.join(conds, sql` AND `);
    const total = await sql<{ n: string }>`
      SELECT count(*) AS n FROM task_items ti JOIN tasks t ON t.id = ti.task_id WHERE ${where}`.execute(this.ctx.db);
    const rows = await sql<TaskItemRow & { params: { host?: string; port?: number } }>`
      SELECT ti.*, t.params FROM task_items ti JOIN tasks t ON t.id = ti.task_id
       WHERE ${where} ORDER BY ti.id DESC LIMIT ${q.pageSize} OFFSET ${(q.pageNum - 1) * q.pageSize}`.execute(
      this.ctx.db,
    );
    return {
      total: Number(total.rows[0]?.n ?? 0),
      list: rows.rows.map((r) => ({
        taskId: String(r.task_id),
        terminalID: r.terminal_id,
        host: String(r.params.host ?? ''),
        port: Number(r.params.port ?? 0),
        status: r.state,
        reply: r.reply,
        detail: r.detail,
        sentTime: iso(r.sent_at),
        replyTime: r.state === 'success' || r.state === 'failed' ? iso(r.done_at) : null,
        createdAt: iso(r.created_at) as string,
      })),
    };
  }
}
