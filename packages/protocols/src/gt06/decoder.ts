import { errorFromThrown, failure } from '../errors.ts';
import { makeMessage } from '../position.ts';
import { ByteReader } from '../reader.ts';
import type { DecodeResult } from '../types.ts';
import { decodeBasic } from './basic.ts';
import { type Gt06Context, gt06TimeZone } from './context.ts';
import type { Gt06Decoding } from './decoding.ts';
import { decodeExtended } from './extended.ts';
import { buildGt06Frame, readGt06Layout } from './frame.ts';
import { gt06MessageType } from './protocol-numbers.ts';
import { detectGt06Variant } from './variant.ts';

/**
 * Decodes one complete GT06 frame (7878…0D0A or 7979…0D0A, as the splitter returns it).
 * Never throws: malformed input gives `{ ok: false, error }`. Updates `ctx` (IMEI and time zone at login).
 */
export function decodeGt06(frame: Uint8Array, ctx: Gt06Context): DecodeResult {
  try {
    return decode(frame, ctx);
  } catch (thrown) {
    return { ok: false, error: errorFromThrown(thrown) };
  }
}

function decode(frame: Uint8Array, ctx: Gt06Context): DecodeResult {
  const layout = readGt06Layout(frame);
  if (typeof layout === 'string') return failure(frame.length === 0 ? 'empty' : 'bad_frame', layout);
  const type = layout.type;
  const model = ctx.model ? ctx.model.toUpperCase() : '';
  const variant = detectGt06Variant(frame, layout.extended, type, layout.declaredLength, model);
  // WiFi packets 0x17/0x69 carry no serial or CRC: their content runs to the 0D0A.
  const unframed = !layout.extended && (type === 0x69 || (type === 0x17 && variant !== 'rfid'));
  // Checked before anything is read or changed; WiFi packets without a CRC have nothing to check.
  if (ctx.requireChecksum && !unframed && !layout.checksumOk) return failure('bad_checksum', 'GT06 CRC does not match');
  if (unframed) {
    layout.serial = 0;
    layout.checksumOk = false;
    layout.contentEnd = frame[frame.length - 1] === 0x0a ? frame.length - 2 : frame.length;
  }
  const message = makeMessage('gt06', type, gt06MessageType(type), ctx.terminalId, layout.serial, layout.checksumOk);
  const d: Gt06Decoding = {
    ctx,
    frame,
    layout,
    message,
    attributes: {},
    alarms: [],
    position: null,
    timeZone: gt06TimeZone(ctx),
    variant,
    model,
    lwModel: model.startsWith('LW'),
    ack: false,
  };
  const r = new ByteReader(frame, layout.contentStart, layout.contentEnd);
  if (layout.extended) decodeExtended(d, r, type);
  else decodeBasic(d, r, type);

  if (d.position) {
    d.position.alarms = d.alarms;
    d.position.attributes = d.attributes;
    message.positions.push(d.position);
    for (const alarm of d.alarms) message.alarms.push(alarm);
  } else {
    message.attributes = d.attributes;
    message.alarms = d.alarms;
  }
  if (d.ack && message.reply === null) message.reply = buildGt06Frame(type, layout.serial, null);
  return { ok: true, message };
}
