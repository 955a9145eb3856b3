import { describe, expect, it } from 'vitest';
import type { DecodedMessage, DecodeResult } from '../types.ts';
import { createGt06Context } from './context.ts';
import { decodeGt06 } from './decoder.ts';
import { buildGt06Frame, readGt06Layout } from './frame.ts';

function ok(result: DecodeResult): DecodedMessage {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.message;
}

const hex = (text: string) => Buffer.from(text, 'hex');

/** GPS block: YY MM DD hh mm ss, satellites, lat, lon, speed, course/status. */
function gpsBlock(o: { time: number[]; lat: number; lon: number; speed: number; course: number; flags: number }) {
  const b = Buffer.alloc(18);
  b.set(o.time, 0);
  b[6] = 0xc9; // 12-byte GPS info, 9 satellites
  b.writeUInt32BE(Math.round(Math.abs(o.lat) * 1800000), 7);
  b.writeUInt32BE(Math.round(Math.abs(o.lon) * 1800000), 11);
  b[15] = o.speed;
  b.writeUInt16BE(o.flags | o.course, 16);
  return b;
}

const NORTH = 0x0400;
const WEST = 0x0800;
const FIX = 0x1000;
const serving = hex('01cc00287d001f71'); // MCC 460, MNC 0, LAC 0x287d, cell 0x001f71

describe('decodeGt06: login and time zone', () => {
  it('reads the IMEI and answers with the login ACK', () => {
    const ctx = createGt06Context();
    const m = ok(decodeGt06(hex('78780d01086471700328358100093f040d0a'), ctx));
    expect(m.messageType).toBe('login');
    expect(m.terminalId).toBe('864717003283581');
    expect(ctx.terminalId).toBe('864717003283581');
    expect(m.reply?.toString('hex')).toBe('78780501000955940d0a');
    const reply = readGt06Layout(m.reply ?? Buffer.alloc(0));
    expect(typeof reply !== 'string' && reply.checksumOk && reply.serial === 9).toBe(true);
  });

  it('applies the login time zone to later device times, unless one is configured', () => {
    // Extension bits: value 800 (8 h 00 min) << 4, bit 3 clear = east; language 0x02.
    const login = buildGt06Frame(0x01, 1, hex(`0868120145678901` + `3602` + ((800 << 4) | 0x02).toString(16)));
    const location = buildGt06Frame(
      0x12,
      2,
      Buffer.concat([
        gpsBlock({ time: [24, 1, 1, 8, 0, 0], lat: 22.5, lon: 114, speed: 0, course: 0, flags: FIX | NORTH }),
        serving,
      ]),
    );
    const learned = createGt06Context();
    ok(decodeGt06(login, learned));
    expect(learned.loginTimeZoneMinutes).toBe(480);
    expect(ok(decodeGt06(location, learned)).positions[0].time.toISOString()).toBe('2024-01-01T00:00:00.000Z');

    const configured = createGt06Context({ timeZoneMinutes: -60 });
    ok(decodeGt06(login, configured));
    expect(ok(decodeGt06(location, configured)).positions[0].time.toISOString()).toBe('2024-01-01T09:00:00.000Z');
  });

  it('rejects a login whose IMEI is not BCD', () => {
    const result = decodeGt06(buildGt06Frame(0x01, 1, hex('0a6471700328358f')), createGt06Context());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('bad_value');
  });
});

describe('decodeGt06: locations', () => {
  it('decodes a 0x12 report with hemisphere flags, speed, course, satellites and serving cell', () => {
    const ctx = createGt06Context({ terminalId: '864717003283581' });
    const frame = buildGt06Frame(
      0x12,
      0x0102,
      Buffer.concat([
        gpsBlock({
          time: [24, 5, 17, 10, 11, 12],
          lat: 33.8688,
          lon: 151.2093,
          speed: 57,
          course: 271,
          flags: FIX | WEST,
        }),
        serving,
      ]),
    );
    const m = ok(decodeGt06(frame, ctx));
    expect(m).toMatchObject({ protocol: 'gt06', messageId: 0x12, terminalId: '864717003283581', serial: 0x0102 });
    expect(m.checksumOk).toBe(true);
    expect(m.reply).toBeNull(); // location packets need no ACK
    const [p] = m.positions;
    expect(p.time.toISOString()).toBe('2024-05-17T10:11:12.000Z');
    expect(p.lat).toBeCloseTo(-33.8688, 5); // bit 10 clear: south
    expect(p.lon).toBeCloseTo(-151.2093, 5); // bit 11 set: west
    expect(p).toMatchObject({ speedKmh: 57, course: 271, valid: true, satellites: 9 });
    expect(p.attributes.cellTowers).toEqual([{ mcc: 460, mnc: 0, lac: 0x287d, cid: 0x1f71 }]);
    expect(p.attributes.locationType).toBe('gps');
  });

  it('acknowledges locations when the context asks for it', () => {
    const ctx = createGt06Context({ ackLocations: true });
    const frame = buildGt06Frame(
      0x12,
      7,
      Buffer.concat([
        gpsBlock({ time: [24, 1, 1, 0, 0, 0], lat: 1, lon: 1, speed: 0, course: 0, flags: FIX | NORTH }),
        serving,
      ]),
    );
    expect(ok(decodeGt06(frame, ctx)).reply?.toString('hex')).toBe(buildGt06Frame(0x12, 7, null).toString('hex'));
  });

  it('reports an impossible position as invalid instead of dropping it', () => {
    const frame = buildGt06Frame(
      0x12,
      1,
      Buffer.concat([
        gpsBlock({ time: [24, 1, 1, 0, 0, 0], lat: 95, lon: 10, speed: 0, course: 0, flags: FIX | NORTH }),
        serving,
      ]),
    );
    const [p] = ok(decodeGt06(frame, createGt06Context())).positions;
    expect(p.lat).toBeCloseTo(95, 5);
    expect(p.valid).toBe(false);
  });

  it('flags a fix whose date is not a calendar date', () => {
    const frame = buildGt06Frame(
      0x12,
      1,
      Buffer.concat([
        gpsBlock({ time: [24, 13, 40, 0, 0, 0], lat: 10, lon: 10, speed: 0, course: 0, flags: FIX | NORTH }),
        serving,
      ]),
    );
    const [p] = ok(decodeGt06(frame, createGt06Context())).positions;
    expect(Number.isFinite(p.time.getTime())).toBe(true);
    expect(p.valid).toBe(false);
  });

  it('reads ACC, upload reason and re-upload from 0x22', () => {
    const frame = buildGt06Frame(
      0x22,
      1,
      Buffer.concat([
        gpsBlock({ time: [24, 1, 1, 0, 0, 0], lat: 22, lon: 114, speed: 10, course: 90, flags: FIX | NORTH }),
        serving,
        hex('010301'),
      ]),
    );
    const [p] = ok(decodeGt06(frame, createGt06Context())).positions;
    expect(p.attributes).toMatchObject({ acc: true, event: 3, archive: true });
  });
});

describe('decodeGt06: status, alarms and replies', () => {
  it('decodes a heartbeat (0x13) and acknowledges it', () => {
    // Terminal info 0x46: ACC on, charging, GPS tracking; voltage level 6; GSM 4; alarm 0; language 2.
    const m = ok(decodeGt06(buildGt06Frame(0x13, 0x33, hex('4606040002')), createGt06Context()));
    expect(m.messageType).toBe('heartbeat');
    expect(m.positions).toHaveLength(0);
    expect(m.attributes).toMatchObject({ acc: true, charge: true, batteryLevel: 100, signal: 4, blocked: false });
    expect(m.reply?.toString('hex')).toBe(buildGt06Frame(0x13, 0x33, null).toString('hex'));
  });

  it('decodes an alarm packet (0x16) with its SOS alarm and ACK', () => {
    const content = Buffer.concat([
      gpsBlock({ time: [24, 2, 3, 4, 5, 6], lat: 22, lon: 114, speed: 0, course: 0, flags: FIX | NORTH }),
      hex('09'),
      serving,
      hex('0406040102'), // terminal info (SOS bits), voltage, GSM, alarm 0x01 (SOS), language
    ]);
    const m = ok(decodeGt06(buildGt06Frame(0x16, 9, content), createGt06Context()));
    expect(m.alarms).toEqual(['sos']);
    expect(m.positions[0].alarms).toEqual(['sos']);
    expect(m.reply).not.toBeNull();
  });

  it('returns a 0x15 command reply with the server flag that matches the command', () => {
    const text = Buffer.from('Cut off the fuel supply: Success!', 'ascii');
    const content = Buffer.concat([Buffer.from([4 + text.length]), hex('0000abcd'), text, hex('0002')]);
    const m = ok(decodeGt06(buildGt06Frame(0x15, 3, content), createGt06Context()));
    expect(m.commandReply).toEqual({ text: 'Cut off the fuel supply: Success!', serverFlag: 0xabcd });
  });

  it('returns a UTF-16 0x21 command reply from a 7979 frame', () => {
    const text = hex('004f004b'); // "OK" in UTF-16BE
    const content = Buffer.concat([hex('00000007'), hex('02'), text]);
    const m = ok(decodeGt06(buildGt06Frame(0x21, 4, content, true), createGt06Context()));
    expect(m.commandReply).toEqual({ text: 'OK', serverFlag: 7 });
  });

  it('answers a time request with the current UTC time', () => {
    const ctx = createGt06Context({ now: () => Date.UTC(2025, 2, 4, 5, 6, 7) });
    const m = ok(decodeGt06(buildGt06Frame(0x8a, 1, null), ctx));
    expect(m.reply?.toString('hex')).toBe(buildGt06Frame(0x8a, 0, hex('190304050607')).toString('hex'));
  });
});

describe('decodeGt06: malformed input', () => {
  it('gives typed errors, never exceptions', () => {
    const ctx = createGt06Context();
    for (const [input, code] of [
      ['', 'empty'],
      ['7878', 'bad_frame'],
      ['7777050100010d0a', 'bad_frame'],
      ['78780d0103', 'truncated'],
    ] as const) {
      const result = decodeGt06(hex(input), ctx);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe(code);
    }
  });

  it('reports a CRC mismatch, and rejects it when checksums are required', () => {
    const frame = buildGt06Frame(0x13, 1, hex('4606040002'));
    frame[frame.length - 3] ^= 0xff;
    expect(ok(decodeGt06(frame, createGt06Context())).checksumOk).toBe(false);
    const strict = decodeGt06(frame, createGt06Context({ requireChecksum: true }));
    expect(strict.ok === false && strict.error.code).toBe('bad_checksum');
  });
});
