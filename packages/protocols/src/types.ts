// The protocol-agnostic shape every decoder returns. Protocol specifics live in `attributes`.

import type { AlarmName } from './alarms.ts';

/** A JSON-compatible attribute value. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

export type Attributes = Record<string, AttributeValue>;

export type ProtocolName = 'gt06' | 'jt808';

/** How the device says it obtained a fix. */
export type LocationType = 'gps' | 'beidou' | 'lbs' | 'wifi';

/** One fix reported by the device. Coordinates are WGS-84 degrees, exactly as sent. */
export interface Position {
  /** Fix time (UTC). */
  time: Date;
  lat: number;
  lon: number;
  /** Metres above sea level (0 when the protocol has none). */
  altitude: number;
  speedKmh: number;
  /** Degrees, 0 = north. */
  course: number;
  /**
   * The device's own fix flag, and false as well when the coordinates are outside ±90/±180 or the
   * fix time is not a real calendar time. Such positions are still reported; filtering belongs to ingest.
   */
  valid: boolean;
  satellites?: number;
  /** Alarm names (see alarms.ts) raised by this report. */
  alarms: AlarmName[];
  /**
   * Everything else the report carried: acc, power (V), battery (V), batteryLevel (%), mileage (m),
   * fuel (L), signal, locationType, cellTowers, wifi, tyres, ... See README.md for the list.
   */
  attributes: Attributes;
}

/** A device's answer to a command the platform sent. */
export interface CommandReply {
  /** Reply text (GT06 0x15/0x21, JT/T 808 text replies); empty for a bare JT/T 808 general response. */
  text: string;
  /** GT06: the server flag the command was sent with, so the reply can be matched. */
  serverFlag?: number;
  /** JT/T 808 0x0001: serial number of the platform message being answered. */
  answeredSerial?: number;
  /** JT/T 808 0x0001: id of the platform message being answered. */
  answeredMessageId?: number;
  /** JT/T 808 0x0001: 0 success, 1 failure, 2 message error, 3 not supported, 4 alarm acknowledged. */
  result?: number;
  /** The reply is requested data (JT/T 808 0x0104 parameters, 0x0201 position), not a result. */
  data?: boolean;
}

/**
 * A multimedia upload (JT/T 808 0x0801), reassembled from its sub-packages: type 0 image, 1 audio, 2 video;
 * format 0 JPEG, 1 TIF, 2 MP3, 3 WAV, 4 WMV; event 0 the platform's command, 1 timer, 2 robbery alarm,
 * 3 collision, 4 door open, 5 door closed, 6 speed crossing 20 km/h, 7 distance.
 */
export interface MediaUpload {
  id: number;
  type: number;
  format: number;
  event: number;
  channel: number;
  /** The file's bytes, as sent (a copy: it outlives the decoder's buffers). */
  data: Uint8Array;
}

export interface DecodedMessage {
  protocol: ProtocolName;
  /** GT06 protocol number or JT/T 808 message id. */
  messageId: number;
  /** A readable name for messageId ('login', 'location', 'heartbeat', ... or 'unknown'). */
  messageType: string;
  /** JT/T 808 only: '2011', '2013' or '2019'. */
  version?: '2011' | '2013' | '2019';
  /** GT06: IMEI from the login (15 digits); JT/T 808: the header's phone/terminal number. */
  terminalId: string | null;
  /** Frame serial number (0 when the frame has none). */
  serial: number;
  /** Whether the frame's CRC (GT06) or XOR (JT/T 808) check matched. */
  checksumOk: boolean;
  positions: Position[];
  /** All alarms of this message: those of its positions plus status alarms sent without a fix. */
  alarms: AlarmName[];
  /** Status that came without a fix (heartbeats, LBS/WiFi, info packets, ICCID, ...). */
  attributes: Attributes;
  commandReply: CommandReply | null;
  /** JT/T 808 0x0801: the uploaded file (recordings, photos). */
  media?: MediaUpload;
  /** Bytes to send back to the device (the ACK it expects), or null. */
  reply: Buffer | null;
}

export type ProtocolErrorCode =
  | 'empty' // nothing to decode
  | 'bad_frame' // framing is wrong: header, delimiter, length
  | 'bad_checksum' // only when the context asks for strict checksums
  | 'truncated' // the body ends before a field it announces
  | 'bad_value' // a field holds a value the protocol does not allow
  | 'internal'; // a decoder bug; the fuzz test requires this never to happen

export interface ProtocolError {
  code: ProtocolErrorCode;
  message: string;
}

export type DecodeResult = { ok: true; message: DecodedMessage } | { ok: false; error: ProtocolError };
