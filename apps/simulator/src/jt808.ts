// The terminal's side of JT/T 808 (2013 headers, or 2019 when asked): register, authenticate, heartbeat,
// location with additional items, general response to platform commands, parameter answers (0x0104), and a
// reader for what the platform sends (0x8001, 0x8100, 0x8300, 0x8103, 0x8104, 0x8108 sub-packages). Framing,
// escaping and the XOR check come from @carhere/protocols.
import { buildJt808Frame, type Jt808Version, jt808SubPackage, jt808Target, unpackJt808 } from '@carhere/protocols';
import type { Fix } from './track.ts';

export const Jt808Msg = {
  terminalResponse: 0x0001,
  heartbeat: 0x0002,
  register: 0x0100,
  auth: 0x0102,
  location: 0x0200,
  platformResponse: 0x8001,
  registerReply: 0x8100,
  setParameters: 0x8103,
  queryParameters: 0x8104,
  upgrade: 0x8108,
  text: 0x8300,
  parameterReply: 0x0104,
  upgradeResult: 0x0108,
  resendRequest: 0x0005,
  multimediaData: 0x0801,
  multimediaReply: 0x8800,
} as const;

/** A multimedia file a terminal uploads (0x0801): type 1 audio; format 2 MP3, 3 WAV; event 0 platform command. */
export interface Jt808Media {
  id: number;
  type: number;
  format: number;
  event: number;
  channel: number;
  data: Uint8Array;
}

/** Alarm flag bits the simulator raises. */
export const Jt808AlarmBit = { sos: 1 << 0, powerCut: 1 << 8, vibration: 1 << 16 } as const;

export class Jt808Terminal {
  private readonly target;

  constructor(
    readonly terminalId: string,
    readonly version: Jt808Version = '2013',
  ) {
    this.target = jt808Target(terminalId, version);
  }

  frame(messageId: number, serial: number, body: Uint8Array): Buffer {
    return buildJt808Frame(messageId, this.target, serial, body);
  }

  register(serial: number): Buffer {
    if (this.version === '2019') {
      // 2019: manufacturer 11, model 30, terminal id 30 bytes.
      const body = Buffer.alloc(76 + 7);
      body.writeUInt16BE(11, 0);
      body.write('CARHR', 4, 'ascii');
      body.write('SIM-808-2019', 15, 'ascii');
      body.write(this.terminalId.slice(-7).padStart(7, '0'), 45, 'ascii');
      body[75] = 1;
      body.write('SIM0001', 76, 'ascii');
      return this.frame(Jt808Msg.register, serial, body);
    }
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
    if (this.version === '2019') {
      const c = Buffer.from(code, 'ascii');
      const body = Buffer.alloc(1 + c.length + 15 + 20);
      body[0] = c.length;
      c.copy(body, 1);
      body.write(this.terminalId.padStart(15, '0').slice(-15), 1 + c.length, 'ascii');
      body.write('SIM-1.0', 16 + c.length, 'ascii');
      return this.frame(Jt808Msg.auth, serial, body);
    }
    return this.frame(Jt808Msg.auth, serial, Buffer.from(code, 'ascii'));
  }

  /** 0x0104: the answered serial and the parameters (numbers as DWORD, strings as text). */
  parameterReply(serial: number, answeredSerial: number, params: ReadonlyMap<number, number | string>): Buffer {
    const parts: Buffer[] = [Buffer.from([(answeredSerial >> 8) & 0xff, answeredSerial & 0xff, params.size & 0xff])];
    for (const [id, value] of params) {
      const v = typeof value === 'number' ? Buffer.alloc(4) : Buffer.from(value, 'latin1');
      if (typeof value === 'number') v.writeUInt32BE(value >>> 0, 0);
      const head = Buffer.alloc(5);
      head.writeUInt32BE(id, 0);
      head[4] = v.length;
      parts.push(head, v);
    }
    return this.frame(Jt808Msg.parameterReply, serial, Buffer.concat(parts));
  }

  /** 0x0005 (2019): asks the platform to send again the listed sub-packages of the message with `firstSerial`. */
  resendRequest(serial: number, firstSerial: number, packageIds: readonly number[]): Buffer {
    const body = Buffer.alloc(4 + packageIds.length * 2);
    body.writeUInt16BE(firstSerial, 0);
    body.writeUInt16BE(packageIds.length, 2);
    for (const [i, id] of packageIds.entries()) body.writeUInt16BE(id, 4 + i * 2);
    return this.frame(Jt808Msg.resendRequest, serial, body);
  }

  /** 0x0108: upgrade type and result (0 success, 1 failure, 2 cancelled). */
  upgradeResult(serial: number, type: number, result: number): Buffer {
    return this.frame(Jt808Msg.upgradeResult, serial, Uint8Array.of(type, result));
  }

  heartbeat(serial: number): Buffer {
    return this.frame(Jt808Msg.heartbeat, serial, new Uint8Array(0));
  }

  location(serial: number, fix: Fix, alarmFlags = 0): Buffer {
    const pack = fix.batteryPack;
    const b = Buffer.alloc(28 + 6 + 3 + 3 + (pack ? 14 : 0));
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
    if (pack) {
      // 0xEF battery pack: u16 1/100 V, i16 1/100 A, u8 %, i8 °C, u16 cycles, u32 fault bits
      b[p++] = 0xef;
      b[p++] = 12;
      b.writeUInt16BE(Math.round(pack.voltage * 100), p);
      b.writeInt16BE(Math.round(pack.current * 100), p + 2);
      b[p + 4] = Math.round(pack.percentage);
      b.writeInt8(Math.round(pack.temperature), p + 5);
      b.writeUInt16BE(pack.useCount, p + 6);
      b.writeUInt32BE(pack.faults >>> 0, p + 8);
      p += 12;
    }
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

  /**
   * 0x0801 multimedia data upload (2013 layout: id, type, format, event, channel, the 28-byte basic location,
   * then the file) in sub-packages of `partBytes`, with consecutive serials from `firstSerial`.
   */
  multimediaParts(firstSerial: number, media: Jt808Media, fix: Fix, partBytes = 1000): Buffer[] {
    const location = this.location(0, fix);
    const basic = unpackJt808(location);
    if (typeof basic === 'string') throw new Error(basic);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(media.id >>> 0, 0);
    head[4] = media.type;
    head[5] = media.format;
    head[6] = media.event;
    head[7] = media.channel;
    const block = basic.bytes.subarray(basic.bodyStart, basic.bodyStart + 28);
    const body = Buffer.concat([head, block, media.data]);
    const total = Math.max(1, Math.ceil(body.length / partBytes));
    const out: Buffer[] = [];
    for (let i = 1; i <= total; i++) {
      const serial = (firstSerial + i - 1) & 0xffff;
      out.push(jt808SubPackage(Jt808Msg.multimediaData, this.terminalId, this.version, serial, body, i, partBytes));
    }
    return out;
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
  /** 0x8103: the parameters set (numbers for 1/2/4-byte values, text otherwise). */
  parameters?: Map<number, number | string>;
  /** 0x8104: a query of all parameters. */
  query?: boolean;
  /** 0x8800: the media id the platform received, and the parts it asks for again (none when complete). */
  mediaReply?: { mediaId: number; missing: number[] };
  /** A sub-package of a long message: total parts, this part's index (1-based) and its body. */
  part?: { total: number; index: number; body: Buffer };
}

/** Parameter ids whose values are text. */
const TEXT_PARAMETERS = new Set([0x0010, 0x0011, 0x0012, 0x0013, 0x0014, 0x0015, 0x0016, 0x0017, 0x001a, 0x001d]);

function readParameters(body: Buffer): Map<number, number | string> {
  const out = new Map<number, number | string>();
  let p = 1;
  for (let i = 0; i < body[0] && p + 5 <= body.length; i++) {
    const id = body.readUInt32BE(p);
    const len = body[p + 4];
    const v = body.subarray(p + 5, p + 5 + len);
    p += 5 + len;
    if (!TEXT_PARAMETERS.has(id) && (len === 1 || len === 2 || len === 4)) out.set(id, v.readUIntBE(0, len));
    else out.set(id, v.toString('latin1'));
  }
  return out;
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
        frame.text = body.subarray(header.is2019 ? 2 : 1).toString('latin1');
      } else if (header.messageId === Jt808Msg.multimediaReply && body.length >= 4) {
        const missing: number[] = [];
        for (let i = 0; i < (body[4] ?? 0) && 5 + i * 2 + 2 <= body.length; i++)
          missing.push(body.readUInt16BE(5 + i * 2));
        frame.mediaReply = { mediaId: body.readUInt32BE(0), missing };
      } else if (header.packageTotal > 0) {
        frame.part = { total: header.packageTotal, index: header.packageIndex, body };
      } else if (header.messageId === Jt808Msg.setParameters && body.length >= 1) {
        frame.parameters = readParameters(body);
      } else if (header.messageId === Jt808Msg.queryParameters) {
        frame.query = true;
      }
      out.push(frame);
    }
    this.buffer = p >= b.length ? Buffer.alloc(0) : b.subarray(p);
    return out;
  }
}
