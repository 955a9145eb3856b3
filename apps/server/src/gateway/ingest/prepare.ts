// From a decoded message to what ingest stores: the fixes that may be stored, the device's own and the
// derived alarms, and the status for device_state. Shared by TCP sessions and push callbacks.
import { OVERSPEED_ALARM, overspeedStep } from '@carhere/domain';
import type { DecodedMessage } from '@carhere/protocols';
import {
  type DerivedAlarmMemory,
  derivedAlarms,
  deviceAlarms,
  rejectReason,
  statusPatchOf,
  toStoredPosition,
} from './rules.ts';
import type { NewAlarm, StatusPatch, StoredPosition } from './types.ts';

export interface PreparedMessage {
  positions: StoredPosition[];
  /** Fixes kept out (out of range, impossible time). */
  rejected: number;
  alarms: NewAlarm[];
  status: StatusPatch | null;
}

const NONE: StoredPosition[] = [];

export function prepareMessage(
  msg: Pick<DecodedMessage, 'positions' | 'alarms' | 'attributes'>,
  memory: DerivedAlarmMemory,
  now: number,
): PreparedMessage {
  let positions = NONE;
  let rejected = 0;
  for (const p of msg.positions) {
    if (rejectReason(p, now)) {
      rejected++;
      continue;
    }
    if (positions === NONE) positions = [];
    positions.push(toStoredPosition(p));
  }
  const latest = positions.length > 0 ? positions[positions.length - 1] : null;
  const place = latest
    ? { time: latest.time, lat: latest.lat, lon: latest.lon, speed: latest.speed, course: latest.course }
    : { time: now, lat: null, lon: null, speed: null, course: null };
  const fromDevice = msg.alarms.length > 0 ? deviceAlarms(msg.alarms, place) : [];
  // Earlier fixes of a batch upload feed the overspeed rule too (the latest goes through derivedAlarms).
  const earlier: NewAlarm[] = [];
  for (let i = 0; i < positions.length - 1; i++) {
    const p = positions[i];
    if (!p.valid || !overspeedStep(memory.overspeed, p.time, p.speed, memory.speedLimit)) continue;
    if (fromDevice.some((a) => a.type === OVERSPEED_ALARM)) continue;
    earlier.push({
      type: OVERSPEED_ALARM,
      name: 'overspeed',
      source: 'derived',
      time: p.time,
      lat: p.lat,
      lon: p.lon,
      speed: p.speed,
      course: p.course,
    });
  }
  const lastFix = msg.positions.length > 0 ? msg.positions[msg.positions.length - 1] : null;
  const attributes = lastFix ? lastFix.attributes : msg.attributes;
  const derived = derivedAlarms(
    memory,
    latest,
    attributes,
    fromDevice.map((a) => a.type),
    place,
  );
  const alarms = derived.length > 0 || earlier.length > 0 ? [...fromDevice, ...earlier, ...derived] : fromDevice;
  let status = statusPatchOf(msg.attributes);
  // A battery pack sent inside a location report (JT/T 808 item 0xEF) is status too: the pack detail shows it.
  const pack = lastFix?.attributes.batteryPack;
  if (pack !== undefined && pack !== null && status?.batteryPack === undefined) {
    status = { ...(status ?? {}), batteryPack: pack };
  }
  return { positions, rejected, alarms, status };
}
