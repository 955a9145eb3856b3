import { buildGt06Frame } from './frame.ts';
import { Gt06Type } from './protocol-numbers.ts';

export interface Gt06CommandOptions {
  /** Append the 2-byte language field some firmwares expect (1 = Chinese, 2 = English). */
  language?: number;
}

/**
 * Online command (0x80): command length, server flag, command text, [language], serial, CRC.
 * The device answers with 0x15 (or 0x21 in 7979 frames) quoting the same server flag, which is how the
 * reply is matched to the command. Text is sent as UTF-8 (ASCII for the usual commands, e.g. "RELAY,1#").
 */
export function gt06EncodeCommand(
  text: string,
  serverFlag: number,
  serial: number,
  options: Gt06CommandOptions = {},
): Buffer {
  const command = Buffer.from(text, 'utf8');
  if (command.length > 251) throw new RangeError('GT06 command text longer than 251 bytes');
  const languageBytes = options.language === undefined ? 0 : 2;
  const content = Buffer.allocUnsafe(1 + 4 + command.length + languageBytes);
  content[0] = 4 + command.length;
  content.writeUInt32BE(serverFlag >>> 0, 1);
  command.copy(content, 5);
  if (options.language !== undefined) content.writeUInt16BE(options.language & 0xffff, 5 + command.length);
  const extended = content.length + 5 > 0xff;
  return buildGt06Frame(Gt06Type.command0, serial & 0xffff, content, extended);
}

/** The standard acknowledgement: same protocol number and serial, no content. */
export function gt06Ack(type: number, serial: number): Buffer {
  return buildGt06Frame(type, serial & 0xffff, null);
}
