// Commands to NB-IoT devices. They have no TCP session: a command goes out through the IoT platform's
// device-command API (client.ts) and the device's reply comes back in a push callback (modules/nb), where it is
// matched to the command as a TCP reply would be. Without NB_COMMAND_URL nothing can go out, and the command
// record says so. A command the platform did not take stays pending and is tried again at the device's next push.
import { COMMAND_RESULT, type CommandReplyForm, classifyCommandReply, isNbIotModel } from '@carhere/domain';
import { type CommandReply, createJt808Context, gt06EncodeCommand, Jt808CommandEncoder } from '@carhere/protocols';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CommandDevice, CommandRow, CommandStore } from '../../modules/commands/store.ts';
import { replyForm, replyText } from '../replies.ts';
import { NbPlatformClient, NbPlatformError } from './client.ts';
import type { NbDownlinkOptions } from './settings.ts';

export const NO_PLATFORM = 'no NB-IoT platform configured';
/** Spec §4's text for an NB-IoT device without a platform deviceId. */
export const NO_NB_DEVICE_ID = 'Cannot find deviceId for this device';

export interface NbDevice extends CommandDevice {
  nbDeviceId: string | null;
  deviceType: number;
}

interface Awaiting {
  jt808: ReturnType<typeof createJt808Context> | null;
  gt06Serial: number;
}

/** Platform command status codes that mean the platform gave up on the command. */
const PLATFORM_GAVE_UP = new Set(['FAILED', 'TIMEOUT', 'EXPIRED', 'CANCELED', 'CANCELLED']);

export class NbCommands {
  private client: NbPlatformClient | null;
  private readonly awaiting = new Map<string, Awaiting>();
  /** Commands being handed to the platform right now (a push and a bus request must not send one twice). */
  private readonly inFlight = new Set<string>();
  /** Commands whose "cannot be sent" reason is already in their log (once per process, not at every push). */
  private readonly noted = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: CommandStore,
    public options: NbDownlinkOptions | null,
    private readonly commandTimeoutMs: number,
    private readonly onError: (err: unknown) => void,
    client?: NbPlatformClient,
  ) {
    this.client = options ? (client ?? new NbPlatformClient(options)) : null;
  }

  /** New platform settings (the subscription settings screen): commands from now on use them. */
  reconfigure(options: NbDownlinkOptions | null): void {
    this.options = options;
    this.client = options ? new NbPlatformClient(options) : null;
  }

  /** An NB-IoT model, or a device registered with a platform deviceId (and no TCP session, the caller checks). */
  static isNb(device: { nbDeviceId: string | null; deviceType: number }): boolean {
    return isNbIotModel(device.deviceType) || !!device.nbDeviceId;
  }

  async loadDevice(deviceId: string): Promise<NbDevice | null> {
    const row = await this.db
      .selectFrom('devices as d')
      .leftJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.id', 'd.terminal_id', 'd.protocol', 'd.nb_device_id', 'd.device_type', 'u.path'])
      .where('d.id', '=', deviceId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: String(row.id),
      terminalId: row.terminal_id,
      protocol: row.protocol,
      path: row.path ?? '',
      nbDeviceId: row.nb_device_id,
      deviceType: row.device_type,
    };
  }

  /** Sends one stored command (live or offline) to an NB-IoT device through the platform. */
  async deliver(device: NbDevice, row: CommandRow): Promise<void> {
    const id = String(row.id);
    if (row.status !== 'pending' || this.inFlight.has(id)) return;
    if (!device.nbDeviceId?.trim()) return this.cannotSend(device, row, NO_NB_DEVICE_ID);
    if (!this.client || !this.options) return this.cannotSend(device, row, NO_PLATFORM);
    this.inFlight.add(id);
    if (!(await this.claim(id, this.options))) {
      this.inFlight.delete(id);
      return;
    }
    try {
      const { value, key } = this.encode(device, row);
      const expireSeconds =
        row.mode === 'offline' && row.expires_at
          ? Math.max(0, (row.expires_at.getTime() - Date.now()) / 1000)
          : Math.ceil(this.commandTimeoutMs / 1000);
      try {
        const accepted = await this.client.sendCommand({ deviceId: device.nbDeviceId, value, expireSeconds });
        // What the reply or a status notification will name it by, for any process, also after a restart.
        await this.db
          .updateTable('commands')
          .set({ platform_command_id: accepted.platformCommandId ?? null, reply_serial: key })
          .where('id', '=', id)
          .execute();
        const platform = accepted.platformCommandId ? ` as ${accepted.platformCommandId}` : '';
        const status = accepted.platformStatus ? `, ${accepted.platformStatus}` : '';
        await this.store.transition(device, id, 'sent', {
          from: ['pending'],
          sent: true,
          detail: `sent through the NB-IoT platform${platform}${status} (${this.options.encoding}, attempt ${accepted.attempts})`,
        });
      } catch (err) {
        if (!(err instanceof NbPlatformError)) throw err;
        if (err.retryable) {
          await this.store.transition(device, id, 'pending', {
            from: ['pending'],
            detail:
              `NB-IoT platform unreachable (${err.message}, ${err.attempts} attempts); stays pending, tried again at the next push`.slice(
                0,
                500,
              ),
          });
        } else {
          await this.store.transition(device, id, 'failed', {
            from: ['pending'],
            result: COMMAND_RESULT.error,
            detail: `NB-IoT platform refused the command: ${err.message}`.slice(0, 500),
          });
        }
      }
    } finally {
      this.inFlight.delete(id);
      await this.release(id);
    }
  }

  /**
   * Claims the command across gateway processes for as long as one delivery may take (migration 0203), and only
   * while it is still pending: another process may have sent it and let go of its claim meanwhile.
   */
  private async claim(id: string, options: NbDownlinkOptions): Promise<boolean> {
    const holdMs = options.requestTimeoutMs * (options.retries + 1) + 5000;
    const res = await sql<{ command_id: string }>`
      INSERT INTO command_claims (command_id, claimed_until)
      SELECT id, now() + ${holdMs} * interval '1 millisecond' FROM commands WHERE id = ${id} AND status = 'pending'
      ON CONFLICT (command_id) DO UPDATE SET claimed_until = EXCLUDED.claimed_until
        WHERE command_claims.claimed_until < now()
      RETURNING command_id`.execute(this.db);
    return res.rows.length > 0;
  }

  private async release(id: string): Promise<void> {
    await sql`DELETE FROM command_claims WHERE command_id = ${id}`.execute(this.db).catch(this.onError);
  }

  /**
   * The device pushed data: it is reachable now. Its pending commands go out — offline ones not expired, and
   * live ones whose sender is still waiting (the platform was unreachable at their first try).
   */
  async onPush(device: NbDevice): Promise<void> {
    const since = new Date(Date.now() - this.commandTimeoutMs);
    const rows = await this.db
      .selectFrom('commands')
      .selectAll()
      .where('device_id', '=', device.id)
      .where('status', '=', 'pending')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('mode', '=', 'offline'),
            eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]),
          ]),
          eb.and([eb('mode', '=', 'live'), eb('created_at', '>', since)]),
        ]),
      )
      .orderBy('id')
      .execute();
    for (const row of rows) await this.deliver(device, row as CommandRow);
  }

  /** A command reply decoded from a pushed frame (GT06 0x15/0x21 with its server flag, JT/T 808 with a serial). */
  async onFrameReply(device: NbDevice, reply: CommandReply): Promise<boolean> {
    let commandId: string | undefined;
    if (reply.serverFlag !== undefined) {
      commandId = await this.ownOpen(device.id, String(reply.serverFlag >>> 0));
    } else if (reply.answeredSerial !== undefined) {
      commandId = await this.openBySerial(device.id, reply.answeredSerial);
    }
    commandId ??= await this.oldestSent(device.id);
    if (!commandId) return false;
    return this.answer(device, commandId, replyText(reply), replyForm(reply));
  }

  /** A commandRsp notification (or a status notification with the device's answer): the reply as text. */
  async onTextReply(device: NbDevice, text: string, platformCommandId?: string): Promise<boolean> {
    let commandId = platformCommandId ? await this.byPlatformId(device.id, platformCommandId) : undefined;
    commandId ??= await this.oldestSent(device.id);
    if (!commandId) return false;
    return this.answer(device, commandId, text);
  }

  /** The platform's command status notification (callbackUrl): SENT, DELIVERED, SUCCESSFUL, FAILED, TIMEOUT, … */
  async onPlatformStatus(device: NbDevice, platformCommandId: string, code: string, reply: string | null) {
    const commandId = await this.byPlatformId(device.id, platformCommandId);
    if (!commandId) return false;
    const upper = code.toUpperCase();
    if (upper === 'SUCCESSFUL' && reply) return this.answer(device, commandId, reply);
    if (PLATFORM_GAVE_UP.has(upper)) {
      const row = await this.store.transition(device, commandId, 'pending', {
        from: ['sent'],
        detail: `NB-IoT platform reported ${upper}; pending again, sent at the next push`,
      });
      return row !== null;
    }
    const row = await this.store.transition(device, commandId, 'sent', {
      from: ['sent'],
      detail: `NB-IoT platform reported ${upper}`,
    });
    return row !== null;
  }

  private async answer(
    device: NbDevice,
    commandId: string,
    text: string,
    form: CommandReplyForm = 'text',
  ): Promise<boolean> {
    const command = await this.store.get(commandId);
    if (!command) return false;
    const row = await this.store.transition(device, commandId, 'answered', {
      from: ['pending', 'sent', 'timeout'],
      result: classifyCommandReply({ content: command.content, reply: text, form }),
      reply: text,
      answered: true,
      detail: `reply through the NB-IoT platform: ${text}`.slice(0, 500),
    });
    return row !== null;
  }

  /** Records once (per process) why a command to this device cannot go out; a live sender is told at once. */
  private async cannotSend(device: NbDevice, row: CommandRow, reason: string): Promise<void> {
    const id = String(row.id);
    if (row.mode === 'live') {
      await this.store.transition(device, id, 'failed', {
        from: ['pending'],
        result: COMMAND_RESULT.error,
        detail: reason,
      });
      return;
    }
    if (this.noted.has(id)) return;
    this.noted.add(id);
    await this.store.transition(device, id, 'pending', { from: ['pending'], detail: `not sent: ${reason}` });
  }

  private encode(device: NbDevice, row: CommandRow): { value: string; key: number | null } {
    const o = this.options as NbDownlinkOptions;
    if (o.encoding === 'text') return { value: row.content, key: null };
    const waiting = this.awaitingOf(device.id);
    if (device.protocol === 2) {
      // The server flag is the command id, as over TCP: the reply finds its command even after a restart.
      const flag = Number(BigInt(row.id) & 0xffffffffn);
      waiting.gt06Serial = (waiting.gt06Serial + 1) & 0xffff;
      return {
        value: gt06EncodeCommand(row.content, flag, waiting.gt06Serial).toString('hex').toUpperCase(),
        key: null,
      };
    }
    if (device.protocol === 1 || device.protocol === 3) {
      waiting.jt808 ??= createJt808Context();
      const encoder = new Jt808CommandEncoder(device.terminalId, '2013', waiting.jt808.serials);
      const command = encoder.text(row.content);
      return { value: command.frame.toString('hex').toUpperCase(), key: command.serial };
    }
    // Other protocols have no frame of ours: the text goes as it is.
    return { value: row.content, key: null };
  }

  private awaitingOf(deviceId: string): Awaiting {
    let a = this.awaiting.get(deviceId);
    if (!a) {
      a = { jt808: null, gt06Serial: 0 };
      this.awaiting.set(deviceId, a);
    }
    return a;
  }

  /** The device's command the platform knows by `platformId` (whatever its status; transitions check it). */
  private async byPlatformId(deviceId: string, platformId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('commands')
      .select('id')
      .where('platform_command_id', '=', platformId)
      .where('device_id', '=', deviceId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row ? String(row.id) : undefined;
  }

  /** The device's newest command still waiting for a reply that went out as the JT/T 808 frame `serial`. */
  private async openBySerial(deviceId: string, serial: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('commands')
      .select('id')
      .where('device_id', '=', deviceId)
      .where('reply_serial', '=', serial)
      .where('status', 'in', ['pending', 'sent', 'timeout'])
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row ? String(row.id) : undefined;
  }

  /** The command `id` if it belongs to this device and still waits for a reply. */
  private async ownOpen(deviceId: string, id: string): Promise<string | undefined> {
    const row = await this.store.get(id).catch(() => undefined);
    if (!row || String(row.device_id) !== deviceId) return undefined;
    return ['pending', 'sent', 'timeout'].includes(row.status) ? String(row.id) : undefined;
  }

  /** A reply that names no command answers the oldest command sent to the device and not answered yet. */
  private async oldestSent(deviceId: string): Promise<string | undefined> {
    const res = await sql<{ id: string }>`
      SELECT id FROM commands WHERE device_id = ${deviceId} AND status = 'sent' ORDER BY sent_at, id LIMIT 1`.execute(
      this.db,
    );
    return res.rows[0] ? String(res.rows[0].id) : undefined;
  }

  /** Errors of background work go to the gateway's error handler. */
  run(work: Promise<unknown>): void {
    work.catch(this.onError);
  }
}
