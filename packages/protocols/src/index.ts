// @carhere/protocols: GT06 (Concox) and JT/T 808 codecs as pure functions over bytes.
// See README.md for how a gateway session uses them.

export { Alarm, type AlarmName } from './alarms.ts';
export { crcX25, xorChecksum } from './checksum.ts';
export { createGt06Context, type Gt06Context, type Gt06ContextOptions, gt06TimeZone } from './gt06/context.ts';
export { decodeGt06 } from './gt06/decoder.ts';
export { type Gt06CommandOptions, gt06Ack, gt06EncodeCommand } from './gt06/encoder.ts';
export { buildGt06Frame } from './gt06/frame.ts';
export { Gt06Type, gt06MessageType } from './gt06/protocol-numbers.ts';
export { Gt06Splitter } from './gt06/splitter.ts';
export { createJt808Context, type Jt808Context, type Jt808ContextOptions, type Jt808Version } from './jt808/context.ts';
export { decodeJt808 } from './jt808/decoder.ts';
export {
  type Jt808Command,
  Jt808CommandEncoder,
  type Jt808Parameter,
  jt808GeneralResponse,
  jt808LocationQuery,
  jt808MultimediaReply,
  jt808QueryParameters,
  jt808RegisterReply,
  jt808SetParameters,
  jt808Target,
  jt808TerminalControl,
  jt808TextMessage,
  jt808TimeReply,
  jt808Transparent,
} from './jt808/encoder.ts';
export { escapeJt808Frame, unescapeJt808 } from './jt808/escape.ts';
export { buildJt808Frame, type Jt808FrameTarget, type Jt808Header, unpackJt808 } from './jt808/frame.ts';
export { encodeGbk } from './jt808/gbk.ts';
export { Jt808Id, jt808MessageType } from './jt808/message-ids.ts';
export { Jt808SerialCounter } from './jt808/serial-counter.ts';
export { Jt808Splitter } from './jt808/splitter.ts';
export {
  encodeJt808Structured,
  isJt808Structured,
  JT808_QUERY_CONTENT,
  jt808ParamsContent,
  jt808ServerContent,
} from './jt808/structured.ts';
export { decodeTerminalId, encodeTerminalId } from './jt808/terminal-id.ts';
export {
  jt808PartCount,
  jt808SubPackage,
  jt808UpgradeBody,
  readJt808UpgradeBody,
} from './jt808/upgrade.ts';
export { decodeOsmandJson, decodeOsmandParams, type OsmandDecodeResult } from './osmand/decoder.ts';
export { fromHex, toHex } from './reader.ts';
export type { FrameSplitter, SplitterOptions } from './splitter.ts';
export type {
  Attributes,
  AttributeValue,
  CommandReply,
  DecodedMessage,
  DecodeResult,
  LocationType,
  MediaUpload,
  Position,
  ProtocolError,
  ProtocolErrorCode,
  ProtocolName,
} from './types.ts';
