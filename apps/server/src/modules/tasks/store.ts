// Task rows and their per-device items (migrations/0600_tasks.sql). Items of command tasks are carried by an
// offline command each (the existing offline queue delivers it at every connection until it expires); an
// item's state follows its command through the domain's COMMAND_TO_TASK_STATE table, settled in SQL
// (`settle`) whenever tasks are read, so the states need no process memory and survive a restart.
import { COMMAND_TO_TASK_STATE, OPEN_TASK_ITEM_STATES, type TaskItemState } from '@carhere/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { TaskArea } from '../../db/tables/factoryLogs.ts';

/**
 * Rows per insert statement. A 10,000-device task is written in 20 statements with a turn of the event loop
 * between them, so other requests are served meanwhile (on embedded PGlite a statement runs on this thread).
 */
export const INSERT_CHUNK = 500;
const yieldTurn = () => new Promise<void>((r) => setImmediate(r));

export interface TaskRow {
  id: string;
  kind: string;
  title: string;
  params: Record<string, unknown>;
  created_by: string | null;
  creator_name: string;
  creator_path: string;
  area: TaskArea;
  created_at: Date;
  expires_at: Date;
  cancelled_at: Date | null;
  total: number;
}

export interface TaskItemRow {
  id: string;
  task_id: string;
  device_id: string | null;
  terminal_id: string;
  state: TaskItemState;
  command_id: string | null;
  reply: string | null;
  detail: string;
  created_at: Date;
  sent_at: Date | null;
  done_at: Date | null;
}

export interface NewTask {
  kind: string;
  title: string;
  params: Record<string, unknown>;
  createdBy: string | null;
  creatorName: string;
  creatorPath: string;
  area: TaskArea;
  expiresAt: Date;
}

/** A device the task goes to, and what happens to its item at once (refused items start failed). */
export interface ItemTarget {
  deviceId: string | null;
  terminalId: string;
  protocol: number;
  /** Set: the item cannot be done (the reason); it starts 'failed' and no command is queued. */
  refused?: string;
  /** This device's command content when it differs per device (protocol); default: the task's content. */
  content?: string;
}

/** SQL: the item state of command `c` (COMMAND_TO_TASK_STATE, the domain's table). */
function commandStateSql(): RawBuilder<TaskItemState> {
  const whens = COMMAND_TO_TASK_STATE.map((r) => {
    const result =
      r.result === undefined
        ? sql``
        : r.result === null
          ? sql` AND c.result IS NULL`
          : sql` AND c.result = ${r.result}`;
    return sql`WHEN c.status = ${r.status}${result} THEN ${r.state}`;
  });
  return sql<TaskItemState>`(CASE ${sql.join(whens, sql` `)} ELSE 'failed' END)`;
}

const OPEN = sql.raw(`(${OPEN_TASK_ITEM_STATES.map((s) => `'${s}'`).join(', ')})`);

export class TaskStore {
  constructor(private readonly db: Kysely<Database>) {}

  async createTask(input: NewTask, total: number): Promise<TaskRow> {
    return (await this.db
      .insertInto('tasks')
      .values({
        kind: input.kind,
        title: input.title.slice(0, 500),
        params: JSON.stringify(input.params),
        created_by: input.createdBy,
        creator_name: input.creatorName,
        creator_path: input.creatorPath,
        area: input.area,
        expires_at: input.expiresAt,
        total,
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as TaskRow;
  }

  /**
   * The items of a command task: one offline command per accepted device (pending until its device takes it,
   * expiring with the task) and its item, in chunks of INSERT_CHUNK rows, each chunk one statement.
   */
  async insertCommandItems(
    task: TaskRow,
    targets: readonly ItemTarget[],
    content: string,
    sender: { id: string | null; name: string },
  ): Promise<void> {
    for (let i = 0; i < targets.length; i += INSERT_CHUNK) {
      const chunk = targets.slice(i, i + INSERT_CHUNK);
      const ok = chunk.filter((t) => !t.refused && t.deviceId !== null);
      const refused = chunk.filter((t) => t.refused || t.deviceId === null);
      if (ok.length > 0) {
        await sql`
          WITH c AS (
            INSERT INTO commands (device_id, terminal_id, protocol, content, mode, status, sender_id, sender_name, expires_at)
            SELECT d, t, p, k, 'offline', 'pending', ${sender.id}::bigint, ${sender.name}, ${task.expires_at}
              FROM unnest(${ok.map((t) => t.deviceId)}::bigint[], ${ok.map((t) => t.terminalId)}::text[],
                          ${ok.map((t) => t.protocol)}::smallint[], ${ok.map((t) => t.content ?? content)}::text[])
                   AS x(d, t, p, k)
            RETURNING id, device_id, terminal_id
          ), logged AS (
            INSERT INTO command_log (command_id, status, detail)
            SELECT id, 'pending', ${`task ${task.id} by ${sender.name}`} FROM c
          )
          INSERT INTO task_items (task_id, device_id, terminal_id, command_id)
          SELECT ${task.id}::bigint, device_id, terminal_id, id FROM c`.execute(this.db);
      }
      if (refused.length > 0) await this.insertFailed(task.id, refused);
      await yieldTurn();
    }
  }

  /** Items that cannot be done at all (unknown device, out of reach, expired): failed from the start. */
  async insertFailed(taskId: string, targets: readonly ItemTarget[]): Promise<void> {
    for (let i = 0; i < targets.length; i += INSERT_CHUNK) {
      const chunk = targets.slice(i, i + INSERT_CHUNK);
      await sql`
        INSERT INTO task_items (task_id, device_id, terminal_id, state, detail, done_at)
        SELECT ${taskId}::bigint, d, t, 'failed', r, now()
          FROM unnest(${chunk.map((t) => t.deviceId)}::bigint[], ${chunk.map((t) => t.terminalId)}::text[],
                      ${chunk.map((t) => t.refused ?? '')}::text[]) AS x(d, t, r)`.execute(this.db);
    }
  }

  /** Brings open command-carried items of `taskIds` (all open items when omitted) in line with their commands. */
  async settle(taskIds?: readonly string[]): Promise<number> {
    const only = taskIds ? sql`AND ti.task_id = ANY(${[...taskIds]}::bigint[])` : sql``;
    const state = commandStateSql();
    const res = await sql`
      UPDATE task_items ti
         SET state = ${state},
             reply = c.reply,
             sent_at = COALESCE(c.sent_at, ti.sent_at),
             done_at = CASE WHEN ${state} IN ${OPEN} THEN NULL ELSE COALESCE(c.answered_at, now()) END
        FROM commands c
       WHERE ti.command_id = c.id AND ti.state IN ${OPEN} ${only}
         AND (ti.state <> ${state} OR ti.sent_at IS DISTINCT FROM c.sent_at)`.execute(this.db);
    return Number(res.numAffectedRows ?? 0);
  }

  async get(id: string): Promise<TaskRow | undefined> {
    return (await this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst()) as
      | TaskRow
      | undefined;
  }

  /** Item counts per state of each task. */
  async counts(taskIds: readonly string[]): Promise<Map<string, Partial<Record<TaskItemState, number>>>> {
    const out = new Map<string, Partial<Record<TaskItemState, number>>>();
    if (taskIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('task_items')
      .select(['task_id', 'state', (eb) => eb.fn.countAll<string>().as('n')])
      .where('task_id', 'in', [...taskIds])
      .groupBy(['task_id', 'state'])
      .execute();
    for (const r of rows) {
      const key = String(r.task_id);
      const entry = out.get(key) ?? {};
      entry[r.state] = Number(r.n);
      out.set(key, entry);
    }
    return out;
  }

  /** Cancels a task's open items and their commands; returns how many items it cancelled. */
  async cancel(taskId: string, by: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await sql`UPDATE tasks SET cancelled_at = COALESCE(cancelled_at, now()) WHERE id = ${taskId}`.execute(trx);
      await sql`
        WITH changed AS (
          UPDATE commands SET status = 'cancelled'
           WHERE id IN (SELECT command_id FROM task_items WHERE task_id = ${taskId} AND state IN ${OPEN}
                         AND command_id IS NOT NULL)
             AND status IN ('pending', 'sent')
          RETURNING id
        )
        INSERT INTO command_log (command_id, status, detail) SELECT id, 'cancelled', ${`task cancelled by ${by}`} FROM changed`.execute(
        trx,
      );
      const res = await sql`
        UPDATE task_items SET state = 'cancelled', done_at = now(), detail = ${`cancelled by ${by}`}
         WHERE task_id = ${taskId} AND state IN ${OPEN}`.execute(trx);
      return Number(res.numAffectedRows ?? 0);
    });
  }

  /** Open items whose device is online now (their commands can go out at once). */
  async onlineOpenItems(taskId: string): Promise<{ command_id: string; device_id: string; terminal_id: string }[]> {
    const res = await sql<{ command_id: string; device_id: string; terminal_id: string }>`
      SELECT ti.command_id, ti.device_id, ti.terminal_id
        FROM task_items ti JOIN device_state s ON s.device_id = ti.device_id
       WHERE ti.task_id = ${taskId} AND ti.state = 'pending' AND ti.command_id IS NOT NULL AND s.online`.execute(
      this.db,
    );
    return res.rows.map((r) => ({ ...r, command_id: String(r.command_id), device_id: String(r.device_id) }));
  }
}
