// Ingest rules: which fixes are stored, which alarm code a device alarm gets, and the derived alarms
// (overspeed, low battery, power cut, offline). Pure functions plus one small per-device memory.
import {
  batteryFaultCodes,
  batteryPercent,
  DEFAULT_SPEED_LIMIT_KMH,
  isValidPosition,
  LOW_BATTERY_ALARM,
  newOverspeedMemory,
  OVERSPEED_ALARM,
  type OverspeedMemory,
  overspeedStep,
  POWER_CUT_ALARM,
  parseLocationType,
  protocolAlarmCode,
} from '@carhere/domain';
import type { Attributes, Position } from '@carhere/protocols';
import type { NewAlarm, StatusPatch, StoredPosition } from './types.ts';

/** Fixes older than this are device clock garbage. */
export const EARLIEST_FIX_MS = Date.UTC(2000, 0, 1);
/** Fixes further than this in the future are device clock garbage. */
export const FUTURE_TOLERANCE_MS = 24 * 3_600_000;
/** Battery level (%) at or under which a low-battery alarm is raised. */
export const LOW_BATTERY_PERCENT = 10;

// Alarm codes: the protocol alarm mapping and the derived-alarm codes live in the domain catalogue.
export { LOW_BATTERY_ALARM, OFFLINE_ALARM, OVERSPEED_ALARM, POWER_CUT_ALARM } from '@carhere/domain';

export type RejectReason = 'range' | 'time';

/** Why a decoded fix is kept out of the positions table, or null when it can be stored. */
export function rejectReason(p: Position, now: number): RejectReason | null {
  const t = p.time.getTime();
  if (!Number.isFinite(t) || t < EARLIEST_FIX_MS || t > now + FUTURE_TOLERANCE_MS) return 'time';
  if (!isValidPosition({ lat: p.lat, lon: p.lon, speed: p.speedKmh, utcTime: t })) return 'range';
  return null;
}

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function batteryLevelOf(attributes: Attributes): number | null {
  return batteryPercent(finite(attributes.batteryLevel) ?? undefined) ?? null;
}

export function toStoredPosition(p: Position): StoredPosition {
  const a = p.attributes;
  return {
    time: p.time.getTime(),
    lat: p.lat,
    lon: p.lon,
    altitude: finite(p.altitude) ?? 0,
    speed: finite(p.speedKmh) ?? 0,
    course: finite(p.course) ?? 0,
    valid: p.valid,
    satellites: finite(p.satellites) === null ? null : Math.min(32767, Math.round(p.satellites as number)),
    locationType: parseLocationType(a.locationType) ?? (p.valid ? 'gps' : null),
    acc: typeof a.acc === 'boolean' ? a.acc : null,
    mileage: finite(a.mileage),
    battery: batteryLevelOf(a),
  };
}

/** Status carried without (or beside) a fix, for device_state. Null when there is nothing to keep. */
export function statusPatchOf(attributes: Attributes): StatusPatch | null {
  let patch: StatusPatch | null = null;
  const set = <K extends keyof StatusPatch>(k: K, v: StatusPatch[K]) => {
    patch ??= {};
    patch[k] = v;
  };
  if (typeof attributes.acc === 'boolean') set('acc', attributes.acc);
  const battery = batteryLevelOf(attributes);
  if (battery !== null) set('battery', battery);
  const mileage = finite(attributes.mileage);
  if (mileage !== null) set('mileage', mileage);
  if (attributes.tyres !== undefined && attributes.tyres !== null) set('tyres', attributes.tyres);
  if (attributes.batteryPack !== undefined && attributes.batteryPack !== null)
    set('batteryPack', attributes.batteryPack);
  const power = finite(attributes.power);
  const signal = finite(attributes.signal) ?? finite(attributes.rssi);
  const extra: Record<string, unknown> = {};
  if (power !== null) extra.power = power;
  if (signal !== null) extra.signal = signal;
  if (typeof attributes.iccid === 'string') extra.iccid = attributes.iccid;
  if (Object.keys(extra).length > 0) set('attributes', extra);
  return patch;
}

/** What a device's previous reports were, for alarms raised on a change rather than on every report. */
export interface DerivedAlarmMemory {
  /** Since when the device has been over its speed limit (the domain's overspeed-event rule). */
  overspeed: OverspeedMemory;
  /** The device's speed limit, km/h (devices.speed_limit). */
  speedLimit: number;
  lowBattery: boolean;
  /** Last external power voltage, when the device reports one. */
  power: number | null;
  /** Fault bits of the last battery-pack report (0 when none). */
  batteryFaults?: number;
}

export function newDerivedAlarmMemory(speedLimit = DEFAULT_SPEED_LIMIT_KMH): DerivedAlarmMemory {
  return { overspeed: newOverspeedMemory(), speedLimit, lowBattery: false, power: null };
}

interface AlarmPlace {
  time: number;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
}

function alarmAt(type: number, name: string, source: NewAlarm['source'], at: AlarmPlace): NewAlarm {
  return { type, name, source, time: at.time, lat: at.lat, lon: at.lon, speed: at.speed, course: at.course };
}

/** Device-reported alarms of one message, placed at the message's fix (or at `fallback`). */
export function deviceAlarms(names: readonly string[], at: AlarmPlace): NewAlarm[] {
  const out: NewAlarm[] = [];
  for (const name of names) {
    const type = protocolAlarmCode(name);
    if (type === undefined || type === null) continue; // unknown, or an event that is not an alarm
    if (out.some((a) => a.type === type)) continue;
    out.push(alarmAt(type, name, 'device', at));
  }
  return out;
}

/**
 * Alarms derived from the values a report carries, raised when the value crosses its limit (not on every
 * report above it): overspeed when valid fixes have been above the device's speed limit for the domain's
 * OVERSPEED_MIN_SECONDS (once per event, the same rule as the statistics' overspeed count), battery at or under 10 %, external power
 * falling from over 5 V to under 1 V. `reported` are the device's own alarm codes of the same message,
 * which are not repeated.
 */
export function derivedAlarms(
  memory: DerivedAlarmMemory,
  fix: StoredPosition | null,
  attributes: Attributes,
  reported: readonly number[],
  at: AlarmPlace,
): NewAlarm[] {
  const out: NewAlarm[] = [];
  if (fix?.valid) {
    const established = overspeedStep(memory.overspeed, fix.time, fix.speed, memory.speedLimit);
    if (established && !reported.includes(OVERSPEED_ALARM)) {
      out.push(alarmAt(OVERSPEED_ALARM, 'overspeed', 'derived', at));
    }
  }
  const battery = fix?.battery ?? batteryLevelOf(attributes);
  if (battery !== null) {
    const low = battery <= LOW_BATTERY_PERCENT;
    if (low && !memory.lowBattery && !reported.includes(LOW_BATTERY_ALARM)) {
      out.push(alarmAt(LOW_BATTERY_ALARM, 'lowBattery', 'derived', at));
    }
    memory.lowBattery = low;
  }
  const power = finite(attributes.power);
  if (power !== null) {
    if (memory.power !== null && memory.power > 5 && power < 1 && !reported.includes(POWER_CUT_ALARM)) {
      out.push(alarmAt(POWER_CUT_ALARM, 'powerCut', 'derived', at));
    }
    memory.power = power;
  }
  // Battery-pack faults (alarms 50–80): raised when a fault bit appears, not on every report that keeps it.
  const pack = attributes.batteryPack;
  if (pack && typeof pack === 'object' && !Array.isArray(pack)) {
    const faults = finite((pack as Record<string, unknown>).faults);
    if (faults !== null) {
      const before = new Set(batteryFaultCodes(memory.batteryFaults ?? 0));
      for (const code of batteryFaultCodes(faults)) {
        if (!before.has(code) && !reported.includes(code)) out.push(alarmAt(code, 'batteryPack', 'derived', at));
      }
      memory.batteryFaults = faults;
    }
  }
  return out;
}
