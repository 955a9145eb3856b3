// The two device protocols behind one small per-connection interface over @carhere/protocols.
import type { CommandReply, DecodedMessage, DecodeResult, Jt808Version, ProtocolName } from '@carhere/protocols';
import type { DeviceRef } from './directory.ts';

/** One connection's codec state: splitter buffer, protocol context, command serials. */
export interface ConnectionCodec {
  readonly protocol: ProtocolName;
  /** Feeds received bytes; returns the complete frames found. */
  split(chunk: Buffer): Uint8Array[];
  /** Bytes skipped as not belonging to any frame since the last call (garbage), then resets. */
  takeDiscarded(): number;
  /**
   * Decodes a frame. Checksums are verified unless `acceptBadChecksum` (models known to send bad ones): a
   * mismatch is `{ ok: false, error: { code: 'bad_checksum' } }`, returned before the codec's state changes.
   */
  decode(frame: Uint8Array, acceptBadChecksum?: boolean): DecodeResult;
  /**
   * JT/T 808: a terminal must authenticate (0x0102 with the code of its 0x8100) before anything it sends is
   * stored. GT06: false (the login packet is the whole handshake).
   */
  readonly needsAuth: boolean;
  /** JT/T 808 0x8100 answering a registration: result 0 with the code, or 4 "no such terminal" when code is null. */
  registerReply(msg: DecodedMessage, code: string | null): Buffer | null;
  /** JT/T 808 0x8001 answering a message: 0 success, 1 failure. */
  answer(msg: DecodedMessage, result: number): Buffer | null;
  /** The connection now belongs to this device (GT06: its configured time zone). */
  bind(device: DeviceRef): void;
  /** Encodes a text command; `key` is what the device's reply will carry (server flag or serial). */
  encodeCommand(content: string, commandId: string): { bytes: Buffer; key: number };
  /** The key of the command a reply answers, or null when the reply carries none. */
  replyKey(reply: CommandReply): number | null;
  /**
   * JT/T 808 only: the terminal's id and edition and the connection's serial counter, for messages built outside
   * the text command path (remote upgrade sub-packages).
   */
  jt808Link?(): { terminalId: string; version: Jt808Version; nextSerial(): number };
  /** What to send an unknown device before closing (JT/T 808 0x8100 "not in database"), or null. */
  refusal(first: DecodedMessage): Buffer | null;
}
