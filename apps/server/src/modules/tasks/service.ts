// Tasks on the API side: create a command task for many devices in one request (items bulk-inserted, delivery
// to the devices online now in the background, the rest through the offline queue at their next connection
// until the task expires), read tasks with their progress, cancel them. Who sees what: the caller's own tasks
// and those of its subtree; factory staff (a factory task permission) and admin see every task.
import {
  decideCommandSend,
  deviceTypeOf,
  effectiveExpiry,
  hasPermission,
  isExpired,
  type MessageKey,
  taskProgress,
} from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { TaskArea } from '../../db/tables/factoryLogs.ts';
import { type CommandSendRequest, Subjects } from '../../gateway/events.ts';
import { noPermission, notFound } from '../../http/errors.ts';
import { translate } from '../../http/i18n.ts';
import type { SessionUser } from '../../http/session.ts';
import { commandRefusal, loadDeviceTypes } from '../deviceTypes/store.ts';
import { type ItemTarget, type TaskItemRow, type TaskRow, TaskStore } from './store.ts';

/** Factory permissions that see every task (cmdTask log, batch commands of the back office). */
export const FACTORY_TASK_PERMISSIONS = ['factory:log_cmd_task', 'factory:muti_cmd'];
/** Devices handed to the gateway per turn of the event loop when a task starts. */
const DELIVERY_CHUNK = 200;

export type Caller = Pick<SessionUser, 'id' | 'username' | 'role' | 'path'>;

export interface CommandTaskInput {
  content: string;
  terminalIds: readonly string[];
  /** Hours the items wait for offline devices (default: OFFLINE_COMMAND_TTL_HOURS). */
  expiresInHours?: number;
  senderName?: string;
  area: TaskArea;
  /** Task kind (default 'command'); transferIp, config … carry their own contents per device. */
  kind?: string;
  /** Shown in lists (default: the content). */
  title?: string;
  /** Stored with the task (default: content and hours). */
  params?: Record<string, unknown>;
  /** The content for one device (its protocol decides the form); default: `content` for every device. */
  contentFor?: (device: { protocol: number; deviceType: number }) => string;
}

interface DeviceRow {
  id: string;
  terminal_id: string;
  protocol: number;
  device_type: number;
  nb_device_id: string | null;
  path: string | null;
  online: boolean | null;
  platform_expire_at: Date | null;
  user_expire_at: Date | null;
}

export function seesAllTasks(caller: Caller, permissions: readonly string[]): boolean {
  return caller.role === 1 || hasPermission(permissions, FACTORY_TASK_PERMISSIONS);
}

export class TaskService {
  readonly store: TaskStore;
  private readonly background = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly onError: (err: unknown, what: string) => void = () => {},
  ) {
    this.store = new TaskStore(ctx.db);
  }

  /** Waits for background deliveries started by this process (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /**
   * Looks the devices up (customer side: only within the caller's subtree, else the whole request is refused
   * without saying which device exists; factory side: the factory's whole fleet), refuses per device what
   * the command rules refuse (expired device, NB-IoT without its id, unknown IMEI on the factory side) as
   * failed items, and queues the rest.
   */
  async createCommandTask(caller: Caller, input: CommandTaskInput, lang: string) {
    const unique = [...new Set(input.terminalIds)];
    const rows = await this.devices(unique);
    const byTerminal = new Map(rows.map((r) => [r.terminal_id, r]));
    const factoryWide = input.area === 'factory' || caller.role === 1;
    const now = Date.now();
    const targets: ItemTarget[] = [];
    const reason = (key: MessageKey | string) => translate(key, lang);
    const types = input.area === 'main' ? await loadDeviceTypes(this.ctx.db) : null;
    for (const terminalId of unique) {
      const d = byTerminal.get(terminalId);
      if (!factoryWide && (!d || !(d.path ?? '').startsWith(caller.path) || caller.path === '')) throw noPermission();
      if (!d) {
        targets.push({ deviceId: null, terminalId, protocol: 0, refused: reason('factory.imeiUnknown') });
        continue;
      }
      const expiry = effectiveExpiry(d.platform_expire_at?.getTime(), d.user_expire_at?.getTime());
      let refused: string | undefined;
      if (isExpired(expiry, now)) refused = reason('device.expired');
      else {
        const decision = decideCommandSend({
          content: input.contentFor
            ? input.contentFor({ protocol: d.protocol, deviceType: d.device_type })
            : input.content,
          online: d.online === true,
          deviceModel: d.device_type,
          deviceId: d.nb_device_id,
          offlineAllowed: true,
        });
        if (decision.action === 'refuse') refused = reason(decision.message);
        // Spec §8 / §5 on the customer site: the device's type lacks the feature, or a ruled parameter is wrong.
        const typeRefusal = types ? commandRefusal(deviceTypeOf(types, d.device_type), input.content) : undefined;
        if (!refused && typeRefusal) refused = reason(typeRefusal);
      }
      const content = input.contentFor?.({ protocol: d.protocol, deviceType: d.device_type });
      targets.push({ deviceId: String(d.id), terminalId, protocol: d.protocol, refused, content });
    }
    const hours = input.expiresInHours ?? this.ctx.config.offlineCommandTtlHours;
    const task = await this.store.createTask(
      {
        kind: input.kind ?? 'command',
        title: input.title ?? input.content,
        params: { content: input.content, expiresInHours: hours, ...input.params },
        createdBy: caller.id,
        creatorName: input.senderName || caller.username,
        creatorPath: caller.path,
        area: input.area,
        expiresAt: new Date(now + hours * 3_600_000),
      },
      targets.length,
    );
    await this.store.insertCommandItems(task, targets, input.content, {
      id: caller.id,
      name: input.senderName || caller.username,
    });
    this.deliverInBackground(task.id);
    return task;
  }

  private async devices(terminalIds: string[]): Promise<DeviceRow[]> {
    if (terminalIds.length === 0) return [];
    const res = await sql<DeviceRow>`
      SELECT d.id, d.terminal_id, d.protocol, d.device_type, d.nb_device_id, u.path, s.online,
             d.platform_expire_at, d.user_expire_at
        FROM devices d LEFT JOIN users u ON u.id = d.user_id LEFT JOIN device_state s ON s.device_id = d.id
       WHERE d.terminal_id = ANY(${terminalIds}::text[])`.execute(this.ctx.db);
    return res.rows;
  }

  /** Hands the items of devices online now to the gateway, a chunk per turn, after the request has answered. */
  private deliverInBackground(taskId: string): void {
    const run = (async () => {
      await new Promise((r) => setImmediate(r));
      const items = await this.store.onlineOpenItems(taskId);
      for (let i = 0; i < items.length; i += DELIVERY_CHUNK) {
        for (const item of items.slice(i, i + DELIVERY_CHUNK)) {
          this.ctx.bus.publish(Subjects.commandSend, {
            commandId: item.command_id,
            deviceId: item.device_id,
            terminalId: item.terminal_id,
          } satisfies CommandSendRequest);
        }
        await new Promise((r) => setImmediate(r));
      }
    })().catch((err) => this.onError(err, `task ${taskId}: delivery failed`));
    this.background.add(run);
    void run.finally(() => this.background.delete(run));
  }

  /** A task the caller may see, settled with its commands; 404 / 403 otherwise. */
  async visible(caller: Caller, permissions: readonly string[], id: string): Promise<TaskRow> {
    const task = await this.store.get(id);
    if (!task) throw caller.role === 1 ? notFound() : noPermission();
    if (!seesAllTasks(caller, permissions) && (caller.path === '' || !task.creator_path.startsWith(caller.path)))
      throw noPermission();
    await this.store.settle([task.id]);
    return task;
  }

  async find(
    caller: Caller,
    permissions: readonly string[],
    q: { kind?: string; area?: TaskArea; terminalID?: string; pageNum: number; pageSize: number },
  ) {
    let query = this.ctx.db.selectFrom('tasks');
    if (!seesAllTasks(caller, permissions)) query = query.where('creator_path', 'like', `${caller.path}%`);
    if (q.kind) query = query.where('kind', '=', q.kind);
    if (q.area) query = query.where('area', '=', q.area);
    if (q.terminalID) {
      const terminalID = q.terminalID;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('task_items')
            .select('task_items.id')
            .whereRef('task_items.task_id', '=', 'tasks.id')
            .where('task_items.terminal_id', '=', terminalID),
        ),
      );
    }
    const total = Number((await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = (await query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute()) as TaskRow[];
    const ids = rows.map((r) => String(r.id));
    await this.store.settle(ids);
    const counts = await this.store.counts(ids);
    return { total, list: rows.map((r) => ({ task: r, progress: taskProgress(counts.get(String(r.id)) ?? {}) })) };
  }

  async progress(task: TaskRow) {
    return taskProgress((await this.store.counts([task.id])).get(String(task.id)) ?? {});
  }

  async items(
    task: TaskRow,
    q: { state?: string; terminalID?: string; pageNum: number; pageSize: number },
  ): Promise<{ total: number; list: TaskItemRow[] }> {
    let query = this.ctx.db.selectFrom('task_items').where('task_id', '=', task.id);
    if (q.state) query = query.where('state', '=', q.state as TaskItemRow['state']);
    if (q.terminalID) query = query.where('terminal_id', 'like', `${q.terminalID}%`);
    const total = Number((await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const list = (await query
      .selectAll()
      .orderBy('id')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute()) as TaskItemRow[];
    return { total, list };
  }
}
