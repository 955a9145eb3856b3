// The terminal's side of JT/T 808 (2013 headers): register, authenticate, heartbeat, location with additional
// items, general response to platform commands, and a reader for what the platform sends (0x8001, 0x8100,
// 0x8300). Framing, escaping and the XOR check come from @carhere/protocols.
import { buildJt808Frame, jt808Target, unpackJt808 } from '@carhere/protocols';
import type { Fix } from './track.ts';

export const Jt808Msg = {
  terminalResponse: 0x0001,
  heartbeat: 0x0002,
  register: 0x0100,
  auth: 0x0102,
  location: 0x0200,
  platformResponse: 0x8001,
  registerReply: 0x8100,
  text: 0x8300,
} as const;

/** Alarm flag bits the simulator raises. */
export const Jt808AlarmBit = { sos: 1 << 0, powerCut: 1 << 8, vibration: 1 << 16 } as const;

export class Jt808Terminal {
  private readonly target;

  constructor(readonly terminalId: string) {
    this.target = jt808Target(terminalId, '2013');
  }

  frame(messageId: number, serial: number, body: Uint8Array): Buffer {
    return buildJt808Frame(messageId, this.target, serial, body);
  }

  register(serial: number): Buffer {
    const body = Buffer.alloc(37 + 7);
    body.writeUInt16BE(11, 0); // province (Beijing)
    body.writeUInt16BE(0, 2); // city
    body.write('CARHR', 4, 'ascii');
    body.write('SIM-808'.padEnd(20, '\0'), 9, 'ascii');
    body.write(this.terminalId.slice(-7).padStart(7, '0'), 29, 'ascii');
    body[36] = 1; // plate colour
    body.write('SIM0001', 37, 'ascii');
    return this.frame(Jt808Msg.register, serial, body);
  }

  auth(serial: number, code: string): Buffer {
    return this.frame(Jt808Msg.auth, serial, Buffer.from(code, 'ascii'));
  }

  heartbeat(serial: number): Buffer {
    return this.frame(Jt808Msg.heartbeat, serial, new Uint8Array(0));
  }

  location(serial: number, fix: Fix, alarmFlags = 0): Buffer {
    const b = Buffer.alloc(28 + 6 + 3 + 3);
    b.writeUInt32BE(alarmFlags >>> 0, 0);
    const status = (fix.acc ? 0x01 : 0) | 0x02 | (fix.lat < 0 ? 0x04 : 0) | (fix.lon < 0 ? 0x08 : 0);
    b.writeUInt32BE(status, 4);
    b.writeUInt32BE(Math.round(Math.abs(fix.lat) * 1e6), 8);
    b.writeUInt32BE(Math.round(Math.abs(fix.lon) * 1e6), 12);
    b.writeUInt16BE(Math.max(0, Math.round(fix.altitude)), 16);
    b.writeUInt16BE(Math.round(fix.speed * 10), 18);
    b.writeUInt16BE(Math.round(fix.course) % 360, 20);
    // BCD time in GMT+8
    const d = new Date(fix.time + 8 * 3_600_000);
    const parts = [
      d.getUTCFullYear() % 100,
      d.getUTCMonth() + 1,
      d.getUTCDate(),
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ];
    parts.forEach((v, i) => {
      b[22 + i] = ((Math.floor(v / 10) & 0x0f) << 4) | (v % 10);
    });
    // additional items: 0x01 mileage (1/10 km), 0x30 signal, 0x31 satellites
    let p = 28;
    b[p++] = 0x01;
    b[p++] = 4;
    b.writeUInt32BE(Math.round(fix.mileage / 100), p);
    p += 4;
    b[p++] = 0x30;
    b[p++] = 1;
    b[p++] = 25;
    b[p++] = 0x31;
    b[p++] = 1;
    b[p++] = fix.satellites;
    return this.frame(Jt808Msg.location, serial, b);
  }

  /**
   * 0x0702 driver identification (2013): a card inserted and read (name, card number) or removed; the time in
   * GMT+8 BCD like the location report.
   */
  driverIdentity(serial: number, card: { inserted: boolean; name?: string; number?: string; time: number }): Buffer {
    const d = new Date(card.time + 8 * 3_600_000);
    const bcd = [d.getUTCFullYear() % 100, d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()]
      .concat([d.getUTCSeconds()])
      .map((v) => ((Math.floor(v / 10) & 0x0f) << 4) | (v % 10));
    const head = Buffer.from([card.inserted ? 1 : 2, ...bcd]);
    if (!card.inserted) return this.frame(0x0702, serial, head);
    const name = Buffer.from(card.name ?? '', 'latin1');
    const number = Buffer.alloc(20);
    number.write(card.number ?? '', 0, 'ascii');
    const body = Buffer.concat([
      head,
      Buffer.from([0, name.length]),
      name,
      number,
      Buffer.from([0]),
      Buffer.from([0x20, 0x30, 0x12, 0x31]),
    ]);
    return this.frame(0x0702, serial, body);
  }

  /** 0x0001: answers a platform message by its serial and id (result 0 = success). */
  generalResponse(serial: number, answeredSerial: number, answeredId: number, result = 0): Buffer {
    const body = Buffer.alloc(5);
    body.writeUInt16BE(answeredSerial, 0);
    body.writeUInt16BE(answeredId, 2);
    body[4] = result;
    return this.frame(Jt808Msg.terminalResponse, serial, body);
  }
}

export interface Jt808ServerFrame {
  messageId: number;
  serial: number;
  /** 0x8001: the answered serial, id and result. */
  answered?: { serial: number; messageId: number; result: number };
  /** 0x8100: result and auth code. */
  register?: { result: number; authCode: string };
  /** 0x8300: the text. */
  text?: string;
}

/** Splits the platform's bytes at 7E delimiters and reads each frame. */
export class Jt808ServerReader {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Jt808ServerFrame[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const out: Jt808ServerFrame[] = [];
    const b = this.buffer;
    let p = 0;
    for (;;) {
      const start = b.indexOf(0x7e, p);
      if (start < 0) {
        p = b.length;
        break;
      }
      const end = b.indexOf(0x7e, start + 1);
      if (end < 0) {
        p = start;
        break;
      }
      if (end === start + 1) {
        p = end;
        continue;
      }
      const unpacked = unpackJt808(b.subarray(start, end + 1));
      p = end + 1;
      if (typeof unpacked === 'string') continue;
      const { header, bytes, bodyStart } = unpacked;
      const body = Buffer.from(bytes.subarray(bodyStart, unpacked.bodyEnd));
      const frame: Jt808ServerFrame = { messageId: header.messageId, serial: header.serial };
      if (header.messageId === Jt808Msg.platformResponse && body.length >= 5) {
        frame.answered = { serial: body.readUInt16BE(0), messageId: body.readUInt16BE(2), result: body[4] };
      } else if (header.messageId === Jt808Msg.registerReply && body.length >= 3) {
        frame.register = { result: body[2], authCode: body.subarray(3).toString('latin1') };
      } else if (header.messageId === Jt808Msg.text && body.length >= 1) {
        frame.text = body.subarray(1).toString('latin1');
      }
      out.push(frame);
    }
    this.buffer = p >= b.length ? Buffer.alloc(0) : b.subarray(p);
    return out;
  }
}
