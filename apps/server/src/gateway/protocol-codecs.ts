// GT06 and JT/T 808 connection codecs over @carhere/protocols, and one-shot decoding for pushed frames.
import {
  type CommandReply,
  createGt06Context,
  createJt808Context,
  type DecodedMessage,
  decodeGt06,
  decodeJt808,
  Gt06Splitter,
  gt06EncodeCommand,
  Jt808CommandEncoder,
  Jt808Splitter,
  jt808RegisterReply,
  jt808Target,
} from '@carhere/protocols';
import type { DeviceRef } from './directory.ts';
import type { GatewayOptions } from './options.ts';
import type { ConnectionCodec } from './protocol.ts';

/** JT/T 808 0x8100 result: the terminal is not in the database. */
const REGISTER_NO_SUCH_TERMINAL = 4;

abstract class SplittingCodec {
  protected abstract readonly splitter: Gt06Splitter | Jt808Splitter;
  private seenDiscarded = 0;

  split(chunk: Buffer): Uint8Array[] {
    return this.splitter.push(chunk);
  }

  takeDiscarded(): number {
    const total = this.splitter.discardedBytes;
    const fresh = total - this.seenDiscarded;
    this.seenDiscarded = total;
    return fresh;
  }
}

class Gt06Codec extends SplittingCodec implements ConnectionCodec {
  readonly protocol = 'gt06' as const;
  protected readonly splitter = new Gt06Splitter();
  private readonly ctx;
  private serial = 0;

  constructor(ackLocations: boolean) {
    super();
    this.ctx = createGt06Context({ ackLocations });
  }

  decode(frame: Uint8Array) {
    return decodeGt06(frame, this.ctx);
  }

  bind(_device: DeviceRef): void {
    // GT06 fix times are UTC unless the login announces a zone; the decoder keeps that itself.
  }

  encodeCommand(content: string, commandId: string) {
    // The server flag is the command id, so a reply can be matched even on a later connection.
    const key = Number(BigInt(commandId) & 0xffffffffn);
    this.serial = (this.serial + 1) & 0xffff;
    return { bytes: gt06EncodeCommand(content, key, this.serial), key };
  }

  replyKey(reply: CommandReply): number | null {
    return reply.serverFlag === undefined ? null : reply.serverFlag >>> 0;
  }

  refusal(): Buffer | null {
    return null;
  }
}

class Jt808Codec extends SplittingCodec implements ConnectionCodec {
  readonly protocol = 'jt808' as const;
  protected readonly splitter = new Jt808Splitter();
  private readonly ctx = createJt808Context();
  private encoder: Jt808CommandEncoder | null = null;

  decode(frame: Uint8Array) {
    return decodeJt808(frame, this.ctx);
  }

  bind(device: DeviceRef): void {
    this.ctx.timeZoneMinutes = device.timeZone * 60;
  }

  encodeCommand(content: string) {
    if (!this.encoder) {
      this.encoder = new Jt808CommandEncoder(this.ctx.terminalId ?? '0', this.ctx.version ?? '2013', this.ctx.serials);
    }
    const command = this.encoder.text(content);
    return { bytes: command.frame, key: command.serial };
  }

  replyKey(reply: CommandReply): number | null {
    return reply.answeredSerial === undefined ? null : reply.answeredSerial;
  }

  refusal(first: DecodedMessage): Buffer | null {
    if (first.messageType !== 'register' || !first.terminalId) return null;
    const target = jt808Target(first.terminalId, this.ctx.version ?? '2013');
    return jt808RegisterReply(target, this.ctx.serials.next(), first.serial, REGISTER_NO_SUCH_TERMINAL, '');
  }
}

export function gt06Codec(options: Pick<GatewayOptions, 'gt06AckLocations'>): ConnectionCodec {
  return new Gt06Codec(options.gt06AckLocations);
}

export function jt808Codec(): ConnectionCodec {
  return new Jt808Codec();
}

/**
 * Decodes the frames in a pushed payload (NB-IoT platforms forward the tracker's own bytes). The device's
 * protocol type picks the codec (1 / 3: JT/T 808, 2: GT06); for others both are tried. Null when nothing
 * decodes.
 */
export function decodeStandalone(protocolType: number, bytes: Buffer): DecodedMessage[] | null {
  const order =
    protocolType === 2
      ? [gt06Codec({ gt06AckLocations: false })]
      : protocolType === 1 || protocolType === 3
        ? [jt808Codec()]
        : [gt06Codec({ gt06AckLocations: false }), jt808Codec()];
  for (const codec of order) {
    const messages: DecodedMessage[] = [];
    for (const frame of codec.split(bytes)) {
      const res = codec.decode(frame);
      if (res.ok) messages.push(res.message);
    }
    if (messages.length > 0) return messages;
  }
  return null;
}
