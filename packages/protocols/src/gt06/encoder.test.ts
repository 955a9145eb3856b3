import { describe, expect, it } from 'vitest';
import { crcX25 } from '../checksum.ts';
import { gt06Ack, gt06EncodeCommand } from './encoder.ts';
import { readGt06Layout } from './frame.ts';

describe('gt06EncodeCommand', () => {
  it('builds 0x80 with command length, server flag, text, serial and a valid CRC', () => {
    const frame = gt06EncodeCommand('RELAY,1#', 0x01020304, 0x0042);
    const layout = readGt06Layout(frame);
    if (typeof layout === 'string') throw new Error(layout);
    expect(layout).toMatchObject({ extended: false, type: 0x80, serial: 0x42, checksumOk: true, regular: true });
    expect(frame[4]).toBe(4 + 8); // server flag + text
    expect(frame.readUInt32BE(5)).toBe(0x01020304);
    expect(frame.subarray(9, 17).toString('ascii')).toBe('RELAY,1#');
    expect(crcX25(frame, 2, frame.length - 4)).toBe(frame.readUInt16BE(frame.length - 4));
  });

  it('appends the language field when asked', () => {
    const frame = gt06EncodeCommand('WHERE#', 1, 1, { language: 2 });
    expect(frame[4]).toBe(4 + 6);
    expect(frame.readUInt16BE(5 + 4 + 6)).toBe(2);
  });

  it('switches to a 7979 frame when the text does not fit a one-byte length', () => {
    const frame = gt06EncodeCommand('X'.repeat(251), 9, 1);
    expect(frame.subarray(0, 2).toString('hex')).toBe('7979');
    const layout = readGt06Layout(frame);
    expect(typeof layout !== 'string' && layout.checksumOk && layout.type === 0x80).toBe(true);
    expect(() => gt06EncodeCommand('X'.repeat(252), 9, 1)).toThrow(RangeError);
  });
});

describe('gt06Ack', () => {
  it('echoes protocol number and serial', () => {
    expect(gt06Ack(0x01, 1).toString('hex')).toBe('787805010001d9dc0d0a');
  });
});
