// One device connection: split → decode → bind to a registered device → ingest → ACK after commit.
// Commands go out through `sendCommand`; replies come back to the dispatcher.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { CommandReply, DecodedMessage } from '@carhere/protocols';
import type { DeviceLog } from './device-log.ts';
import type { DeviceDirectory, DeviceRef } from './directory.ts';
import type { FrameCapture } from './frame-capture.ts';
import type { IngestBatcher } from './ingest/batcher.ts';
import { type PreparedMessage, prepareMessage } from './ingest/prepare.ts';
import { type DerivedAlarmMemory, newDerivedAlarmMemory, OFFLINE_ALARM } from './ingest/rules.ts';
import type { DeviceStateWriter } from './ingest/state-writer.ts';
import type { ConnectionCodec } from './protocol.ts';
import type { RegisteredSession, SessionRegistry } from './registry.ts';

const PROCESS_TAG = randomBytes(4).toString('hex');
let sessionCounter = 0;

/** What a session needs from the gateway around it. */
export interface SessionContext {
  directory: DeviceDirectory;
  registry: SessionRegistry;
  batcher: IngestBatcher;
  state: DeviceStateWriter;
  log: DeviceLog;
  /** Raw frame capture switched on per IMEI by staff (factory log/search); absent in some tests. */
  capture?: FrameCapture;
  maxBadFrames: number;
  maxGarbageBytes: number;
  /** A device finished logging in: deliver its offline commands, tell other gateway processes, activate it. */
  onBound(session: Session): void;
  onReply(session: Session, reply: CommandReply): void;
  onError(err: unknown): void;
}

export type CloseReason = 'replaced' | 'idle' | 'shutdown' | 'garbage' | 'refused' | 'remote' | 'error' | 'deleted';

export class Session implements RegisteredSession {
  readonly key = `${PROCESS_TAG}-${(++sessionCounter).toString(36)}`;
  deviceId: string | null = null;
  device: DeviceRef | null = null;
  lastActivity = Date.now();
  /** Command ids already written on this connection (each is sent at most once per connection). */
  readonly sentCommands = new Set<string>();
  /** Reply key (GT06 server flag / JT/T 808 serial) → command id, for commands awaiting a reply here. */
  readonly awaiting = new Map<number, string>();
  private closed = false;
  private corked = false;
  /** The device finished logging in (GT06 login; JT/T 808 anything after registration): commands may go out. */
  private ready = false;
  private binding: Uint8Array[] | null = null;
  /** Undecodable frames in a row. */
  private badFrames = 0;
  /** Frames that came before the device identified itself. */
  private unidentified = 0;
  /** Bytes the splitter threw away in the current minute. */
  private garbageBytes = 0;
  private garbageSince = 0;
  private alarmMemory: DerivedAlarmMemory | null = null;

  constructor(
    readonly socket: Socket,
    readonly codec: ConnectionCodec,
    private readonly ctx: SessionContext,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.close('error'));
    socket.on('close', () => this.close('remote'));
    ctx.registry.add(this);
  }

  get remote(): string {
    return `${this.socket.remoteAddress ?? ''}:${this.socket.remotePort ?? ''}`;
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.lastActivity = Date.now();
    const frames = this.codec.split(chunk);
    const discarded = this.codec.takeDiscarded();
    if (discarded > 0) {
      if (this.lastActivity - this.garbageSince > 60_000) {
        this.garbageSince = this.lastActivity;
        this.garbageBytes = 0;
      }
      this.garbageBytes += discarded;
    }
    for (const frame of frames) {
      if (this.closed) return;
      if (this.binding) this.binding.push(frame);
      else this.handleFrame(frame);
    }
    if (this.badFrames > this.ctx.maxBadFrames || this.garbageBytes > this.ctx.maxGarbageBytes) {
      this.refuseGarbage();
      return;
    }
    if (this.ctx.batcher.overloaded && !this.socket.isPaused()) {
      this.socket.pause();
      this.ctx.batcher.whenRoom().then(() => {
        if (!this.closed) this.socket.resume();
      });
    }
  }

  private handleFrame(frame: Uint8Array): void {
    const res = this.codec.decode(frame);
    const capture = this.ctx.capture;
    if (capture) {
      const terminalId = this.device?.terminalId ?? (res.ok ? res.message.terminalId : undefined);
      if (capture.active(terminalId))
        capture.record(
          terminalId as string,
          this.codec.protocol,
          'in',
          frame,
          res.ok ? res.message : { error: 'undecodable' },
          this.remote,
        );
    }
    if (!res.ok) {
      this.badFrames++;
      return;
    }
    this.badFrames = 0;
    const msg = res.message;
    if (this.device) {
      this.handleMessage(msg);
      return;
    }
    if (!msg.terminalId) {
      // Nothing identifies the device yet (GT06 before its login): ignore, but not forever.
      if (++this.unidentified > this.ctx.maxBadFrames) this.refuseGarbage();
      return;
    }
    this.binding = [];
    this.bind(msg).catch((err) => {
      this.ctx.onError(err);
      this.close('error');
    });
  }

  private async bind(first: DecodedMessage): Promise<void> {
    const terminalId = first.terminalId as string;
    const device = await this.ctx.directory.find(terminalId);
    if (this.closed) return;
    if (!device) {
      this.ctx.log.write({
        terminalId,
        deviceId: null,
        protocol: this.codec.protocol,
        event: 'refused',
        remote: this.remote,
        detail: 'unknown device',
      });
      const refusal = this.codec.refusal(first);
      if (refusal) this.socket.end(refusal);
      this.close('refused');
      return;
    }
    this.device = device;
    this.deviceId = device.id;
    this.codec.bind(device);
    this.ctx.registry.bind(device.id, this);
    await this.ctx.state.setOnline(device, this.key, Date.now());
    if (this.closed) return;
    this.ctx.log.write({
      terminalId: device.terminalId,
      deviceId: device.id,
      protocol: this.codec.protocol,
      event: 'login',
      remote: this.remote,
    });
    const queued = this.binding ?? [];
    this.binding = null;
    this.handleMessage(first);
    for (const frame of queued) if (!this.closed) this.handleFrame(frame);
  }

  private handleMessage(msg: DecodedMessage): void {
    const device = this.device as DeviceRef;
    if (device.deleted) {
      this.close('deleted');
      return;
    }
    if (msg.commandReply) this.ctx.onReply(this, msg.commandReply);
    const now = Date.now();
    this.alarmMemory ??= newDerivedAlarmMemory(device.speedLimit);
    this.alarmMemory.speedLimit = device.speedLimit;
    const { positions, rejected, alarms, status } = prepareMessage(msg, this.alarmMemory, now);
    if (rejected > 0) {
      this.ctx.log.write({
        terminalId: device.terminalId,
        deviceId: device.id,
        protocol: this.codec.protocol,
        event: 'invalidPosition',
        detail: `${rejected} fix(es) out of range or time`,
      });
    }
    const reply = msg.reply;
    if (positions.length === 0 && alarms.length === 0) {
      // Heartbeats, logins, status: nothing that must be durable first.
      if (reply) this.socket.write(reply);
      this.ctx.state.noteRecord(device.id, null, status, now);
    } else {
      this.submit(device, positions, alarms, status, now, reply);
    }
    if (!this.ready && msg.messageType !== 'register' && !this.closed) {
      this.ready = true;
      this.ctx.onBound(this);
    }
  }

  private submit(
    device: DeviceRef,
    positions: PreparedMessage['positions'],
    alarms: PreparedMessage['alarms'],
    status: PreparedMessage['status'],
    now: number,
    reply: Buffer | null,
  ): void {
    this.ctx.batcher.submit({
      device,
      positions,
      alarms,
      status,
      receivedAt: now,
      done: reply
        ? (err) => {
            if (!err && !this.closed) this.writeAck(reply);
          }
        : null,
    });
  }

  /**
   * ACKs released by one committed batch go out in one write per connection: the socket is corked at the
   * first and uncorked once the batch's callbacks have run.
   */
  private writeAck(reply: Buffer): void {
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      queueMicrotask(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(reply);
  }

  /** Claims a command for this connection (each command goes out once per connection); false when the
   * connection is gone or the command was already claimed here. */
  claimCommand(commandId: string): boolean {
    if (this.closed || this.sentCommands.has(commandId)) return false;
    this.sentCommands.add(commandId);
    return true;
  }

  /** Writes a claimed command to the device; false when the connection is gone. */
  sendCommand(commandId: string, content: string): boolean {
    if (this.closed) return false;
    const { bytes, key } = this.codec.encodeCommand(content, commandId);
    this.awaiting.set(key, commandId);
    this.socket.write(bytes);
    const terminalId = this.device?.terminalId;
    if (this.ctx.capture?.active(terminalId))
      this.ctx.capture.record(
        terminalId as string,
        this.codec.protocol,
        'out',
        bytes,
        { commandId, content },
        this.remote,
      );
    return true;
  }

  private refuseGarbage(): void {
    this.ctx.log.write({
      terminalId: this.device?.terminalId ?? this.remote,
      deviceId: this.deviceId,
      protocol: this.codec.protocol,
      event: 'garbage',
      remote: this.remote,
      detail: `undecodable input: ${this.badFrames} bad frames in a row, ${this.garbageBytes} stray bytes, ${this.unidentified} frames before login`,
    });
    this.close('garbage');
  }

  close(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.binding = null;
    this.ctx.registry.remove(this);
    if (!this.socket.destroyed) {
      if (reason === 'refused') this.socket.destroySoon();
      else this.socket.destroy();
    }
    const device = this.device;
    if (!device) return;
    if (reason === 'idle' || reason === 'replaced') {
      this.ctx.log.write({
        terminalId: device.terminalId,
        deviceId: device.id,
        protocol: this.codec.protocol,
        event: reason,
        remote: this.remote,
      });
    } else if (reason !== 'shutdown') {
      this.ctx.log.write({
        terminalId: device.terminalId,
        deviceId: device.id,
        protocol: this.codec.protocol,
        event: 'logout',
        remote: this.remote,
        detail: reason,
      });
    }
    // A replaced session leaves the device online; a shutdown leaves it to the sweeper (the device will
    // reconnect to the next process); otherwise the device goes offline if no newer session owns it.
    if (reason === 'replaced' || reason === 'shutdown') return;
    const at = Date.now();
    this.ctx.state
      .setOffline(device, this.key, at)
      .then((last) => {
        if (!last) return;
        this.ctx.batcher.submit({
          device,
          positions: [],
          alarms: [
            {
              type: OFFLINE_ALARM,
              name: 'offline',
              source: 'derived',
              time: at,
              lat: last.lat,
              lon: last.lon,
              speed: null,
              course: null,
            },
          ],
          status: null,
          receivedAt: at,
          done: null,
        });
      })
      .catch(this.ctx.onError);
  }
}
