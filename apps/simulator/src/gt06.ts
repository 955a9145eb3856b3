// The tracker's side of GT06: the frames a Concox-style device sends (login, heartbeat, GPS+LBS location,
// alarm, command reply) and a reader for what the platform sends back (ACKs, 0x80 commands). Framing and
// CRC come from @carhere/protocols.
import { buildGt06Frame } from '@carhere/protocols';
import type { Fix } from './track.ts';

export const Gt06Type = {
  login: 0x01,
  location: 0x22,
  heartbeat: 0x13,
  alarm: 0x16,
  commandReply: 0x15,
  command: 0x80,
} as const;

/** GT06 alarm byte values the simulator raises. */
export const Gt06Alarm = { sos: 0x01, powerCut: 0x02, vibration: 0x03 } as const;

function imeiBcd(imei: string): Buffer {
  const digits = imei.padStart(16, '0').slice(-16);
  return Buffer.from(digits, 'hex');
}

/** Login: IMEI (8-byte BCD), type code, time zone UTC (GT06 times are then read as UTC). */
export function gt06Login(imei: string, serial: number): Buffer {
  const content = Buffer.concat([imeiBcd(imei), Buffer.from([0x36, 0x08]), Buffer.from([0x00, 0x02])]);
  return buildGt06Frame(Gt06Type.login, serial, content);
}

/** Heartbeat / status: terminal info (ACC, GPS tracking), voltage level, GSM signal, no alarm. */
export function gt06Heartbeat(serial: number, acc: boolean, batteryPercent: number): Buffer {
  const info = 0x40 | (acc ? 0x02 : 0) | 0x01;
  const voltageLevel = Math.max(0, Math.min(6, Math.round(batteryPercent / 17)));
  return buildGt06Frame(Gt06Type.heartbeat, serial, Buffer.from([info, voltageLevel, 0x04, 0x00, 0x02]));
}

function gpsBlock(fix: Fix): Buffer {
  const b = Buffer.alloc(18);
  const d = new Date(fix.time);
  b[0] = d.getUTCFullYear() % 100;
  b[1] = d.getUTCMonth() + 1;
  b[2] = d.getUTCDate();
  b[3] = d.getUTCHours();
  b[4] = d.getUTCMinutes();
  b[5] = d.getUTCSeconds();
  b[6] = 0xc0 | Math.min(15, fix.satellites);
  b.writeUInt32BE(Math.round(Math.abs(fix.lat) * 1_800_000), 7);
  b.writeUInt32BE(Math.round(Math.abs(fix.lon) * 1_800_000), 11);
  b[15] = Math.min(255, Math.round(fix.speed));
  // course/status: bit12 positioned, bit11 west, bit10 north, bits 0-9 course
  const status = 0x1000 | (fix.lon < 0 ? 0x0800 : 0) | (fix.lat >= 0 ? 0x0400 : 0) | (Math.round(fix.course) & 0x03ff);
  b.writeUInt16BE(status, 16);
  return b;
}

const LBS = Buffer.from([0x01, 0xcc, 0x00, 0x28, 0x7d, 0x00, 0x1f, 0xb8]);

/** GPS + LBS location (0x22): fix, cell, ACC, upload mode, real-time flag. */
export function gt06Location(serial: number, fix: Fix): Buffer {
  const tail = Buffer.from([fix.acc ? 1 : 0, 0x00, 0x00]);
  return buildGt06Frame(Gt06Type.location, serial, Buffer.concat([gpsBlock(fix), LBS, tail]));
}

/** Alarm packet (0x16): fix, LBS, terminal info, voltage, GSM, alarm byte, language. */
export function gt06AlarmPacket(serial: number, fix: Fix, alarm: number): Buffer {
  const status = Buffer.from([0x40 | (fix.acc ? 0x02 : 0), 0x04, 0x04, alarm, 0x02]);
  return buildGt06Frame(
    Gt06Type.alarm,
    serial,
    Buffer.concat([gpsBlock(fix), Buffer.from([LBS.length + 1]), LBS, status]),
  );
}

/** Reply to a 0x80 command (0x15): length, the command's server flag, text, language. */
export function gt06CommandReply(serial: number, serverFlag: number, text: string): Buffer {
  const body = Buffer.from(text, 'ascii');
  const content = Buffer.alloc(1 + 4 + body.length + 2);
  content[0] = 4 + body.length;
  content.writeUInt32BE(serverFlag >>> 0, 1);
  body.copy(content, 5);
  content.writeUInt16BE(0x0002, 5 + body.length);
  return buildGt06Frame(Gt06Type.commandReply, serial, content);
}

export interface Gt06ServerFrame {
  type: number;
  serial: number;
  /** For 0x80: the server flag and the command text. */
  command?: { serverFlag: number; text: string };
}

/** Splits what the platform sent into frames (7878…0D0A / 7979…0D0A) and reads each one's type, serial, command. */
export class Gt06ServerReader {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Gt06ServerFrame[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const out: Gt06ServerFrame[] = [];
    let p = 0;
    const b = this.buffer;
    while (p + 5 <= b.length) {
      const long = b[p] === 0x79 && b[p + 1] === 0x79;
      if (!long && !(b[p] === 0x78 && b[p + 1] === 0x78)) {
        p++;
        continue;
      }
      const length = long ? b.readUInt16BE(p + 2) : b[p + 2];
      const header = long ? 4 : 3;
      const total = header + length + 2;
      if (p + total > b.length) break;
      const type = b[p + header];
      const serial = b.readUInt16BE(p + header + length - 4);
      const frame: Gt06ServerFrame = { type, serial };
      if (type === Gt06Type.command) {
        const start = p + header + 1;
        const commandLength = b[start];
        const serverFlag = b.readUInt32BE(start + 1);
        const text = b.subarray(start + 5, start + 1 + commandLength).toString('ascii');
        frame.command = { serverFlag, text };
      }
      out.push(frame);
      p += total;
    }
    this.buffer = p >= b.length ? Buffer.alloc(0) : b.subarray(p);
    return out;
  }
}
