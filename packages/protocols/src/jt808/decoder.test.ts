import { describe, expect, it } from 'vitest';
import type { DecodedMessage, DecodeResult } from '../types.ts';
import { createJt808Context } from './context.ts';
import { decodeJt808 } from './decoder.ts';
import { jt808Target } from './encoder.ts';
import { buildJt808Frame, unpackJt808 } from './frame.ts';
import { Jt808SerialCounter } from './serial-counter.ts';
import { jt808SubPackage } from './upgrade.ts';

function ok(result: DecodeResult): DecodedMessage {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.message;
}

const hex = (text: string) => Buffer.from(text, 'hex');
const terminal = jt808Target('013912345678', '2013');

/** A 0x0200 body: alarm flags, status, lat/lon (1e-6°), altitude, speed (0.1 km/h), course, BCD time, items. */
function locationBody(o: {
  alarm?: number;
  status?: number;
  lat?: number;
  lon?: number;
  altitude?: number;
  speed?: number;
  course?: number;
  time?: string;
  items?: string;
}): Buffer {
  const b = Buffer.alloc(28);
  b.writeUInt32BE(o.alarm ?? 0, 0);
  b.writeUInt32BE(o.status ?? 0x02, 4);
  b.writeUInt32BE(Math.round((o.lat ?? 22.5) * 1e6), 8);
  b.writeUInt32BE(Math.round((o.lon ?? 114.1) * 1e6), 12);
  b.writeInt16BE(o.altitude ?? 0, 16);
  b.writeUInt16BE(o.speed ?? 0, 18);
  b.writeUInt16BE(o.course ?? 0, 20);
  hex(o.time ?? '240517101112').copy(b, 22);
  return Buffer.concat([b, hex(o.items ?? '')]);
}

describe('decodeJt808: location report 0x0200', () => {
  it('decodes alarm flags, status bits, coordinates, Beijing time, standard items and replies 0x8001', () => {
    const ctx = createJt808Context();
    const body = locationBody({
      alarm: 0x00000001 | 0x00000100, // SOS, main power cut
      status: 0x01 | 0x02 | 0x04 | 0x400 | 0x80000, // ACC, fix, south, oil cut, BeiDou
      lat: 33.8688,
      lon: 151.2093,
      altitude: -12,
      speed: 523,
      course: 181,
      items:
        '0104000004d2' + // mileage 1234 × 0.1 km
        '02020064' + // fuel 100 × 0.1 L
        '0302012c' + // tachograph speed 30.0 km/h
        '250400000003' + // extended signals
        '2a020001' + // IO status
        '2b0401f400c8' + // analog inputs
        '300114' + // signal 20
        '31010b', // 11 satellites
    });
    const m = ok(decodeJt808(buildJt808Frame(0x0200, terminal, 0x1234, body), ctx));
    expect(m).toMatchObject({ protocol: 'jt808', messageId: 0x0200, version: '2013', terminalId: '013912345678' });
    expect(m.serial).toBe(0x1234);
    expect(m.checksumOk).toBe(true);
    const [p] = m.positions;
    expect(p.time.toISOString()).toBe('2024-05-17T02:11:12.000Z'); // 10:11:12 in GMT+8
    expect(p.lat).toBeCloseTo(-33.8688, 6);
    expect(p.lon).toBeCloseTo(151.2093, 6);
    expect(p).toMatchObject({ altitude: -12, speedKmh: 52.3, course: 181, valid: true, satellites: 11 });
    expect(p.alarms).toEqual(['sos', 'powerCut']);
    expect(m.alarms).toEqual(['sos', 'powerCut']);
    expect(p.attributes).toMatchObject({
      acc: true,
      blocked: true,
      locationType: 'beidou',
      mileage: 123400,
      fuel: 10,
      obdSpeed: 30,
      input: 3,
      ioStatus: 1,
      adc1: 5,
      adc2: 2,
      signal: 20,
    });
    const reply = unpackJt808(m.reply ?? Buffer.alloc(0));
    if (typeof reply === 'string') throw new Error(reply);
    expect(reply.header.messageId).toBe(0x8001);
    expect(reply.checksumOk).toBe(true);
    expect(Buffer.from(reply.bytes.subarray(reply.bodyStart, reply.bodyEnd)).toString('hex')).toBe('1234020000');
  });

  it('numbers replies from the connection serial counter', () => {
    const ctx = createJt808Context({ serials: new Jt808SerialCounter(65535) });
    const frame = buildJt808Frame(0x0200, terminal, 1, locationBody({}));
    const serials = [0, 1, 2].map(() => {
      const reply = unpackJt808(ok(decodeJt808(frame, ctx)).reply ?? Buffer.alloc(0));
      return typeof reply === 'string' ? -1 : reply.header.serial;
    });
    expect(serials).toEqual([65535, 0, 1]);
  });

  it('un-escapes 7E/7D inside the frame', () => {
    const body = locationBody({ lat: 0x7e7d7e / 1e6, items: '30017e' });
    const frame = buildJt808Frame(0x0200, terminal, 0x7e7d, body);
    expect(frame.subarray(1, -1).includes(0x7e)).toBe(false);
    const m = ok(decodeJt808(frame, createJt808Context()));
    expect(m.serial).toBe(0x7e7d);
    expect(m.positions[0].lat).toBeCloseTo(0x7e7d7e / 1e6, 6);
    expect(m.positions[0].attributes.signal).toBe(0x7e);
  });

  it('reads 2019 headers (version byte, 10-byte BCD phone) and answers in kind', () => {
    const target = jt808Target('01391234567800000001', '2019');
    const m = ok(decodeJt808(buildJt808Frame(0x0200, target, 5, locationBody({})), createJt808Context()));
    expect(m.version).toBe('2019');
    expect(m.terminalId).toBe('01391234567800000001');
    const reply = unpackJt808(m.reply ?? Buffer.alloc(0));
    expect(typeof reply !== 'string' && reply.header.is2019 && reply.header.terminalId).toBe('01391234567800000001');
  });
});

describe('decodeJt808: session messages', () => {
  it('answers a 2013 registration with 0x8100 and the auth code', () => {
    const ctx = createJt808Context({ authCodeFor: (id) => `AUTH${id.slice(-4)}` });
    const body = Buffer.concat([
      hex('002c012f'), // province, city
      Buffer.from('70111', 'ascii'),
      Buffer.from('BSJ-A6-BD'.padEnd(20, '\0'), 'ascii'),
      Buffer.from('0567872', 'ascii'),
      hex('01'),
      hex('d4c1423838383838'), // 粤B88888 in GBK
    ]);
    const m = ok(decodeJt808(buildJt808Frame(0x0100, terminal, 0x24, body), ctx));
    expect(m.attributes).toMatchObject({ terminalModel: 'BSJ-A6-BD', deviceId: '0567872', plate: '粤B88888' });
    expect(ctx.version).toBe('2013');
    const reply = unpackJt808(m.reply ?? Buffer.alloc(0));
    if (typeof reply === 'string') throw new Error(reply);
    expect(reply.header.messageId).toBe(0x8100);
    const replyBody = Buffer.from(reply.bytes.subarray(reply.bodyStart, reply.bodyEnd));
    expect(replyBody.subarray(0, 3).toString('hex')).toBe('002400');
    expect(replyBody.subarray(3).toString('ascii')).toBe('AUTH5678');
  });

  it('recognises the shorter 2011 registration layout', () => {
    const ctx = createJt808Context();
    const body = Buffer.concat([hex('00000000'), Buffer.from('70111BSJ-M7B 0000000', 'ascii'), hex('01')]);
    ok(decodeJt808(buildJt808Frame(0x0100, terminal, 1, body), ctx));
    expect(ctx.version).toBe('2011');
    expect(ok(decodeJt808(buildJt808Frame(0x0002, terminal, 2, Buffer.alloc(0)), ctx)).version).toBe('2011');
  });

  it('turns a terminal general response into a command reply without answering it', () => {
    const m = ok(decodeJt808(buildJt808Frame(0x0001, terminal, 9, hex('0007830000')), createJt808Context()));
    expect(m.commandReply).toEqual({ text: '', answeredSerial: 7, answeredMessageId: 0x8300, result: 0 });
    expect(m.reply).toBeNull();
  });

  it('quotes the query serial in a location query reply (0x0201)', () => {
    const body = Buffer.concat([hex('0011'), locationBody({})]);
    const m = ok(decodeJt808(buildJt808Frame(0x0201, terminal, 3, body), createJt808Context()));
    expect(m.positions).toHaveLength(1);
    expect(m.commandReply).toMatchObject({ answeredSerial: 0x11, answeredMessageId: 0x8201 });
  });

  it('decodes batches (0x0704) and marks re-uploaded reports as archive', () => {
    const one = locationBody({ time: '240101000000' });
    const two = locationBody({ time: '240101000100' });
    const body = Buffer.concat([hex('000201'), Buffer.from([0, one.length]), one, Buffer.from([0, two.length]), two]);
    const m = ok(decodeJt808(buildJt808Frame(0x0704, terminal, 4, body), createJt808Context()));
    expect(m.positions.map((p) => p.time.toISOString())).toEqual([
      '2023-12-31T16:00:00.000Z',
      '2023-12-31T16:01:00.000Z',
    ]);
    expect(m.positions.every((p) => p.attributes.archive === true)).toBe(true);
  });

  it('reassembles sub-packages, acknowledging each part', () => {
    const ctx = createJt808Context();
    const one = locationBody({});
    const whole = Buffer.concat([hex('000100'), Buffer.from([0, one.length]), one]);
    const parts = [whole.subarray(0, 10), whole.subarray(10)];
    const frames = parts.map((part, i) => {
      const raw = buildJt808Frame(0x0704, terminal, 100 + i, part);
      // Set the sub-package flag and append total/index after the serial (rebuild the checksum).
      const inner = Buffer.from(raw.subarray(1, -2));
      inner.writeUInt16BE(inner.readUInt16BE(2) | 0x2000, 2);
      const withPackage = Buffer.concat([inner.subarray(0, 12), Buffer.from([0, 2, 0, i + 1]), inner.subarray(12)]);
      let x = 0;
      for (const b of withPackage) x ^= b;
      return Buffer.concat([hex('7e'), withPackage, Buffer.from([x]), hex('7e')]);
    });
    const first = ok(decodeJt808(frames[0], ctx));
    expect(first.messageType).toBe('fragment');
    expect(first.reply).not.toBeNull();
    expect(ctx.pending.size).toBe(1);
    const second = ok(decodeJt808(frames[1], ctx));
    expect(second.messageType).toBe('batch');
    expect(second.positions).toHaveLength(1);
    expect(ctx.pending.size).toBe(0);
  });

  it('decodes JT701 lock reports (0x5501) and answers with 0x4401 when asked', () => {
    const frame = hex(
      '7e55018c418560090010174701022106242122348476113550490700001c06000000074e000000000000030810000010010202' +
        '0200000a030000000b0803363839363037650c0600000001000afa7e',
    );
    const m = ok(decodeJt808(frame, createJt808Context()));
    expect(m.terminalId).toBe('856009001017');
    const [p] = m.positions;
    expect(p.time.toISOString()).toBe('2021-02-01T06:24:21.000Z'); // BCD day-month-year, UTC
    expect(p.lat).toBeCloseTo(22 + 34.8476 / 60, 6);
    expect(p.lon).toBeCloseTo(113 + 55.049 / 60, 6);
    expect(p.attributes).toMatchObject({ lockPassword: '689607', unlockResult: 0x65, batteryLevel: 78 });
    let x = 0;
    for (const b of hex('44010003856009001017015501' + '00')) x ^= b;
    expect(m.reply?.toString('hex')).toBe(`7e4401000385600900101701550100${x.toString(16).padStart(2, '0')}7e`);
  });

  it('decodes "(…)" sentences: a time request and a command reply', () => {
    const ctx = createJt808Context({ now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
    const time = ok(decodeJt808(Buffer.from('(794104004140,1,001,BASE,2,TIME)', 'ascii'), ctx));
    expect(time.reply?.toString('ascii')).toBe('(794104004140,1,001,BASE,2,20260102030405)');
    const reply = ok(decodeJt808(Buffer.from('(740190311185,1,001,ELOCK,3,529439)', 'ascii'), ctx));
    expect(reply.commandReply?.text).toBe('(740190311185,1,001,ELOCK,3,529439)');
    expect(reply.terminalId).toBe('740190311185');
  });
});

describe('decodeJt808: malformed input', () => {
  it('gives typed errors, never exceptions', () => {
    for (const [input, code] of [
      ['', 'empty'],
      ['7e02007e', 'bad_frame'],
      ['020000', 'bad_frame'],
      ['(unterminated', 'bad_frame'],
    ] as const) {
      const result = decodeJt808(
        Buffer.from(input.startsWith('(') ? Buffer.from(input) : hex(input)),
        createJt808Context(),
      );
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe(code);
    }
    const truncated = buildJt808Frame(0x0200, terminal, 1, hex('0000000000000002'));
    const result = decodeJt808(truncated, createJt808Context());
    expect(result.ok === false && result.error.code).toBe('truncated');
  });

  it('reports a wrong XOR check, and rejects it when checksums are required', () => {
    const frame = buildJt808Frame(0x0002, terminal, 1, Buffer.alloc(0));
    frame[frame.length - 2] ^= 0x01;
    expect(ok(decodeJt808(frame, createJt808Context())).checksumOk).toBe(false);
    const strict = decodeJt808(frame, createJt808Context({ requireChecksum: true }));
    expect(strict.ok === false && strict.error.code).toBe('bad_checksum');
  });

  it('0x0801 in sub-packages: the reassembled file is the message media, answered by 0x8800 once complete', () => {
    const ctx = createJt808Context();
    const file = Buffer.alloc(2500);
    for (let i = 0; i < file.length; i++) file[i] = (i * 7) & 0xff;
    // id 9, audio (1), WAV (3), event 0 (platform command), channel 1; a zero location block; the file.
    const body = Buffer.concat([hex('00000009' + '01' + '03' + '00' + '01'), Buffer.alloc(28), file]);
    const parts = [1, 2, 3].map((i) => jt808SubPackage(0x0801, '013912345678', '2013', 40 + i, body, i, 1000));
    const first = ok(decodeJt808(parts[0], ctx));
    expect(first.messageType).toBe('fragment');
    expect(first.media).toBeUndefined();
    ok(decodeJt808(parts[1], ctx));
    const last = ok(decodeJt808(parts[2], ctx));
    expect(last.media).toMatchObject({ id: 9, type: 1, format: 3, event: 0, channel: 1 });
    expect(Buffer.compare(Buffer.from(last.media?.data ?? []), file)).toBe(0);
    // 0x8800 carries the media id and no parts to resend.
    const reply = unpackJt808(last.reply as Buffer);
    if (typeof reply === 'string') throw new Error(reply);
    expect(reply.header.messageId).toBe(0x8800);
    expect(Buffer.from(reply.bytes.subarray(reply.bodyStart, reply.bodyEnd)).toString('hex')).toBe('0000000900');
  });

  it('bounds sub-package reassembly', () => {
    const ctx = createJt808Context({ maxMessageBytes: 8 });
    const raw = buildJt808Frame(0x0801, terminal, 1, Buffer.alloc(20));
    const inner = Buffer.from(raw.subarray(1, -2));
    inner.writeUInt16BE(inner.readUInt16BE(2) | 0x2000, 2);
    const withPackage = Buffer.concat([inner.subarray(0, 12), hex('00020001'), inner.subarray(12)]);
    let x = 0;
    for (const b of withPackage) x ^= b;
    const result = decodeJt808(Buffer.concat([hex('7e'), withPackage, Buffer.from([x]), hex('7e')]), ctx);
    expect(result.ok === false && result.error.code).toBe('bad_value');
    expect(ctx.pending.size).toBe(0);
  });

  it('0x0104 parameter answers are data replies carrying the parameters as text', () => {
    // answered serial 0x0005, 2 parameters: 0x0001 heartbeat (u32 30), 0x0013 main server ("host")
    const body = hex(
      '0005' + '02' + '00000001' + '04' + '0000001e' + '00000013' + '04' + Buffer.from('host').toString('hex'),
    );
    const m = ok(decodeJt808(buildJt808Frame(0x0104, terminal, 9, body), createJt808Context()));
    expect(m.commandReply).toEqual({ text: '0x0001=30;0x0013=host', answeredSerial: 5, data: true });
  });
});
