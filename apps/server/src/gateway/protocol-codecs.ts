// GT06 and JT/T 808 connection codecs over @carhere/protocols, and one-shot decoding for pushed frames.
import {
  type CommandReply,
  createGt06Context,
  createJt808Context,
  type DecodedMessage,
  decodeGt06,
  decodeJt808,
  encodeJt808Structured,
  Gt06Splitter,
  gt06EncodeCommand,
  isJt808Structured,
  Jt808CommandEncoder,
  Jt808Splitter,
  jt808GeneralResponse,
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

  readonly needsAuth = false;

  decode(frame: Uint8Array, acceptBadChecksum = false) {
    this.ctx.requireChecksum = !acceptBadChecksum;
    return decodeGt06(frame, this.ctx);
  }

  registerReply(): Buffer | null {
    return null;
  }

  answer(): Buffer | null {
    return null;
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

  readonly needsAuth = true;

  decode(frame: Uint8Array, acceptBadChecksum = false) {
    this.ctx.requireChecksum = !acceptBadChecksum;
    return decodeJt808(frame, this.ctx);
  }

  private target(msg: DecodedMessage) {
    return jt808Target(msg.terminalId ?? this.ctx.terminalId ?? '0', msg.version ?? this.ctx.version ?? '2013');
  }

  registerReply(msg: DecodedMessage, code: string | null): Buffer | null {
    const result = code === null ? REGISTER_NO_SUCH_TERMINAL : 0;
    return jt808RegisterReply(this.target(msg), this.ctx.serials.next(), msg.serial, result, code ?? '');
  }

  answer(msg: DecodedMessage, result: number): Buffer | null {
    return jt808GeneralResponse(this.target(msg), this.ctx.serials.next(), msg.serial, msg.messageId, result);
  }

  bind(device: DeviceRef): void {
    this.ctx.timeZoneMinutes = device.timeZone * 60;
  }

  encodeCommand(content: string) {
    if (isJt808Structured(content)) {
      // 0x8103 / 0x8104 built for the version this terminal speaks (transfer IP, configuration).
      const serial = this.ctx.serials.next();
      const built = encodeJt808Structured(content, this.ctx.terminalId ?? '0', this.ctx.version ?? '2013', serial);
      if (built) return { bytes: built.frame, key: serial };
    }
    if (!this.encoder) {
      this.encoder = new Jt808CommandEncoder(this.ctx.terminalId ?? '0', this.ctx.version ?? '2013', this.ctx.serials);
    }
    const command = this.encoder.text(content);
    return { bytes: command.frame, key: command.serial };
  }

  replyKey(reply: CommandReply): number | null {
    return reply.answeredSerial === undefined ? null : reply.answeredSerial;
  }

  jt808Link() {
    const ctx = this.ctx;
    return {
      terminalId: ctx.terminalId ?? '0',
      version: ctx.version ?? '2013',
      nextSerial: () => ctx.serials.next(),
    };
  }

  refusal(first: DecodedMessage): Buffer | null {
    if (first.messageType !== 'register' || !first.terminalId) return null;
    return this.registerReply(first, null);
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
      // Pushes come through the IoT platform's authenticated callback; the checksum policy is the TCP gateway's.
      const res = codec.decode(frame, true);
      if (res.ok) messages.push(res.message);
    }
    if (messages.length > 0) return messages;
  }
  return null;
}
