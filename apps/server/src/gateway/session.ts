// One device connection: split → decode → bind to a registered device → ingest → ACK after commit.
// Commands go out through `sendCommand`; replies come back to the dispatcher.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { CommandReply, DecodedMessage, ProtocolName } from '@carhere/protocols';
import { decodeErrors, framesReceived } from '../ops/metrics.ts';
import type { DeviceLog } from './device-log.ts';
import type { DeviceDirectory, DeviceRef } from './directory.ts';
import type { FactoryGpsTest, GpsTestRun } from './factory-gps-test.ts';
import type { FrameCapture } from './frame-capture.ts';
import type { LoginActivity } from './grouped.ts';
import type { IngestBatcher } from './ingest/batcher.ts';
import { type PreparedMessage, prepareMessage } from './ingest/prepare.ts';
import { type DerivedAlarmMemory, newDerivedAlarmMemory } from './ingest/rules.ts';
import type { DeviceStateWriter } from './ingest/state-writer.ts';
import type { Jt808AuthCodes } from './jt808-auth.ts';
import type { ModelSettings } from './model-settings.ts';
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
  /** GPS tests of devices in factory test mode (factory-gps-test.ts); absent in some tests. */
  gpsTest?: FactoryGpsTest;
  maxBadFrames: number;
  maxGarbageBytes: number;
  /** Per-model settings: which models may send bad checksums. */
  models: ModelSettings;
  /** JT/T 808 authentication codes (devices.jt808_auth_code). */
  authCodes: Jt808AuthCodes;
  /** A fresh codec of the other protocol, for a device that connected to the wrong port. */
  codecFor(protocol: ProtocolName): ConnectionCodec;
  /** A device finished logging in: deliver its offline commands, tell other gateway processes, activate it. */
  onBound(session: Session): void;
  /** Told of every login as it starts (work that can wait gives logins the way: grouped.ts LoginActivity). */
  loginActivity?: LoginActivity;
  onReply(session: Session, reply: CommandReply): void;
  /** Every message of an admitted device (remote upgrades follow their sub-package answers here). */
  onMessage?(session: Session, msg: DecodedMessage): void;
  /** JT/T 808 driver identification (0x0702): the vehicle's current driver changes. */
  onDriverIdentity?(device: DeviceRef, attributes: DecodedMessage['attributes'], receivedAt: number): void;
  /**
   * JT/T 808 0x0801 multimedia upload (a recording): stored before the 0x8800 answer goes out, so a terminal that
   * got its answer may forget the file.
   */
  onMedia?(device: DeviceRef, msg: DecodedMessage, receivedAt: number): Promise<void>;
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
  /**
   * The device may send data: GT06 after its login, JT/T 808 after a 0x0102 with the code of its 0x8100.
   * Until then nothing it sends is stored and the device is not marked online.
   */
  private admitted = false;
  /** The first bytes were looked at (a device of the other protocol on this port is served as that protocol). */
  private sniffed = false;
  /** Frames held while the device is looked up or a registration/authentication is written and read. */
  private binding: Uint8Array[] | null = null;
  /** Undecodable frames in a row. */
  private badFrames = 0;
  private held = false;
  /** Frames that came before the device identified itself. */
  private unidentified = 0;
  /** Bytes the splitter threw away in the current minute. */
  private garbageBytes = 0;
  private garbageSince = 0;
  private alarmMemory: DerivedAlarmMemory | null = null;
  /** This connection's GPS test while the device is in factory test mode and has no fix yet. */
  private gpsRun: GpsTestRun | null = null;

  constructor(
    readonly socket: Socket,
    public codec: ConnectionCodec,
    private readonly ctx: SessionContext,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.close('error'));
    socket.on('close', () => this.close('remote'));
    ctx.registry.add(this);
  }

  private remoteText: string | null = null;

  /** The peer's address and port (asked of the socket once: each ask is a system call). */
  get remote(): string {
    this.remoteText ??= `${this.socket.remoteAddress ?? ''}:${this.socket.remotePort ?? ''}`;
    return this.remoteText;
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.lastActivity = Date.now();
    if (!this.sniffed) this.sniff(chunk);
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
        if (!this.closed && !this.held) this.socket.resume();
      });
    }
  }

  /**
   * One port, one protocol: the first bytes tell GT06 (7878 / 7979) from JT/T 808 (7E, or a "(" text
   * sentence). A device of the other protocol is served with that protocol's codec (logged), never decoded
   * with this port's.
   */
  private sniff(chunk: Buffer): void {
    this.sniffed = true;
    const detected = detectProtocol(chunk);
    if (!detected || detected === this.codec.protocol) return;
    const port = this.codec.protocol;
    this.codec = this.ctx.codecFor(detected);
    this.ctx.log.write({
      terminalId: this.remote,
      deviceId: null,
      protocol: detected,
      event: 'otherProtocol',
      remote: this.remote,
      detail: `${PROTOCOL_NAMES[detected]} device on the ${PROTOCOL_NAMES[port]} port: served as ${PROTOCOL_NAMES[detected]}`,
    });
  }

  private handleFrame(frame: Uint8Array): void {
    const device = this.device;
    framesReceived.inc({ protocol: this.codec.protocol });
    let res = this.codec.decode(frame, device ? this.ctx.models.acceptsBadChecksums(device.deviceType) : false);
    let checksumBad = false;
    // Staff see every frame of a captured device, corrupted ones included (before the checksum verdict).
    const capture = this.ctx.capture;
    if (capture) {
      const terminalId = this.device?.terminalId ?? (res.ok ? res.message.terminalId : undefined);
      if (capture.active(terminalId))
        capture.record(
          terminalId as string,
          this.codec.protocol,
          'in',
          frame,
          res.ok ? res.message : { error: res.error.code },
          this.remote,
        );
    }
    if (!res.ok) decodeErrors.inc({ protocol: this.codec.protocol });
    if (!res.ok && res.error.code === 'bad_checksum') {
      if (device) {
        // Dropped and logged; not garbage: the connection keeps working.
        this.logBadChecksum(device.terminalId, device.id);
        return;
      }
      // Before the device is known: read it anyway to learn who it claims to be; bind() decides by its model.
      res = this.codec.decode(frame, true);
      checksumBad = true;
    }
    if (!res.ok) {
      this.badFrames++;
      return;
    }
    this.badFrames = 0;
    const msg = res.message;
    if (device) {
      this.handleMessage(msg);
      return;
    }
    if (!msg.terminalId) {
      // Nothing identifies the device yet (GT06 before its login): ignore, but not forever.
      if (++this.unidentified > this.ctx.maxBadFrames) this.refuseGarbage();
      return;
    }
    this.binding = [];
    this.bind(msg, checksumBad).catch((err) => {
      this.ctx.onError(err);
      this.close('error');
    });
  }

  /** Handles held frames in order; a frame that starts another asynchronous step holds the rest again. */
  private drain(frames: Uint8Array[]): void {
    for (const frame of frames) {
      if (this.closed) return;
      if (this.binding) this.binding.push(frame);
      else this.handleFrame(frame);
    }
  }

  private release(): void {
    const held = this.binding ?? [];
    this.binding = null;
    this.drain(held);
  }

  private logBadChecksum(terminalId: string, deviceId: string | null): void {
    this.ctx.log.write({
      terminalId,
      deviceId,
      protocol: this.codec.protocol,
      event: 'badChecksum',
      remote: this.remote,
      detail: `frame dropped: ${this.codec.protocol === 'gt06' ? 'CRC-ITU' : 'XOR check'} does not match (device model may be allowed bad checksums in /api/gateway/modelSettings)`,
    });
  }

  private async bind(first: DecodedMessage, checksumBad: boolean): Promise<void> {
    const terminalId = first.terminalId as string;
    this.ctx.loginActivity?.note();
    const device = await this.ctx.directory.find(terminalId);
    if (this.closed) return;
    if (!device) {
      this.ctx.log.write({
        terminalId,
        deviceId: null,
        protocol: this.codec.protocol,
        event: 'refused',
        remote: this.remote,
        detail: checksumBad ? 'unknown device (frame with a bad checksum)' : 'unknown device',
      });
      const refusal = checksumBad ? null : this.codec.refusal(first);
      if (refusal) this.socket.end(refusal);
      this.close('refused');
      return;
    }
    if (checksumBad && !this.ctx.models.acceptsBadChecksums(device.deviceType)) {
      this.logBadChecksum(device.terminalId, device.id);
      this.release();
      return;
    }
    this.device = device;
    this.deviceId = device.id;
    this.codec.bind(device);
    if (!this.codec.needsAuth) {
      await this.admit(device);
      if (this.closed) return;
    }
    const queued = this.binding ?? [];
    this.binding = null;
    this.handleMessage(first);
    this.drain(queued);
  }

  /**
   * The device may send data now: it owns the device's session, goes online, and the login is logged. The login
   * is answered once the online state is written (so a command sent right after sees the device online); that
   * write is grouped with the other logins' (a reconnect storm is a few statements, not one per device), and
   * while the database is away the login goes ahead from the directory's cache and the write catches up when the
   * database returns. The device log entry and the live notice do not hold the answer.
   */
  private async admit(device: DeviceRef): Promise<void> {
    this.admitted = true;
    this.ctx.registry.bind(device.id, this);
    this.gpsRun = this.ctx.gpsTest?.begin(device, Date.now()) ?? null;
    this.ctx.log.write({
      terminalId: device.terminalId,
      deviceId: device.id,
      protocol: this.codec.protocol,
      event: 'login',
      remote: this.remote,
    });
    await this.ctx.state.setOnline(device, this.key, Date.now()).catch(this.ctx.onError);
  }

  /** JT/T 808 registration (0x0100) and authentication (0x0102): database steps; later frames wait. */
  private authStep(msg: DecodedMessage): void {
    this.binding = [];
    this.runAuthStep(msg).then(
      () => {
        if (!this.closed) this.release();
      },
      (err) => {
        this.ctx.onError(err);
        this.close('error');
      },
    );
  }

  private async runAuthStep(msg: DecodedMessage): Promise<void> {
    const device = this.device as DeviceRef;
    if (msg.messageType === 'register') {
      const code = await this.ctx.authCodes.issue(device.id);
      device.jt808AuthCode = code;
      if (this.closed) return;
      this.ctx.log.write({
        terminalId: device.terminalId,
        deviceId: device.id,
        protocol: this.codec.protocol,
        event: 'register',
        remote: this.remote,
      });
      const reply = this.codec.registerReply(msg, code);
      if (reply) this.socket.write(reply);
      return;
    }
    const presented = typeof msg.attributes.authCode === 'string' ? msg.attributes.authCode : '';
    // The directory read the code with the device: a terminal presenting it is admitted without another query
    // (and while the database is away); any other code is checked against the database.
    const cached = device.jt808AuthCode ?? null;
    const fromCache = cached !== null && sameCode(presented, cached);
    const stored = fromCache ? cached : await this.ctx.authCodes.stored(device.id);
    if (this.closed) return;
    if (!fromCache && (stored === null || !sameCode(presented, stored))) {
      this.ctx.log.write({
        terminalId: device.terminalId,
        deviceId: device.id,
        protocol: this.codec.protocol,
        event: 'authFailed',
        remote: this.remote,
        detail:
          stored === null ? 'authentication before any registration: no code issued' : 'wrong authentication code',
      });
      const refusal = this.codec.answer(msg, JT808_FAILURE);
      if (refusal) this.socket.write(refusal);
      return;
    }
    if (!this.admitted) {
      await this.admit(device);
      if (this.closed) return;
    }
    const reply = this.codec.answer(msg, JT808_SUCCESS);
    if (reply) this.socket.write(reply);
    if (!this.ready) {
      this.ready = true;
      this.ctx.onBound(this);
    }
  }

  private handleMessage(msg: DecodedMessage): void {
    const device = this.device as DeviceRef;
    if (device.deleted) {
      this.close('deleted');
      return;
    }
    if (this.codec.needsAuth && (msg.messageType === 'register' || msg.messageType === 'auth')) {
      this.authStep(msg);
      return;
    }
    if (!this.admitted) {
      // JT/T 808 data before a successful authentication: failure 0x8001, nothing stored.
      this.ctx.log.write({
        terminalId: device.terminalId,
        deviceId: device.id,
        protocol: this.codec.protocol,
        event: 'unauthenticated',
        remote: this.remote,
        detail: `message 0x${msg.messageId.toString(16).padStart(4, '0')} before authentication: refused, nothing stored`,
      });
      const refusal = this.codec.answer(msg, JT808_FAILURE);
      if (refusal) this.socket.write(refusal);
      return;
    }
    if (msg.commandReply) this.ctx.onReply(this, msg.commandReply);
    this.ctx.onMessage?.(this, msg);
    const now = Date.now();
    if (msg.messageType === 'driverIdentity') this.ctx.onDriverIdentity?.(device, msg.attributes, now);
    this.alarmMemory ??= newDerivedAlarmMemory(device.speedLimit);
    this.alarmMemory.speedLimit = device.speedLimit;
    const { positions, rejected, alarms, status } = prepareMessage(msg, this.alarmMemory, now);
    if (this.gpsRun && msg.positions.length > 0) {
      const ttff = this.gpsRun.observe(msg.positions, now);
      if (ttff !== null) {
        this.ctx.gpsTest?.finish(device, this.gpsRun, ttff);
        this.gpsRun = null;
      }
    }
    if (rejected > 0) {
      this.ctx.log.write({
        terminalId: device.terminalId,
        deviceId: device.id,
        protocol: this.codec.protocol,
        event: 'invalidPosition',
        detail: `${rejected} fix(es) out of range or time`,
      });
    }
    let reply = msg.reply;
    if (msg.media && this.ctx.onMedia) {
      // The 0x8800 answer waits for the file to be stored (and for the position it carried, if any).
      const answer = reply;
      reply = null;
      this.ctx.onMedia(device, msg, now).then(
        () => {
          if (answer && !this.closed) this.writeAck(answer);
        },
        (err) => this.ctx.onError(err),
      );
    }
    if (positions.length === 0 && alarms.length === 0) {
      // Heartbeats, logins, status: nothing that must be durable first.
      if (reply) this.socket.write(reply);
      // A login's time is written by the online transition (last_seen): no second row per login in a storm.
      if (msg.messageType !== 'login' || status) this.ctx.state.noteRecord(device.id, null, status, now);
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

  /** Stops reading the socket for good (graceful shutdown: what arrived is written and ACKed, nothing more). */
  hold(): void {
    this.held = true;
    if (!this.socket.destroyed) this.socket.pause();
  }

  close(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.binding = null;
    this.ctx.registry.remove(this);
    if (!this.socket.destroyed) {
      // Refused and shut down: the bytes already written (a refusal, the last ACKs) go out before the FIN.
      if (reason === 'refused' || reason === 'shutdown') this.socket.destroySoon();
      else this.socket.destroy();
    }
    const device = this.device;
    if (!device || !this.admitted) return;
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
    // reconnect to the next process); otherwise the device goes offline if no newer session owns it. No alarm
    // here: the offline alarm is raised by the sweeper once the device has been silent past its threshold.
    if (reason === 'replaced' || reason === 'shutdown') return;
    this.ctx.state.setOffline(device, this.key, Date.now()).catch(this.ctx.onError);
  }
}

const JT808_SUCCESS = 0;
const JT808_FAILURE = 1;

const PROTOCOL_NAMES: Record<ProtocolName, string> = { gt06: 'GT06', jt808: 'JT/T 808' };

/** The protocol the first bytes of a connection belong to, or null when they do not say. */
export function detectProtocol(chunk: Uint8Array): ProtocolName | null {
  if (chunk.length === 0) return null;
  const b0 = chunk[0];
  if (b0 === 0x7e || b0 === 0x28) return 'jt808';
  if ((b0 === 0x78 || b0 === 0x79) && (chunk.length < 2 || chunk[1] === b0)) return 'gt06';
  return null;
}

/** Constant-time comparison of an authentication code. */
function sameCode(presented: string, stored: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(stored, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
