import { describe, expect, it } from 'vitest';
import { createJt808Context } from './context.ts';
import { decodeJt808 } from './decoder.ts';
import {
  Jt808CommandEncoder,
  jt808GeneralResponse,
  jt808LocationQuery,
  jt808QueryParameters,
  jt808RegisterReply,
  jt808SetParameters,
  jt808Target,
  jt808TerminalControl,
  jt808TextMessage,
  jt808Transparent,
} from './encoder.ts';
import { buildJt808Frame, unpackJt808 } from './frame.ts';
import { Jt808SerialCounter } from './serial-counter.ts';
import { decodeTerminalId, encodeTerminalId } from './terminal-id.ts';

const target = jt808Target('013912345678', '2013');

function parse(frame: Buffer) {
  const unpacked = unpackJt808(frame);
  if (typeof unpacked === 'string') throw new Error(unpacked);
  expect(unpacked.checksumOk).toBe(true);
  return {
    id: unpacked.header.messageId,
    serial: unpacked.header.serial,
    terminalId: unpacked.header.terminalId,
    body: Buffer.from(unpacked.bytes.subarray(unpacked.bodyStart, unpacked.bodyEnd)).toString('hex'),
  };
}

describe('JT/T 808 platform messages', () => {
  it('0x8001 general response quotes serial, message id and result', () => {
    expect(parse(jt808GeneralResponse(target, 3, 0x0102, 0x0200, 1))).toEqual({
      id: 0x8001,
      serial: 3,
      terminalId: '013912345678',
      body: '0102020001',
    });
  });

  it('0x8100 carries the auth code only on success', () => {
    expect(parse(jt808RegisterReply(target, 1, 0x24, 0, 'AB12')).body).toBe('0024004142' + '3132');
    expect(parse(jt808RegisterReply(target, 1, 0x24, 3, 'AB12')).body).toBe('002403');
  });

  it('0x8103 writes DWORD, WORD, BYTE and string parameters', () => {
    const frame = jt808SetParameters(target, 2, [
      { id: 0x0001, value: 30 },
      { id: 0x0055, value: 120, size: 2 },
      { id: 0x0084, value: 1, size: 1 },
      { id: 0x0013, value: 'gps.example.com' },
    ]);
    const { id, body } = parse(frame);
    expect(id).toBe(0x8103);
    expect(body).toBe(
      '04' +
        '00000001' +
        '04' +
        '0000001e' +
        '00000055' +
        '02' +
        '0078' +
        '00000084' +
        '01' +
        '01' +
        '00000013' +
        '0f' +
        Buffer.from('gps.example.com').toString('hex'),
    );
  });

  it('0x8104 / 0x8106 query all or some parameters', () => {
    expect(parse(jt808QueryParameters(target, 1))).toMatchObject({ id: 0x8104, body: '' });
    expect(parse(jt808QueryParameters(target, 1, [0x0001, 0x0013]))).toMatchObject({
      id: 0x8106,
      body: '020000000100000013',
    });
  });

  it('0x8105, 0x8201, 0x8300 (GBK) and 0x8900', () => {
    expect(parse(jt808TerminalControl(target, 1, 4))).toMatchObject({ id: 0x8105, body: '04' });
    expect(parse(jt808TerminalControl(target, 1, 0x64, 'a;b'))).toMatchObject({ body: '64613b62' });
    expect(parse(jt808LocationQuery(target, 1))).toMatchObject({ id: 0x8201, body: '' });
    expect(parse(jt808TextMessage(target, 1, 'RELAY,1#'))).toMatchObject({
      id: 0x8300,
      body: '01' + Buffer.from('RELAY,1#').toString('hex'),
    });
    expect(parse(jt808TextMessage(target, 1, '断油', 0x08)).body).toBe('08b6cfd3cd');
    expect(parse(jt808Transparent(target, 1, 0xf0, 'TEST'))).toMatchObject({ id: 0x8900, body: 'f054455354' });
  });

  it('0x8300 per version: 2013 flag + GBK text; 2019 flag + text type + GBK text', () => {
    // Vectors built by hand from the layouts (JT/T 808-2013 §8.33; JT/T 808-2019 §8.36: flag BYTE, text type
    // BYTE 1 = notice, text STRING GBK), header 7E 8300 | attributes | [version 01] | id | serial 0007 | XOR 7E.
    expect(jt808TextMessage(jt808Target('013912345678', '2013'), 7, '断油').toString('hex')).toBe(
      '7e83000005013912345678000701b6cfd3cdd77e',
    );
    expect(jt808TextMessage(jt808Target('013912345678', '2019'), 7, '断油').toString('hex')).toBe(
      '7e83004006010000000001391234567800070101b6cfd3cd947e',
    );
    const commands = new Jt808CommandEncoder('013912345678', '2019', new Jt808SerialCounter(7));
    expect(parse(commands.text('RELAY,1#').frame).body).toBe('0101' + Buffer.from('RELAY,1#').toString('hex'));
  });

  it('writes 2019 headers with the version flag, version byte and a 10-byte id', () => {
    const frame = jt808TerminalControl(jt808Target('13912345678', '2019'), 5, 4);
    const unpacked = unpackJt808(frame);
    if (typeof unpacked === 'string') throw new Error(unpacked);
    expect(unpacked.header).toMatchObject({ is2019: true, protocolVersion: 1, terminalId: '00000000013912345678' });
  });

  it('refuses bodies that need sub-packaging', () => {
    expect(() => buildJt808Frame(0x8900, target, 1, new Uint8Array(1024))).toThrow(RangeError);
  });
});

describe('Jt808CommandEncoder', () => {
  it('numbers commands from the connection counter so the 0x0001 answer can be matched', () => {
    const ctx = createJt808Context({ serials: new Jt808SerialCounter(40) });
    const commands = new Jt808CommandEncoder('013912345678', '2013', ctx.serials);
    const text = commands.text('WHERE#');
    const query = commands.locationQuery();
    expect([text.serial, query.serial]).toEqual([40, 41]);
    expect(text.messageId).toBe(0x8300);
    expect(parse(text.frame).serial).toBe(40);

    // The device acknowledges the text message; the decoded reply names serial 40 and id 0x8300.
    const ack = buildJt808Frame(0x0001, target, 7, Buffer.from([0, 40, 0x83, 0x00, 0]));
    const decoded = decodeJt808(ack, ctx);
    expect(decoded.ok && decoded.message.commandReply).toEqual({
      text: '',
      answeredSerial: text.serial,
      answeredMessageId: text.messageId,
      result: 0,
    });
  });
});

describe('terminal ids', () => {
  it('round-trips BCD phones and the binary IMEI form', () => {
    expect(decodeTerminalId(encodeTerminalId('013912345678', 6))).toBe('013912345678');
    expect(Buffer.from(encodeTerminalId('123456789012345', 6)).toString('hex')).toBe('0b3a73ce2ff2');
    // The binary form drops the check digit; decoding restores the Luhn digit (7 for 12345678901234).
    expect(decodeTerminalId(Buffer.from('0b3a73ce2ff2', 'hex'))).toBe('123456789012347');
  });
});
