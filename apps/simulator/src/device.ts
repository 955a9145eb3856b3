// One simulated tracker over real TCP: logs in (GT06) or registers and authenticates (JT/T 808), then sends
// positions, heartbeats and the odd alarm, answers commands, and keeps count of what the platform ACKed.
// Two ways to drive it: `startTimer` (real time, for the demo and the CLI) and `sendPositions` (as fast as
// the ACKs come back with a window of unacknowledged fixes, for load tests and benchmarks).
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { readJt808UpgradeBody } from '@carhere/protocols';
import {
  Gt06Alarm,
  Gt06ServerReader,
  Gt06Type,
  gt06AlarmPacket,
  gt06CommandReply,
  gt06Heartbeat,
  gt06Location,
  gt06Login,
} from './gt06.ts';
import { Jt808AlarmBit, Jt808Msg, Jt808ServerReader, Jt808Terminal } from './jt808.ts';
import type { Fix, VehicleTrack } from './track.ts';

export type SimProtocol = 'gt06' | 'jt808';

export interface DeviceOptions {
  protocol: SimProtocol;
  terminalId: string;
  host: string;
  port: number;
  track: VehicleTrack;
  /** Chance per position of sending an alarm instead (SOS, power cut, vibration). */
  alarmProbability?: number;
  /** The text a device answers a command with; null stays silent (JT/T 808 answers with a general response). */
  replyTo?: (command: string) => string | null;
  /** Remember every ACKed fix time (tests); off by default to keep memory flat. */
  recordAcks?: boolean;
  /** JT/T 808: an authentication code the terminal already holds (from an earlier registration). */
  jt808AuthCode?: string | null;
  /** Called for every command received (tests). */
  onCommand?: (text: string, connection: number) => void;
  /** JT/T 808 edition the terminal speaks (default 2013). */
  jt808Version?: '2013' | '2019';
  /**
   * After a transfer-IP command (GT06 `SERVER,…#`, JT/T 808 0x8103 main server) is answered: reconnect to the new
   * address, as a real tracker does. Off by default (the device only records the new address).
   */
  followTransfer?: boolean;
  /** Called when the platform moves the device to another server. */
  onTransfer?: (host: string, port: number) => void;
  /** JT/T 808 remote upgrade: chance of dropping each 0x8108 sub-package received (no answer, not kept). */
  otaDropRate?: number;
  /** Random source for drops (tests pass a seeded one). */
  random?: () => number;
  /** JT/T 808 remote upgrade: the SHA-256 the reassembled firmware must have, else 0x0108 reports a failure. */
  otaExpectSha256?: string;
  /**
   * JT/T 808: answer a record-audio command (`LY,<seconds>#`) by uploading a recording (0x0801, WAV) in
   * sub-packages, as event 0 (the platform's command). Its length is the asked seconds, at most this many
   * (default 0: no recording).
   */
  recordSecondsMax?: number;
}

/** A recording the terminal uploaded and the platform's 0x8800 answer. */
export interface UploadedMedia {
  mediaId: number;
  parts: number;
  bytes: number;
  /** Parts the platform asked for again (0x8800 list); empty when it received them all. */
  missing: number[];
}

/**
 * A WAV file of `seconds` of a 440 Hz tone: 8 kHz, 8-bit unsigned PCM, mono (8000 bytes a second after the
 * 44-byte header).
 */
export function toneWav(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.round(seconds * rate);
  const b = Buffer.alloc(44 + samples);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8, 'ascii');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate, 28); // bytes per second
  b.writeUInt16LE(1, 32); // block align
  b.writeUInt16LE(8, 34); // bits per sample
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(samples, 40);
  for (let i = 0; i < samples; i++) b[44 + i] = 128 + Math.round(60 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return b;
}

/** What a terminal did with a remote upgrade. */
export interface UpgradeOutcome {
  version: string;
  size: number;
  sha256: string;
  parts: number;
  dropped: number;
  resendRequests: number;
  result: number;
}

export interface DeviceStats {
  sent: number;
  acked: number;
  alarms: number;
  commands: number;
  connections: number;
}

const HEARTBEAT_EVERY = 6;
/** Where a GT06 device keeps its time zone (GMT,…#) among its parameters (no JT/T 808 id). */
const GMT_PARAM = 0xf000;

export class SimulatedDevice {
  readonly stats: DeviceStats = { sent: 0, acked: 0, alarms: 0, commands: 0, connections: 0 };
  /** Fix times (ms) the platform ACKed, when recordAcks is set. */
  readonly acked: number[] = [];
  private socket: Socket | null = null;
  private serial = 0;
  /** frame serial → fix time, for fixes awaiting their ACK */
  private readonly unacked = new Map<number, number>();
  private gt06Reader = new Gt06ServerReader();
  private jt808Reader = new Jt808ServerReader();
  private readonly jt808: Jt808Terminal | null;
  private loggedIn: (() => void) | null = null;
  /** JT/T 808: the authentication code from the platform's 0x8100, kept across connections like a real terminal. */
  private authCode: string | null = null;
  private ackWaiter: (() => void) | null = null;
  /** Uploads awaiting the platform's 0x8800, by media id. */
  private readonly mediaWaiters = new Map<number, (reply: { missing: number[] }) => void>();
  private nextMediaId = 1;
  /** Recordings uploaded and answered (0x8800), in order. */
  readonly uploads: UploadedMedia[] = [];
  private timer: NodeJS.Timeout | null = null;
  private ticks = 0;
  private stopped = false;
  /** The device's parameters (JT/T 808 ids; GT06 answers PARAM# from them): server, heartbeat, APN … */
  readonly params = new Map<number, number | string>([
    [0x0001, 30],
    [0x0010, 'CMNET'],
    [0x0029, 30],
  ]);
  /** The server address the platform last told it to use. */
  transferredTo: { host: string; port: number } | null = null;
  /** The last remote upgrade (JT/T 808 0x8108), once reassembled. */
  upgraded: UpgradeOutcome | null = null;
  private upgrade: {
    total: number;
    parts: (Buffer | undefined)[];
    have: number;
    firstSerial: number;
    /** Arrival of this part index triggers the next 0x0005 (2019) for what is missing. */
    askAfter: number;
    dropped: number;
    requests: number;
  } | null = null;

  constructor(readonly o: DeviceOptions) {
    this.jt808 = o.protocol === 'jt808' ? new Jt808Terminal(o.terminalId, o.jt808Version ?? '2013') : null;
    this.params.set(0x0013, o.host);
    this.params.set(0x0018, o.port);
    this.authCode = o.jt808AuthCode ?? null;
  }

  /** JT/T 808: the authentication code the terminal holds (null before its first registration). */
  get jt808AuthCode(): string | null {
    return this.authCode;
  }

  get connected(): boolean {
    return this.socket !== null && !this.socket.destroyed;
  }

  get outstanding(): number {
    return this.unacked.size;
  }

  private nextSerial(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  /** Connects and logs in; resolves once the platform accepted the login (rejects if it closes instead). */
  connect(timeoutMs = 10_000): Promise<void> {
    this.stopped = false;
    this.gt06Reader = new Gt06ServerReader();
    this.jt808Reader = new Jt808ServerReader();
    this.unacked.clear();
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.o.host, port: this.o.port, noDelay: true });
      this.socket = socket;
      let settled = false;
      const settle = (err: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (this.socket === socket) this.loggedIn = null;
        if (err) reject(err);
        else {
          this.stats.connections++;
          resolve();
        }
      };
      const timer = setTimeout(() => {
        socket.destroy();
        settle(new Error(`${this.o.terminalId}: login not answered`));
      }, timeoutMs);
      this.loggedIn = () => settle(null);
      socket.on('data', (chunk) => {
        if (this.socket === socket) this.onData(chunk);
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        settle(new Error(`${this.o.terminalId}: connection closed before login`));
        if (this.socket !== socket) return;
        this.socket = null;
        this.ackWaiter?.();
      });
      socket.on('connect', () => {
        // A JT/T 808 terminal registers once and then authenticates with the code it was given.
        if (this.jt808) {
          socket.write(
            this.authCode === null
              ? this.jt808.register(this.nextSerial())
              : this.jt808.auth(this.nextSerial(), this.authCode),
          );
        } else socket.write(gt06Login(this.o.terminalId, this.nextSerial()));
      });
    });
  }

  private onData(chunk: Buffer): void {
    if (this.jt808) {
      for (const f of this.jt808Reader.push(chunk)) {
        if (f.register && this.socket) {
          if (f.register.result === 0) {
            this.authCode = f.register.authCode;
            this.socket.write(this.jt808.auth(this.nextSerial(), f.register.authCode));
          } else this.socket.destroy();
        } else if (f.answered) {
          if (f.answered.messageId === Jt808Msg.auth) {
            if (f.answered.result === 0) this.loggedIn?.();
            else if (this.socket) {
              // The code was refused (the platform lost it, or the device was re-assigned): register again.
              this.authCode = null;
              this.socket.write(this.jt808.register(this.nextSerial()));
            }
          } else if (f.answered.messageId === Jt808Msg.location) this.ack(f.answered.serial);
        } else if (f.mediaReply) {
          this.mediaWaiters.get(f.mediaReply.mediaId)?.(f.mediaReply);
        } else if (f.part && f.messageId === Jt808Msg.upgrade && this.socket) {
          this.onUpgradePart(f.serial, f.part);
        } else if (f.parameters && this.socket) {
          this.stats.commands++;
          for (const [id, v] of f.parameters) this.params.set(id, v);
          this.o.onCommand?.(
            `0x8103 ${[...f.parameters].map(([id, v]) => `${id.toString(16)}=${v}`).join(';')}`,
            this.stats.connections,
          );
          this.socket.write(this.jt808.generalResponse(this.nextSerial(), f.serial, f.messageId, 0));
          const server = f.parameters.get(0x0013);
          if (typeof server === 'string') {
            const [host, port] = server.includes(':')
              ? [server.slice(0, server.lastIndexOf(':')), Number(server.slice(server.lastIndexOf(':') + 1))]
              : [server, Number(f.parameters.get(0x0018) ?? this.o.port)];
            this.transfer(host, port);
          }
        } else if (f.query && this.socket) {
          this.stats.commands++;
          this.o.onCommand?.('0x8104', this.stats.connections);
          this.socket.write(this.jt808.parameterReply(this.nextSerial(), f.serial, this.params));
        } else if (f.text !== undefined && this.socket) {
          this.stats.commands++;
          this.o.onCommand?.(f.text, this.stats.connections);
          const answer = this.o.replyTo ? this.o.replyTo(f.text) : 'OK';
          if (answer !== null) {
            const result = /fail|error/i.test(answer) ? 1 : 0;
            this.socket.write(this.jt808.generalResponse(this.nextSerial(), f.serial, f.messageId, result));
          }
          const record = /^LY,(\d+)#?$/i.exec(f.text.trim());
          const max = this.o.recordSecondsMax ?? 0;
          if (record && max > 0 && answer !== null) {
            this.uploadRecording(Math.min(max, Number(record[1])), 0).catch(() => {});
          }
        }
      }
      return;
    }
    for (const f of this.gt06Reader.push(chunk)) {
      if (f.type === Gt06Type.login) this.loggedIn?.();
      else if (f.type === Gt06Type.location || f.type === Gt06Type.alarm) this.ack(f.serial);
      else if (f.command && this.socket) {
        this.stats.commands++;
        this.o.onCommand?.(f.command.text, this.stats.connections);
        const text = this.o.replyTo ? this.o.replyTo(f.command.text) : this.gt06Answer(f.command.text);
        if (text !== null) this.socket.write(gt06CommandReply(this.nextSerial(), f.command.serverFlag, text));
        const server = /^SERVER,([01]),([^,]+),(\d+),\d#?$/i.exec(f.command.text);
        if (server && text !== null && /OK/i.test(text)) this.transfer(server[2] as string, Number(server[3]));
      }
    }
  }

  /** One 0x8108 sub-package: keep and answer it (or drop it now and then), reassemble when complete. */
  private onUpgradePart(serial: number, part: { total: number; index: number; body: Buffer }): void {
    const socket = this.socket;
    const jt = this.jt808;
    if (!socket || !jt) return;
    const firstSerial = (serial - part.index + 1) & 0xffff;
    if (!this.upgrade || this.upgrade.firstSerial !== firstSerial || this.upgrade.total !== part.total) {
      this.upgrade = {
        total: part.total,
        parts: new Array(part.total + 1),
        have: 0,
        firstSerial,
        askAfter: part.total,
        dropped: 0,
        requests: 0,
      };
    }
    const u = this.upgrade;
    const random = this.o.random ?? Math.random;
    const dropped = (this.o.otaDropRate ?? 0) > 0 && random() < (this.o.otaDropRate ?? 0);
    if (dropped) u.dropped++;
    else {
      if (!u.parts[part.index]) {
        u.parts[part.index] = Buffer.from(part.body);
        u.have++;
      }
      socket.write(jt.generalResponse(this.nextSerial(), serial, Jt808Msg.upgrade, 0));
    }
    if (u.have === u.total) {
      this.finishUpgrade(u);
      return;
    }
    // 2019 terminals ask for what is missing once the last part (or the last one asked for) has come by.
    if (jt.version === '2019' && part.index === u.askAfter) {
      const missing: number[] = [];
      for (let i = 1; i <= u.total; i++) if (!u.parts[i]) missing.push(i);
      u.askAfter = missing[missing.length - 1] as number;
      u.requests++;
      socket.write(jt.resendRequest(this.nextSerial(), u.firstSerial, missing));
    }
  }

  private finishUpgrade(u: NonNullable<SimulatedDevice['upgrade']>): void {
    const jt = this.jt808;
    if (!jt || !this.socket) return;
    const body = Buffer.concat(u.parts.slice(1) as Buffer[]);
    const read = readJt808UpgradeBody(body, jt.version);
    const sha256 = read ? createHash('sha256').update(read.firmware).digest('hex') : '';
    const ok = read !== null && (this.o.otaExpectSha256 === undefined || this.o.otaExpectSha256 === sha256);
    const result = ok ? 0 : 1;
    this.upgraded = {
      version: read?.version ?? '',
      size: read?.firmware.length ?? 0,
      sha256,
      parts: u.total,
      dropped: u.dropped,
      resendRequests: u.requests,
      result,
    };
    this.upgrade = null;
    this.socket.write(jt.upgradeResult(this.nextSerial(), read?.type ?? 0, result));
  }

  /** GT06 default answers: PARAM# lists the parameters, SERVER and others echo with OK. */
  private gt06Answer(command: string): string {
    if (/^PARAM#?$/i.test(command)) {
      const gmt = this.params.get(GMT_PARAM);
      return `IMEI:${this.o.terminalId};SERVER:${this.params.get(0x0013)},${this.params.get(0x0018)};APN:${this.params.get(0x0010)};HBT:${this.params.get(0x0001)};TIMER:${this.params.get(0x0029)}${gmt === undefined ? '' : `;GMT:${gmt}`}`;
    }
    const upgrade = /^UPGRADE,(https?:\/\/\S+?)#?$/i.exec(command);
    if (upgrade) this.httpUpgrade(upgrade[1] as string).catch(() => {});
    // Parameter commands: the answer to PARAM# reflects them.
    const timer = /^TIMER,(\d{1,5})#?$/i.exec(command);
    if (timer) this.params.set(0x0029, Number(timer[1]));
    const hbt = /^HBT,(\d{1,5})#?$/i.exec(command);
    if (hbt) this.params.set(0x0001, Number(hbt[1]));
    const apn = /^APN,([^,#]{1,64})#?$/i.exec(command);
    if (apn) this.params.set(0x0010, apn[1] as string);
    const gmt = /^GMT,([EW]),(\d{1,2}),(\d{1,2})#?$/i.exec(command);
    if (gmt) this.params.set(GMT_PARAM, `${gmt[1]?.toUpperCase()}${gmt[2]}`);
    const server = /^SERVER,[01],([^,]+),(\d+),\d#?$/i.exec(command);
    if (server) {
      this.params.set(0x0013, server[1] as string);
      this.params.set(0x0018, Number(server[2]));
    }
    return `${command.replace(/#$/, '')} OK`;
  }

  /** GT06 upgrade over HTTP: fetches the firmware in two Range requests, as devices with little memory do. */
  private async httpUpgrade(url: string): Promise<void> {
    const head = await fetch(url, { headers: { range: 'bytes=0-1023' } });
    if (head.status !== 206) throw new Error(`firmware download: ${head.status}`);
    const total = Number((head.headers.get('content-range') ?? '').split('/')[1]);
    const first = Buffer.from(await head.arrayBuffer());
    const parts = [first];
    if (total > first.length) {
      const rest = await fetch(url, { headers: { range: `bytes=${first.length}-` } });
      parts.push(Buffer.from(await rest.arrayBuffer()));
    }
    const data = Buffer.concat(parts);
    this.upgraded = {
      version: '',
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      parts: parts.length,
      dropped: 0,
      resendRequests: 0,
      result: data.length === total ? 0 : 1,
    };
  }

  /** The platform moved the device: remember the address and, when following, reconnect there. */
  private transfer(host: string, port: number): void {
    this.transferredTo = { host, port };
    this.o.onTransfer?.(host, port);
    if (!this.o.followTransfer) return;
    // Let the answer leave first, then move.
    setTimeout(() => {
      if (this.stopped) return;
      this.disconnect();
      this.o.host = host;
      this.o.port = port;
      this.connect().catch(() => {});
    }, 50);
  }

  private ack(serial: number): void {
    const time = this.unacked.get(serial);
    if (time === undefined) return;
    this.unacked.delete(serial);
    this.stats.acked++;
    if (this.o.recordAcks) this.acked.push(time);
    const w = this.ackWaiter;
    if (w) {
      this.ackWaiter = null;
      w();
    }
  }

  /** Sends one fix (or an alarm carrying it); returns false when not connected. */
  sendFix(fix: Fix, alarm: keyof typeof Gt06Alarm | null = null): boolean {
    const socket = this.socket;
    if (!socket || socket.destroyed) return false;
    const serial = this.nextSerial();
    if (this.unacked.size >= 30_000) this.unacked.delete(this.unacked.keys().next().value as number);
    this.unacked.set(serial, fix.time);
    this.stats.sent++;
    if (alarm) this.stats.alarms++;
    if (this.jt808) socket.write(this.jt808.location(serial, fix, alarm ? Jt808AlarmBit[alarm] : 0));
    else socket.write(alarm ? gt06AlarmPacket(serial, fix, Gt06Alarm[alarm]) : gt06Location(serial, fix));
    return true;
  }

  sendHeartbeat(fix: Fix): void {
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    socket.write(
      this.jt808 ? this.jt808.heartbeat(this.nextSerial()) : gt06Heartbeat(this.nextSerial(), fix.acc, fix.battery),
    );
  }

  /**
   * JT/T 808: uploads a WAV recording of `seconds` (0x0801 in sub-packages of `partBytes`, consecutive serials)
   * and resolves with the platform's 0x8800 answer. `event` 0 = the platform's command, 1 = timer.
   */
  uploadRecording(seconds: number, event = 1, partBytes = 1000, timeoutMs = 10_000): Promise<UploadedMedia> {
    const jt = this.jt808;
    const socket = this.socket;
    if (!jt || !socket || socket.destroyed) return Promise.reject(new Error('not connected over JT/T 808'));
    const mediaId = this.nextMediaId++;
    const data = toneWav(seconds);
    const first = (this.serial + 1) & 0xffff;
    const parts = jt.multimediaParts(
      first,
      { id: mediaId, type: 1, format: 3, event, channel: 1, data },
      this.o.track.next(0),
      partBytes,
    );
    this.serial = (first + parts.length - 1) & 0xffff;
    return new Promise<UploadedMedia>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.mediaWaiters.delete(mediaId);
        reject(new Error(`recording ${mediaId}: no 0x8800`));
      }, timeoutMs);
      this.mediaWaiters.set(mediaId, (reply) => {
        clearTimeout(timer);
        this.mediaWaiters.delete(mediaId);
        const upload = { mediaId, parts: parts.length, bytes: data.length, missing: reply.missing };
        this.uploads.push(upload);
        resolve(upload);
      });
      socket.cork();
      for (const part of parts) socket.write(part);
      socket.uncork();
    });
  }

  /** Sends raw bytes (tests: garbage). */
  sendRaw(bytes: Buffer): void {
    this.socket?.write(bytes);
  }

  /**
   * Sends `count` fixes as fast as ACKs allow, keeping at most `window` unacknowledged; fix times advance by
   * `stepSeconds` of simulated time. Resolves when all are ACKed or the connection is gone.
   */
  async sendPositions(count: number, window: number, stepSeconds = 1): Promise<void> {
    let sent = 0;
    while (this.connected && !this.stopped && (sent < count || this.unacked.size > 0)) {
      // One write for the burst (the frames stay separate on the wire, as from a device sending fast).
      this.socket?.cork();
      while (sent < count && this.unacked.size < window && this.connected) {
        this.sendFix(this.o.track.next(stepSeconds));
        sent++;
      }
      this.socket?.uncork();
      await new Promise<void>((resolve) => {
        this.ackWaiter = resolve;
      });
    }
  }

  /** Real time: a fix every `intervalSeconds`, a heartbeat every few, reconnecting when the link drops. */
  startTimer(intervalSeconds: number): void {
    const tick = () => {
      if (this.stopped) return;
      this.ticks++;
      const fix = this.o.track.next(intervalSeconds);
      if (!this.connected) {
        if (this.ticks % 3 === 0) this.connect().catch(() => {});
        return;
      }
      const p = this.o.alarmProbability ?? 0.002;
      const r = Math.random();
      const alarm = r < p ? (['sos', 'powerCut', 'vibration'] as const)[Math.floor((r / p) * 3) % 3] : null;
      this.sendFix(fix, alarm);
      if (this.ticks % HEARTBEAT_EVERY === 0) this.sendHeartbeat(fix);
    };
    this.timer = setInterval(tick, intervalSeconds * 1000);
    this.timer.unref?.();
  }

  /** Closes the connection (the device may connect again). */
  disconnect(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.disconnect();
    this.ackWaiter?.();
  }
}
