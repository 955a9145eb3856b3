// Platform → terminal messages. Each builder returns the escaped frame to send; the serial number comes
// from the connection's Jt808SerialCounter so that the device's 0x0001 reply can be matched to it.

import type { Jt808Version } from './context.ts';
import { buildJt808Frame, type Jt808FrameTarget, type Jt808Header, writeJt808Frame } from './frame.ts';
import { encodeGbk } from './gbk.ts';
import { Jt808Id } from './message-ids.ts';
import type { Jt808SerialCounter } from './serial-counter.ts';
import { encodeTerminalId } from './terminal-id.ts';

/** Whom a command goes to: the terminal id and the protocol version it speaks. */
export function jt808Target(terminalId: string, version: Jt808Version = '2013'): Jt808FrameTarget {
  const is2019 = version === '2019';
  return { idBytes: encodeTerminalId(terminalId, is2019 ? 10 : 6), is2019, protocolVersion: 1 };
}

function u16(value: number): number[] {
  return [(value >> 8) & 0xff, value & 0xff];
}

function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** 0x8001 platform general response. result: 0 ok, 1 failure, 2 message error, 3 not supported, 4 alarm confirmed. */
export function jt808GeneralResponse(
  target: Jt808FrameTarget,
  serial: number,
  answeredSerial: number,
  answeredMessageId: number,
  result = 0,
): Buffer {
  const body = Uint8Array.of(
    (answeredSerial >> 8) & 0xff,
    answeredSerial & 0xff,
    (answeredMessageId >> 8) & 0xff,
    answeredMessageId & 0xff,
    result,
  );
  return buildJt808Frame(Jt808Id.generalResponse, target, serial, body);
}

const responseBody = new Uint8Array(5);

/** 0x8001 answering a received header, with the header's own id bytes (the decoder's hot path). */
export function jt808GeneralResponseTo(header: Jt808Header, serial: number, result = 0): Buffer {
  const body = responseBody;
  body[0] = (header.serial >> 8) & 0xff;
  body[1] = header.serial & 0xff;
  body[2] = (header.messageId >> 8) & 0xff;
  body[3] = header.messageId & 0xff;
  body[4] = result;
  return writeJt808Frame(
    0x8001,
    header.source,
    header.idOffset,
    header.idLength,
    header.is2019,
    header.protocolVersion,
    serial,
    body,
  );
}

/**
 * 0x4401: the general response JT701 locks expect for 0x5501/0x5502 (one-byte serial, answered message id,
 * result), sent only when their header asks for it (attribute bit 15).
 */
export function jt808LockResponseTo(header: Jt808Header, result = 0): Buffer {
  const raw: number[] = [0x44, 0x01, 0x00, 0x03];
  for (let i = 0; i < header.idLength; i++) raw.push(header.source[header.idOffset + i]);
  raw.push(0x01, (header.messageId >> 8) & 0xff, header.messageId & 0xff, result);
  let check = 0;
  for (const b of raw) check ^= b;
  raw.push(check);
  const out: number[] = [0x7e];
  for (const b of raw) {
    if (b === 0x7e) out.push(0x7d, 0x02);
    else if (b === 0x7d) out.push(0x7d, 0x01);
    else out.push(b);
  }
  out.push(0x7e);
  return Buffer.from(out);
}

/** 0x8100 registration reply. result: 0 ok, 1 vehicle registered, 2 no such vehicle, 3 terminal registered, 4 no such terminal. */
export function jt808RegisterReply(
  target: Jt808FrameTarget,
  serial: number,
  answeredSerial: number,
  result: number,
  authCode: string,
): Buffer {
  const code = result === 0 ? encodeGbk(authCode) : new Uint8Array(0);
  const body = new Uint8Array(3 + code.length);
  body.set([(answeredSerial >> 8) & 0xff, answeredSerial & 0xff, result], 0);
  body.set(code, 3);
  return buildJt808Frame(Jt808Id.registerReply, target, serial, body);
}

/** One terminal parameter for 0x8103: numbers are sent as DWORD unless `size` says 1 or 2 bytes. */
export interface Jt808Parameter {
  id: number;
  value: number | string | Uint8Array;
  size?: 1 | 2 | 4;
}

/** 0x8103 set terminal parameters. */
export function jt808SetParameters(target: Jt808FrameTarget, serial: number, parameters: Jt808Parameter[]): Buffer {
  const bytes: number[] = [parameters.length & 0xff];
  for (const parameter of parameters) {
    bytes.push(...u32(parameter.id));
    let value: Uint8Array | number[];
    if (typeof parameter.value === 'number') {
      const size = parameter.size ?? 4;
      value = size === 1 ? [parameter.value & 0xff] : size === 2 ? u16(parameter.value) : u32(parameter.value);
    } else if (typeof parameter.value === 'string') {
      value = encodeGbk(parameter.value);
    } else {
      value = parameter.value;
    }
    if (value.length > 255) throw new RangeError(`parameter 0x${parameter.id.toString(16)} longer than 255 bytes`);
    bytes.push(value.length, ...value);
  }
  return buildJt808Frame(Jt808Id.setParameters, target, serial, Uint8Array.from(bytes));
}

/** 0x8104 query all parameters, or 0x8106 query the given ids. */
export function jt808QueryParameters(target: Jt808FrameTarget, serial: number, ids?: number[]): Buffer {
  if (!ids || ids.length === 0) return buildJt808Frame(Jt808Id.queryParameters, target, serial, new Uint8Array(0));
  const bytes: number[] = [ids.length & 0xff];
  for (const id of ids) bytes.push(...u32(id));
  return buildJt808Frame(Jt808Id.queryParametersById, target, serial, Uint8Array.from(bytes));
}

/**
 * 0x8105 terminal control. Standard commands: 1 upgrade, 2 connect to server, 3 power off, 4 reset,
 * 5 factory reset, 6 close data, 7 close all links; vendors use 0xF0/0xF1 for cutting/restoring oil.
 * `parameters` are the command's parameter string (fields separated by ';').
 */
export function jt808TerminalControl(
  target: Jt808FrameTarget,
  serial: number,
  command: number,
  parameters?: string,
): Buffer {
  const text = parameters ? encodeGbk(parameters) : new Uint8Array(0);
  const body = new Uint8Array(1 + text.length);
  body[0] = command;
  body.set(text, 1);
  return buildJt808Frame(Jt808Id.terminalControl, target, serial, body);
}

/** 0x8201 location query: the device answers with 0x0201. */
export function jt808LocationQuery(target: Jt808FrameTarget, serial: number): Buffer {
  return buildJt808Frame(Jt808Id.locationQuery, target, serial, new Uint8Array(0));
}

/** JT/T 808-2019 0x8300 text type: 1 notice, 2 service information. */
export const JT808_TEXT_TYPE_NOTICE = 1;

/**
 * 0x8300 text message. flags: bit 0 emergency (2019: service), bit 2 display, bit 3 text-to-speech. Many
 * trackers run text such as "RELAY,1#" as a command; the default flag (emergency) is what they expect.
 * 2011/2013 body: flag byte, GBK text. 2019 body (the target writes a 2019 header): flag byte, text type byte
 * (1 notice, 2 service), GBK text — without the type byte a 2019 terminal reads the first character as the type.
 */
export function jt808TextMessage(
  target: Jt808FrameTarget,
  serial: number,
  text: string,
  flags = 0x01,
  textType = JT808_TEXT_TYPE_NOTICE,
): Buffer {
  const encoded = encodeGbk(text);
  const head = target.is2019 ? 2 : 1;
  const body = new Uint8Array(head + encoded.length);
  body[0] = flags;
  if (target.is2019) body[1] = textType;
  body.set(encoded, head);
  return buildJt808Frame(Jt808Id.textMessage, target, serial, body);
}

/** 0x8900 transparent downlink: a type byte (e.g. 0xF0 for vendor text commands) and the data. */
export function jt808Transparent(
  target: Jt808FrameTarget,
  serial: number,
  type: number,
  data: Uint8Array | string,
): Buffer {
  const payload = typeof data === 'string' ? encodeGbk(data) : data;
  const body = new Uint8Array(1 + payload.length);
  body[0] = type;
  body.set(payload, 1);
  return buildJt808Frame(Jt808Id.transparentDownlink, target, serial, body);
}

/** 0x8109 time sync reply (vendor): UTC year (2 bytes), month, day, hour, minute, second, result. */
export function jt808TimeReply(target: Jt808FrameTarget, serial: number, now: number): Buffer {
  const t = new Date(now);
  const body = Uint8Array.of(
    ...u16(t.getUTCFullYear()),
    t.getUTCMonth() + 1,
    t.getUTCDate(),
    t.getUTCHours(),
    t.getUTCMinutes(),
    t.getUTCSeconds(),
    0,
  );
  return buildJt808Frame(Jt808Id.timeSyncReply, target, serial, body);
}

/** 0x8800 multimedia upload reply: media id and no parts to resend. */
export function jt808MultimediaReply(target: Jt808FrameTarget, serial: number, mediaId: number): Buffer {
  return buildJt808Frame(Jt808Id.multimediaReply, target, serial, Uint8Array.of(...u32(mediaId), 0));
}

/** A command ready to send, with the serial to match the device's reply against. */
export interface Jt808Command {
  messageId: number;
  serial: number;
  frame: Buffer;
}

/**
 * Builds commands for one terminal, numbering them from the connection's serial counter (share it with
 * the decoder's context so replies and commands never reuse a serial).
 */
export class Jt808CommandEncoder {
  readonly target: Jt808FrameTarget;
  private readonly serials: Jt808SerialCounter;

  constructor(terminalId: string, version: Jt808Version, serials: Jt808SerialCounter) {
    this.target = jt808Target(terminalId, version);
    this.serials = serials;
  }

  private command(messageId: number, build: (serial: number) => Buffer): Jt808Command {
    const serial = this.serials.next();
    return { messageId, serial, frame: build(serial) };
  }

  setParameters(parameters: Jt808Parameter[]): Jt808Command {
    return this.command(Jt808Id.setParameters, (s) => jt808SetParameters(this.target, s, parameters));
  }

  queryParameters(ids?: number[]): Jt808Command {
    const id = ids && ids.length > 0 ? Jt808Id.queryParametersById : Jt808Id.queryParameters;
    return this.command(id, (s) => jt808QueryParameters(this.target, s, ids));
  }

  terminalControl(command: number, parameters?: string): Jt808Command {
    return this.command(Jt808Id.terminalControl, (s) => jt808TerminalControl(this.target, s, command, parameters));
  }

  locationQuery(): Jt808Command {
    return this.command(Jt808Id.locationQuery, (s) => jt808LocationQuery(this.target, s));
  }

  text(text: string, flags = 0x01): Jt808Command {
    return this.command(Jt808Id.textMessage, (s) => jt808TextMessage(this.target, s, text, flags));
  }

  transparent(type: number, data: Uint8Array | string): Jt808Command {
    return this.command(Jt808Id.transparentDownlink, (s) => jt808Transparent(this.target, s, type, data));
  }
}
