// `carhere decode --protocol gt06|jt808 [--time-zone ±HH:MM|minutes] [--model NAME]`
// Reads hex frames from `input`, one per line, and writes exactly one JSON object per line to `output`:
// {"ok":true,"protocol":…,"messageId":…,"version":…,"terminalId":…,"serial":…,"checksumOk":…,"positions":[…],"reply":"hex"|null}
// (plus messageType, alarms, attributes and commandReply), or {"ok":false,"error":"…"} for a line that
// cannot be decoded. All lines share one decoder context, like the frames of one connection.

import { once } from 'node:events';
import { createInterface } from 'node:readline';
import {
  createGt06Context,
  createJt808Context,
  type DecodedMessage,
  type DecodeResult,
  decodeGt06,
  decodeJt808,
  fromHex,
} from '@carhere/protocols';

const USAGE = 'usage: carhere decode --protocol gt06|jt808 [--time-zone ±HH:MM|minutes] [--model NAME] < frames.hex';

interface DecodeOptions {
  protocol: 'gt06' | 'jt808';
  timeZoneMinutes: number | null;
  model: string | null;
}

/** Parses "+08:00", "-3:30", "480" or "-240" into minutes east of UTC. */
function parseTimeZone(text: string): number | null {
  const hm = /^([+-])?(\d{1,2}):(\d{2})$/.exec(text);
  if (hm) {
    const minutes = Number(hm[2]) * 60 + Number(hm[3]);
    return hm[1] === '-' ? -minutes : minutes;
  }
  if (/^[+-]?\d+$/.test(text)) return Number(text);
  return null;
}

function parseArgs(args: string[]): DecodeOptions | string {
  let protocol: string | null = null;
  let timeZoneMinutes: number | null = null;
  let model: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, null];
    const value = () => inline ?? args[++i];
    if (name === '--protocol' || name === '-p') protocol = value() ?? null;
    else if (name === '--time-zone' || name === '--timezone') {
      const text = value();
      timeZoneMinutes = text === undefined ? null : parseTimeZone(text);
      if (timeZoneMinutes === null || Math.abs(timeZoneMinutes) > 14 * 60) return `invalid time zone "${text}"`;
    } else if (name === '--model') model = value() ?? null;
    else if (name === '--help' || name === '-h') return USAGE;
    else return `unknown argument "${arg}"`;
  }
  if (protocol !== 'gt06' && protocol !== 'jt808') return `--protocol must be gt06 or jt808`;
  return { protocol, timeZoneMinutes, model };
}

function toJson(message: DecodedMessage): Record<string, unknown> {
  return {
    ok: true,
    protocol: message.protocol,
    messageId: message.messageId,
    messageType: message.messageType,
    ...(message.version ? { version: message.version } : {}),
    terminalId: message.terminalId,
    serial: message.serial,
    checksumOk: message.checksumOk,
    positions: message.positions,
    alarms: message.alarms,
    attributes: message.attributes,
    commandReply: message.commandReply,
    reply: message.reply ? message.reply.toString('hex') : null,
  };
}

function lineResult(result: DecodeResult): string {
  if (!result.ok) return JSON.stringify({ ok: false, error: `${result.error.code}: ${result.error.message}` });
  return JSON.stringify(toJson(result.message));
}

export async function runDecodeCli(
  args: string[],
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<number> {
  const options = parseArgs(args);
  if (typeof options === 'string') {
    process.stderr.write(`${options}\n${options === USAGE ? '' : `${USAGE}\n`}`);
    return options === USAGE ? 0 : 2;
  }
  const decode: (frame: Buffer) => DecodeResult =
    options.protocol === 'gt06'
      ? (() => {
          const ctx = createGt06Context({ timeZoneMinutes: options.timeZoneMinutes, model: options.model });
          return (frame: Buffer) => decodeGt06(frame, ctx);
        })()
      : (() => {
          const ctx = createJt808Context({
            timeZoneMinutes: options.timeZoneMinutes ?? undefined,
            model: options.model,
          });
          return (frame: Buffer) => decodeJt808(frame, ctx);
        })();

  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const raw of lines) {
    const text = raw.trim().replace(/^0x/i, '');
    let out: string;
    if (text === '') {
      out = JSON.stringify({ ok: false, error: 'empty line' });
    } else {
      const frame = fromHex(text);
      out =
        frame === null ? JSON.stringify({ ok: false, error: 'line is not a hex string' }) : lineResult(decode(frame));
    }
    if (!output.write(`${out}\n`)) await once(output, 'drain');
  }
  return 0;
}
