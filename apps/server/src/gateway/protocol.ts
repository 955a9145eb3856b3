// The two device protocols behind one small per-connection interface over @carhere/protocols.
import type { CommandReply, DecodedMessage, DecodeResult, ProtocolName } from '@carhere/protocols';
import type { DeviceRef } from './directory.ts';

/** One connection's codec state: splitter buffer, protocol context, command serials. */
export interface ConnectionCodec {
  readonly protocol: ProtocolName;
  /** Feeds received bytes; returns the complete frames found. */
  split(chunk: Buffer): Uint8Array[];
  /** Bytes skipped as not belonging to any frame since the last call (garbage), then resets. */
  takeDiscarded(): number;
  decode(frame: Uint8Array): DecodeResult;
  /** The connection now belongs to this device (GT06: its configured time zone). */
  bind(device: DeviceRef): void;
  /** Encodes a text command; `key` is what the device's reply will carry (server flag or serial). */
  encodeCommand(content: string, commandId: string): { bytes: Buffer; key: number };
  /** The key of the command a reply answers, or null when the reply carries none. */
  replyKey(reply: CommandReply): number | null;
  /** What to send an unknown device before closing (JT/T 808 0x8100 "not in database"), or null. */
  refusal(first: DecodedMessage): Buffer | null;
}
