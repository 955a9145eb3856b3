import { errorFromThrown, failure } from '../errors.ts';
import { makeMessage } from '../position.ts';
import { ByteReader, decodeText, trimControl } from '../reader.ts';
import type { DecodedMessage, DecodeResult, Position } from '../types.ts';
import type { Jt808Context, Jt808Version } from './context.ts';
import type { Jt808Decoding } from './decoding.ts';
import {
  jt808GeneralResponseTo,
  jt808LockResponseTo,
  jt808MultimediaReply,
  jt808RegisterReply,
  jt808TimeReply,
} from './encoder.ts';
import { type Jt808Header, replyTarget, unpackJt808 } from './frame.ts';
import { decodeLocation } from './location.ts';
import { Jt808Id as Id, jt808MessageType } from './message-ids.ts';
import {
  decodeAcceleration,
  decodeAttributesReply,
  decodeAuth,
  decodeDriverIdentity,
  decodeLocationBatch,
  decodeLockLocation,
  decodeMultimedia,
  decodeParameterReply,
  decodeRegister,
} from './messages.ts';
import { reassemble } from './reassembly.ts';
import { decodeTransparent } from './transparent.ts';

// Un-escaped frames are decoded from here; nothing decoded keeps a view of it (texts and ids are copied).
const unescapeScratch = new Uint8Array(8192);

/**
 * Decodes one complete JT/T 808 frame as it came off the wire (7E…7E, still escaped), or a text
 * sentence "(…)" that some devices send on the same port. Never throws. Updates `ctx` (terminal id,
 * version, sub-package buffers) and takes reply serials from `ctx.serials`.
 */
export function decodeJt808(frame: Uint8Array, ctx: Jt808Context): DecodeResult {
  try {
    return decode(frame, ctx);
  } catch (thrown) {
    return { ok: false, error: errorFromThrown(thrown) };
  }
}

function decode(frame: Uint8Array, ctx: Jt808Context): DecodeResult {
  if (frame.length === 0) return failure('empty', 'empty frame');
  if (frame[0] === 0x28) return decodeSentence(frame, ctx);
  const unpacked = unpackJt808(frame, ctx.idCache, unescapeScratch);
  if (typeof unpacked === 'string') return failure('bad_frame', unpacked);
  if (ctx.requireChecksum && !unpacked.checksumOk) return failure('bad_checksum', 'JT/T 808 XOR check does not match');
  const header = unpacked.header;
  ctx.terminalId = header.terminalId;
  if (header.is2019) ctx.version = '2019';
  const message = makeMessage(
    'jt808',
    header.messageId,
    jt808MessageType(header.messageId),
    header.terminalId,
    header.serial,
    unpacked.checksumOk,
  );
  message.version = versionOf(header, ctx);

  let reader = new ByteReader(unpacked.bytes, unpacked.bodyStart, unpacked.bodyEnd);
  if (header.packageTotal > 1) {
    const assembled = reassemble(ctx, header, unpacked.bytes.subarray(unpacked.bodyStart, unpacked.bodyEnd));
    if (typeof assembled === 'string') return failure('bad_value', assembled);
    if (assembled === null) {
      message.messageType = 'fragment';
      message.attributes = { packageIndex: header.packageIndex, packageTotal: header.packageTotal };
      message.reply = jt808GeneralResponseTo(header, ctx.serials.next(), 0);
      return { ok: true, message };
    }
    reader = new ByteReader(assembled);
  }

  const d: Jt808Decoding = {
    ctx,
    header,
    message,
    model: ctx.model ? ctx.model.toUpperCase() : '',
    attributes: message.attributes,
    alarms: message.alarms,
    generalResult: header.messageId < 0x8000 ? 0 : null,
  };
  decodeBody(d, reader);
  finish(d);
  if (message.reply === null && d.generalResult !== null) {
    message.reply = jt808GeneralResponseTo(header, ctx.serials.next(), d.generalResult);
  }
  return { ok: true, message };
}

function versionOf(header: Jt808Header, ctx: Jt808Context): Jt808Version {
  if (header.is2019) return '2019';
  return ctx.version === '2011' ? '2011' : '2013';
}

function decodeBody(d: Jt808Decoding, r: ByteReader): void {
  const { ctx, header, message } = d;
  const positions = message.positions;
  const tz = ctx.timeZoneMinutes;
  switch (header.messageId) {
    case Id.location:
      positions.push(decodeLocation(r, tz, d.model));
      return;
    case Id.terminalGeneralResponse: {
      const answeredSerial = r.u16();
      const answeredMessageId = r.u16();
      const result = r.remaining > 0 ? r.u8() : 0;
      message.commandReply = { text: '', answeredSerial, answeredMessageId, result };
      d.generalResult = null;
      return;
    }
    case Id.heartbeat:
      if (r.remaining >= 3) {
        d.attributes.batteryLevel = r.u8();
        d.attributes.signal = r.u8();
        d.attributes.status = r.u8();
      }
      return;
    case Id.register: {
      const version = decodeRegister(d, r);
      if (version !== '2019') ctx.version = version;
      d.generalResult = null;
      message.reply = jt808RegisterReply(
        replyTarget(header),
        ctx.serials.next(),
        header.serial,
        0,
        ctx.authCodeFor(header.terminalId),
      );
      return;
    }
    case Id.auth:
      decodeAuth(d, r);
      return;
    case Id.resendRequest: {
      // 2019: the terminal asks for sub-packages again (remote upgrade): first serial, count, part ids.
      if (r.remaining < 4) return;
      const firstSerial = r.u16();
      const count = r.u16();
      const ids: number[] = [];
      for (let i = 0; i < count && r.remaining >= 2; i++) ids.push(r.u16());
      d.attributes.upgradeResend = { firstSerial, ids };
      return;
    }
    case Id.upgradeResult:
      if (r.remaining >= 2) d.attributes.upgradeResult = { type: r.u8(), result: r.u8() };
      return;
    case Id.parameterReply:
      decodeParameterReply(d, r);
      d.generalResult = null;
      return;
    case Id.attributesReply:
      decodeAttributesReply(d, r);
      return;
    case Id.locationQueryReply: {
      const answeredSerial = r.u16();
      const position = decodeLocation(r, tz, d.model);
      positions.push(position);
      message.commandReply = {
        text: `${position.lat},${position.lon}`,
        answeredSerial,
        answeredMessageId: Id.locationQuery,
        data: true,
      };
      d.generalResult = null;
      return;
    }
    case Id.locationBatch:
      for (const p of decodeLocationBatch(d, r, false)) positions.push(p);
      return;
    case Id.locationBatch2:
      if (r.remaining === 7) {
        d.attributes.batteryLevel = r.u8();
        d.attributes.deviceTime = readTime(r, tz);
      } else {
        for (const p of decodeLocationBatch(d, r, true)) positions.push(p);
      }
      return;
    case Id.lockLocation:
    case Id.lockLocationBlind:
      positions.push(decodeLockLocation(r, header.messageId === Id.lockLocationBlind));
      // These devices ask for an acknowledgement (0x4401) with attribute bit 15 only.
      d.generalResult = null;
      if ((header.attributes & 0x8000) !== 0) message.reply = jt808LockResponseTo(header, 0);
      return;
    case Id.transparent: {
      const position = decodeTransparent(d, r);
      if (position) positions.push(position);
      return;
    }
    case Id.commandReply: {
      const length = r.u32();
      message.commandReply = { text: r.text(Math.min(length, r.remaining)) };
      d.generalResult = null;
      return;
    }
    case Id.driverIdentity:
      decodeDriverIdentity(d, r);
      return;
    case Id.textReport:
      r.skip(1); // encoding
      message.commandReply = { text: r.text(r.remaining, 'gbk') };
      return;
    case Id.textReply: {
      const answeredSerial = r.u16();
      message.commandReply = { text: trimControl(decodeText(r.bytes(r.remaining), 'utf16be')), answeredSerial };
      d.generalResult = null;
      return;
    }
    case Id.acceleration:
      decodeAcceleration(d, r);
      d.generalResult = null;
      return;
    case Id.timeSyncRequest:
      d.generalResult = null;
      message.reply = jt808TimeReply(replyTarget(header), ctx.serials.next(), ctx.now());
      return;
    case Id.multimediaEvent: {
      const a = d.attributes;
      a.media = { id: r.u32(), type: r.u8(), format: r.u8(), event: r.u8(), channel: r.u8() };
      return;
    }
    case Id.multimediaData: {
      const media = decodeMultimedia(d, r);
      if (media.position) positions.push(media.position);
      d.generalResult = null;
      message.reply = jt808MultimediaReply(replyTarget(header), ctx.serials.next(), media.mediaId);
      return;
    }
    default:
      // logout, heartbeat 2, time zone sync, photo notices and unknown uplinks: the general response.
      return;
  }
}

function readTime(r: ByteReader, tz: number): string | null {
  const b = r.bytes(6);
  const v = (i: number) => (b[i] >> 4) * 10 + (b[i] & 15);
  const epoch = Date.UTC(2000 + v(0), v(1) - 1, v(2), v(3), v(4), v(5)) - tz * 60_000;
  return Number.isFinite(epoch) ? new Date(epoch).toISOString() : null;
}

/**
 * Data decoded outside a location block (e.g. transparent 0xF0 vehicle data) belongs to the first
 * position when there is one; message.alarms becomes the union of all positions' alarms.
 */
function finish(d: Jt808Decoding): void {
  const message: DecodedMessage = d.message;
  const positions: Position[] = message.positions;
  if (positions.length === 0) return;
  const first = positions[0];
  let moved = false;
  for (const key in message.attributes) {
    if (!(key in first.attributes)) first.attributes[key] = message.attributes[key];
    moved = true;
  }
  if (moved) message.attributes = {};
  for (const alarm of message.alarms) if (!first.alarms.includes(alarm)) first.alarms.push(alarm);
  for (const position of positions) {
    for (const alarm of position.alarms) if (!message.alarms.includes(alarm)) message.alarms.push(alarm);
  }
}

const SENTENCE_TIME = /TIME/;

/** "(id,…)" text sentences: BASE,2 asks for the time; anything else is a command reply. */
function decodeSentence(frame: Uint8Array, ctx: Jt808Context): DecodeResult {
  const text = decodeText(frame);
  if (!text.endsWith(')')) return failure('bad_frame', 'text sentence does not end with )');
  const terminalId = text.slice(1).split(',')[0] || null;
  if (terminalId) ctx.terminalId = terminalId;
  const message = makeMessage('jt808', 0, 'sentence', terminalId, 0, true);
  if (text.includes('BASE,2')) {
    const now = new Date(ctx.now()).toISOString();
    const stamp = now.slice(0, 19).replace(/[-T:]/g, '');
    message.reply = Buffer.from(text.replace(SENTENCE_TIME, stamp), 'latin1');
    message.messageType = 'timeRequest';
  } else {
    message.commandReply = { text };
    message.messageType = 'commandReply';
  }
  return { ok: true, message };
}
