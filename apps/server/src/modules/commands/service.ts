// The command flow of spec §4 on the API side: decide (refuse / offline / live), record, hand live commands
// to the gateway over the bus and wait for the reply up to the timeout, queue offline commands.
import { COMMAND_RESULT, decideCommandSend, type MessageKey } from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import type { CommandStatus } from '../../db/tables/gateway.ts';
import { type CommandEvent, type CommandSendRequest, isDeviceEnvelope, Subjects } from '../../gateway/events.ts';
import { badRequest } from '../../http/errors.ts';
import { assertCommandAllowed, loadDeviceType } from '../deviceTypes/store.ts';
import type { ReachableDevice } from '../location/devices.ts';
import { assertNotExpired } from '../location/usable.ts';
import { type CommandDevice, type CommandRow, CommandStore } from './store.ts';

export interface Sender {
  id: string;
  /** agentName of the request, else the user name. */
  name: string;
}

export interface CommandOutcome {
  row: CommandRow;
  /** Message key describing the outcome for the user. */
  message: MessageKey;
}

/** Statuses after which a live send stops waiting. */
const FINAL: ReadonlySet<CommandStatus> = new Set(['answered', 'failed', 'cancelled', 'expired']);

export function commandDeviceOf(d: ReachableDevice): CommandDevice {
  return { id: d.id, terminalId: d.terminalId, path: d.path, protocol: d.protocol };
}

export class CommandService {
  readonly store: CommandStore;
  private readonly waiters = new Map<string, (event: CommandEvent) => void>();
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: AppContext) {
    this.store = new CommandStore(ctx.db, ctx.bus);
    this.unsubscribe = ctx.bus.subscribe(Subjects.command, (payload) => {
      if (!isDeviceEnvelope(payload) || payload.event.type !== 'command') return;
      this.waiters.get(payload.event.commandId)?.(payload.event);
    });
  }

  close(): void {
    this.unsubscribe();
  }

  private async isOnline(deviceId: string): Promise<boolean> {
    const s = await this.ctx.db
      .selectFrom('device_state')
      .select('online')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    return s?.online === true;
  }

  /** Spec §4: no commands to an expired device (location/usable.ts says what is refused and why). */
  private assertUsable(device: ReachableDevice): Promise<void> {
    return assertNotExpired(this.ctx, [device.id]);
  }

  private decide(device: ReachableDevice, content: string, online: boolean, offlineAllowed: boolean) {
    const decision = decideCommandSend({
      content,
      online,
      deviceModel: device.deviceType,
      deviceId: device.nbDeviceId,
      offlineAllowed,
    });
    if (decision.action === 'refuse') throw badRequest(decision.message);
    return decision.action;
  }

  /** The whole flow: refuse, queue for an offline device (or when asked), else send live and wait. */
  async send(
    device: ReachableDevice,
    content: string,
    sender: Sender,
    opts: { offline?: boolean; offlineAllowed?: boolean } = {},
  ): Promise<CommandOutcome> {
    await this.assertUsable(device);
    const online = await this.isOnline(device.id);
    const action = this.decide(device, content, online, opts.offlineAllowed ?? true);
    // Spec §8 / §5: a feature the device's type lacks, or a ruled parameter out of its rule, is refused.
    assertCommandAllowed(await loadDeviceType(this.ctx.db, device.deviceType), content);
    if (action === 'offline' || opts.offline) return this.queueOffline(device, content, sender, online);
    return this.sendLive(device, content, sender);
  }

  async sendLive(device: ReachableDevice, content: string, sender: Sender): Promise<CommandOutcome> {
    const cd = commandDeviceOf(device);
    const created = await this.store.create(
      cd,
      { content, mode: 'live', status: 'pending', senderId: sender.id, senderName: sender.name },
      `live send by ${sender.name}`,
    );
    const id = String(created.id);
    const done = new Promise<CommandEvent | null>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        resolve(null);
      }, this.ctx.config.commandTimeoutMs);
      this.waiters.set(id, (event) => {
        if (!FINAL.has(event.status)) return;
        clearTimeout(timer);
        this.waiters.delete(id);
        resolve(event);
      });
    });
    this.ctx.bus.publish(Subjects.commandSend, {
      commandId: id,
      deviceId: device.id,
      terminalId: device.terminalId,
    } satisfies CommandSendRequest);
    const event = await done;
    if (!event) {
      const timedOut = await this.store.transition(cd, id, 'timeout', {
        from: ['pending', 'sent'],
        result: COMMAND_RESULT.timeout,
        detail: `no reply within ${Math.round(this.ctx.config.commandTimeoutMs / 1000)} s`,
      });
      // The reply may have landed between the timer and the update: then it wins.
      const row = timedOut ?? (await this.store.get(id)) ?? created;
      return { row, message: row.status === 'answered' ? resultMessage(row) : 'command.askSaveOffline' };
    }
    const row = (await this.store.get(id)) ?? created;
    return { row, message: resultMessage(row) };
  }

  async queueOffline(
    device: ReachableDevice,
    content: string,
    sender: Sender,
    online?: boolean,
  ): Promise<CommandOutcome> {
    const row = await this.store.create(
      commandDeviceOf(device),
      {
        content,
        mode: 'offline',
        status: 'pending',
        senderId: sender.id,
        senderName: sender.name,
        expiresAt: this.expiry(),
      },
      `offline command queued by ${sender.name}`,
    );
    if (online ?? (await this.isOnline(device.id))) this.requestDelivery(device, String(row.id));
    return { row, message: 'command.savedOffline' };
  }

  /** A live command that timed out (or failed) becomes an offline command, sent at the next connection. */
  async convertToOffline(device: ReachableDevice, commandId: string, sender: Sender): Promise<CommandOutcome | null> {
    await this.assertUsable(device);
    const row = await this.store.transition(commandDeviceOf(device), commandId, 'pending', {
      from: ['timeout', 'failed'],
      mode: 'offline',
      result: null,
      expiresAt: this.expiry(),
      detail: `saved as an offline command by ${sender.name}`,
    });
    if (!row) return null;
    if (await this.isOnline(device.id)) this.requestDelivery(device, commandId);
    return { row, message: 'command.savedOffline' };
  }

  async cancelOffline(device: ReachableDevice, commandId: string, sender: Sender): Promise<CommandRow | null> {
    return this.store.transition(commandDeviceOf(device), commandId, 'cancelled', {
      from: ['pending', 'sent'],
      detail: `cancelled by ${sender.name}`,
    });
  }

  /** A record of a command sent some other way (e.g. by SMS), with its reply if known. */
  async record(
    device: ReachableDevice,
    content: string,
    sender: Sender,
    reply: string | null,
    result: number | null,
  ): Promise<CommandRow> {
    return this.store.create(
      commandDeviceOf(device),
      {
        content,
        mode: 'manual',
        status: reply === null ? 'sent' : 'answered',
        senderId: sender.id,
        senderName: sender.name,
        reply,
        result,
      },
      `recorded by ${sender.name}`,
    );
  }

  private requestDelivery(device: ReachableDevice, commandId: string): void {
    this.ctx.bus.publish(Subjects.commandSend, {
      commandId,
      deviceId: device.id,
      terminalId: device.terminalId,
    } satisfies CommandSendRequest);
  }

  private expiry(): Date {
    return new Date(Date.now() + this.ctx.config.offlineCommandTtlHours * 3_600_000);
  }
}

function resultMessage(row: CommandRow): MessageKey {
  if (row.result === COMMAND_RESULT.success) return 'command.result.1';
  if (row.result === COMMAND_RESULT.timeout) return 'command.result.2';
  return 'command.result.3';
}
