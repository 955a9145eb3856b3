// The gateway side of commands: delivers stored commands to the device's session (when asked over the bus,
// and the device's open offline commands at each connection), and matches replies to them.
import { classifyCommandReply } from '@carhere/domain';
import type { CommandReply } from '@carhere/protocols';
import type { EventBus } from '../bus/types.ts';
import type { CommandDevice, CommandRow, CommandStore } from '../modules/commands/store.ts';
import type { DeviceRef } from './directory.ts';
import { type CommandSendRequest, Subjects } from './events.ts';
import { GroupedReads } from './grouped.ts';
import { NbCommands } from './nb/commands.ts';
import type { SessionRegistry } from './registry.ts';
import { replyForm, replyText } from './replies.ts';
import type { Session } from './session.ts';

function commandDevice(device: DeviceRef): CommandDevice {
  return { id: device.id, terminalId: device.terminalId, path: device.path, protocol: device.protocol };
}

export class CommandDispatcher {
  private unsubscribe: (() => void) | null = null;
  /** Open offline commands of devices that just connected, read together (a reconnect storm). */
  private readonly offline = new GroupedReads<CommandRow[]>((ids) => this.store.openOffline(ids), []);

  constructor(
    private readonly store: CommandStore,
    private readonly registry: SessionRegistry,
    private readonly bus: EventBus,
    private readonly onError: (err: unknown) => void,
    /** NB-IoT devices (no TCP session): commands go out through the IoT platform. */
    private readonly nb: NbCommands | null = null,
  ) {}

  start(): void {
    this.unsubscribe = this.bus.subscribe(Subjects.commandSend, (payload) => {
      const req = payload as CommandSendRequest;
      if (typeof req?.commandId !== 'string' || typeof req.deviceId !== 'string') return;
      this.deliver(req).catch(this.onError);
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** A device connected: send each of its open offline commands once on this connection. */
  async onBound(session: Session): Promise<void> {
    const device = session.device;
    if (!device) return;
    const open = await this.offline.get(device.id);
    for (const row of open) await this.sendOn(session, row, 'sent at connection');
  }

  private async deliver(req: CommandSendRequest): Promise<void> {
    const session = this.registry.sessionOf(req.deviceId) as Session | undefined;
    if (!session?.device) return this.deliverNb(req);
    const row = await this.store.get(req.commandId);
    if (!row || (row.status !== 'pending' && row.status !== 'sent')) return;
    await this.sendOn(session, row, 'sent');
  }

  /** No TCP session here: an NB-IoT device's command goes through the platform (or says why it cannot). */
  private async deliverNb(req: CommandSendRequest): Promise<void> {
    if (!this.nb) return;
    const device = await this.nb.loadDevice(req.deviceId);
    if (!device || !NbCommands.isNb(device)) return;
    const row = await this.store.get(req.commandId);
    if (!row || String(row.device_id) !== device.id) return;
    await this.nb.deliver(device, row);
  }

  private async sendOn(session: Session, row: CommandRow, detail: string): Promise<void> {
    const device = session.device as DeviceRef;
    const id = String(row.id);
    if (!session.claimCommand(id)) return;
    // Record the attempt before the bytes leave: a fast reply must find the command already 'sent', or the
    // 'answered' transition could commit first and this attempt would be lost from the record.
    const moved = await this.store.transition(commandDevice(device), id, 'sent', {
      from: ['pending', 'sent'],
      sent: true,
      detail: `${detail} (${session.codec.protocol} session ${session.key})`,
    });
    if (moved) session.sendCommand(id, row.content);
  }

  /** A reply from the device: find the command it answers and record it. */
  onReply(session: Session, reply: CommandReply): void {
    this.answer(session, reply).catch(this.onError);
  }

  private async answer(session: Session, reply: CommandReply): Promise<void> {
    const device = session.device;
    if (!device) return;
    const key = session.codec.replyKey(reply);
    let commandId: string | undefined;
    if (key !== null) {
      commandId = session.awaiting.get(key);
      if (commandId) session.awaiting.delete(key);
      else if (session.codec.protocol === 'gt06') commandId = await this.sentEarlier(device.id, key);
    } else {
      // No key in the reply: it answers the oldest command still waiting on this connection.
      const first = session.awaiting.entries().next();
      if (!first.done) {
        session.awaiting.delete(first.value[0]);
        commandId = first.value[1];
      }
    }
    if (!commandId) return;
    const text = replyText(reply);
    const row = await this.store.get(commandId);
    if (!row) return;
    await this.store.transition(commandDevice(device), commandId, 'answered', {
      from: ['pending', 'sent', 'timeout'],
      result: classifyCommandReply({ content: row.content, reply: text, form: replyForm(reply) }),
      reply: text,
      answered: true,
      detail: `reply: ${text}`.slice(0, 500),
    });
  }

  /** GT06 server flags are command ids: a reply arriving on a later connection still finds its command. */
  private async sentEarlier(deviceId: string, flag: number): Promise<string | undefined> {
    const row = await this.store.get(String(flag));
    if (!row || String(row.device_id) !== deviceId) return undefined;
    return row.status === 'sent' || row.status === 'timeout' ? String(row.id) : undefined;
  }
}
