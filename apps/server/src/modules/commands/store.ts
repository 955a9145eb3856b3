// Command rows and their history. Every status change goes through `transition`, which updates the row and
// appends the command_log entry in one statement, then publishes the change on the bus.

import { type Kysely, sql } from 'kysely';
import type { EventBus } from '../../bus/types.ts';
import type { Database } from '../../db/schema.ts';
import type { CommandMode, CommandStatus } from '../../db/tables/gateway.ts';
import { type CommandEvent, type DeviceEnvelope, Subjects } from '../../gateway/events.ts';
import { commandOutcomes } from '../../ops/metrics.ts';

export interface CommandDevice {
  id: string;
  terminalId: string;
  /** Owner's hierarchy path, for live filtering. */
  path: string;
  protocol: number;
}

export interface CommandRow {
  id: string;
  device_id: string;
  terminal_id: string;
  protocol: number;
  content: string;
  mode: CommandMode;
  status: CommandStatus;
  result: number | null;
  reply: string | null;
  sender_id: string | null;
  sender_name: string;
  attempts: number;
  created_at: Date;
  sent_at: Date | null;
  answered_at: Date | null;
  expires_at: Date | null;
}

export interface NewCommand {
  content: string;
  mode: CommandMode;
  status: CommandStatus;
  senderId: string | null;
  senderName: string;
  expiresAt?: Date | null;
  result?: number | null;
  reply?: string | null;
}

export interface Transition {
  /** Only from these statuses (a concurrent change wins otherwise). */
  from?: CommandStatus[];
  mode?: CommandMode;
  result?: number | null;
  reply?: string | null;
  sent?: boolean;
  answered?: boolean;
  expiresAt?: Date | null;
  detail: string;
}

export const OPEN_STATUSES: CommandStatus[] = ['pending', 'sent'];

export class CommandStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly bus: EventBus,
  ) {}

  async create(device: CommandDevice, input: NewCommand, detail: string): Promise<CommandRow> {
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('commands')
        .values({
          device_id: device.id,
          terminal_id: device.terminalId,
          protocol: device.protocol,
          content: input.content,
          mode: input.mode,
          status: input.status,
          result: input.result ?? null,
          reply: input.reply ?? null,
          sender_id: input.senderId,
          sender_name: input.senderName,
          expires_at: input.expiresAt ?? null,
          answered_at: input.reply != null ? new Date() : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('command_log')
        .values({ command_id: inserted.id, status: inserted.status, detail })
        .execute();
      return inserted;
    });
    this.publish(device, row);
    return row;
  }

  /** Moves a command to `status`; null when it was not in one of `from` (someone else changed it first). */
  async transition(
    device: CommandDevice,
    id: string,
    status: CommandStatus,
    t: Transition,
  ): Promise<CommandRow | null> {
    const sets = [sql`status = ${status}`];
    if (t.mode) sets.push(sql`mode = ${t.mode}`);
    if (t.result !== undefined) sets.push(sql`result = ${t.result}`);
    if (t.reply !== undefined) sets.push(sql`reply = ${t.reply}`);
    if (t.sent) sets.push(sql`sent_at = now(), attempts = attempts + 1`);
    if (t.answered) sets.push(sql`answered_at = now()`);
    if (t.expiresAt !== undefined) sets.push(sql`expires_at = ${t.expiresAt}`);
    const guard = t.from ? sql`AND status = ANY(${t.from}::text[])` : sql``;
    const res = await sql<CommandRow>`
      WITH changed AS (
        UPDATE commands SET ${sql.join(sets, sql`, `)} WHERE id = ${id} ${guard} RETURNING *
      ), logged AS (
        INSERT INTO command_log (command_id, status, detail) SELECT id, status, ${t.detail} FROM changed
      )
      SELECT * FROM changed`.execute(this.db);
    const row = res.rows[0];
    if (!row) return null;
    this.publish(device, row);
    return row;
  }

  get(id: string): Promise<CommandRow | undefined> {
    return this.db.selectFrom('commands').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Unanswered, unexpired offline commands of several devices (one query), by device id, oldest first. */
  async openOffline(deviceIds: string[]): Promise<Map<string, CommandRow[]>> {
    const rows = await this.db
      .selectFrom('commands')
      .selectAll()
      .where('device_id', '=', sql<string>`any(${deviceIds}::bigint[])`)
      .where('mode', '=', 'offline')
      .where('status', 'in', OPEN_STATUSES)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .orderBy('id')
      .execute();
    const byDevice = new Map<string, CommandRow[]>();
    for (const row of rows) {
      const id = String(row.device_id);
      const list = byDevice.get(id);
      if (list) list.push(row);
      else byDevice.set(id, [row]);
    }
    return byDevice;
  }

  /** Expires offline commands past their time; returns how many. */
  async expireDue(): Promise<number> {
    const res = await sql<CommandRow & { path: string | null }>`
      WITH changed AS (
        UPDATE commands SET status = 'expired'
         WHERE mode = 'offline' AND status IN ('pending', 'sent') AND expires_at <= now() RETURNING *
      ), logged AS (
        INSERT INTO command_log (command_id, status, detail) SELECT id, 'expired', 'not answered before it expired' FROM changed
      )
      SELECT c.*, u.path FROM changed c JOIN devices d ON d.id = c.device_id LEFT JOIN users u ON u.id = d.user_id`.execute(
      this.db,
    );
    for (const row of res.rows) {
      this.publish(
        { id: row.device_id, terminalId: row.terminal_id, path: row.path ?? '', protocol: row.protocol },
        row,
      );
    }
    return res.rows.length;
  }

  private publish(device: CommandDevice, row: CommandRow): void {
    commandOutcomes.inc({ status: row.status });
    const event: CommandEvent = {
      type: 'command',
      commandId: String(row.id),
      deviceId: String(row.device_id),
      terminalID: row.terminal_id,
      content: row.content,
      mode: row.mode,
      status: row.status,
      result: row.result,
      reply: row.reply,
      time: new Date().toISOString(),
    };
    this.bus.publish(Subjects.command, { path: device.path, event } satisfies DeviceEnvelope);
  }
}
