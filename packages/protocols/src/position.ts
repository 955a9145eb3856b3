import type { Attributes, DecodedMessage, Position, ProtocolName } from './types.ts';

/** A position with the fields every decoder fills; `valid` is also cleared for impossible coordinates. */
export function makePosition(
  time: number,
  lat: number,
  lon: number,
  speedKmh: number,
  course: number,
  valid: boolean,
  attributes: Attributes,
): Position {
  // Never hand out NaN (it would serialise as null): such a fix is reported as 0 and invalid.
  const finite = !Number.isNaN(time) && !Number.isNaN(lat) && !Number.isNaN(lon);
  return {
    time: new Date(finite ? time : 0),
    lat: finite ? lat : 0,
    lon: finite ? lon : 0,
    altitude: 0,
    speedKmh: Number.isNaN(speedKmh) ? 0 : speedKmh,
    course: Number.isNaN(course) ? 0 : course,
    valid: finite && valid && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180,
    satellites: undefined,
    alarms: [],
    attributes,
  };
}

export function makeMessage(
  protocol: ProtocolName,
  messageId: number,
  messageType: string,
  terminalId: string | null,
  serial: number,
  checksumOk: boolean,
): DecodedMessage {
  return {
    protocol,
    messageId,
    messageType,
    terminalId,
    serial,
    checksumOk,
    positions: [],
    alarms: [],
    attributes: {},
    commandReply: null,
    reply: null,
  };
}

/** Rounds to `digits` decimals, removing binary noise such as 4.050000000000001. */
export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
