// OsmAnd HTTP protocol (OsmAnd's live tracking, Traccar Client): one fix per HTTP request, either as query or form
// parameters (`id`, `lat`, `lon`, `timestamp`, `speed` in knots, `bearing`, `altitude`, `accuracy`, `batt` in %)
// or as the JSON body newer Traccar Clients send (`device_id`, `location.timestamp` ISO, `location.coords` with
// speed in m/s, `location.battery.level` 0..1). Pure: the caller hands over the parsed parameters or body.
import { makePosition } from '../position.ts';
import type { Attributes, Position } from '../types.ts';

export interface OsmandReport {
  /** The device identifier the phone is configured with (`id` / `deviceid` / `device_id`). */
  terminalId: string;
  /** The fix, or null when the request carried no coordinates (a status-only report). */
  position: Position | null;
  /** What came beside the fix (batteryLevel %, charging, accuracy m, motion, activity, …). */
  attributes: Attributes;
}

export type OsmandDecodeResult = { ok: true; report: OsmandReport } | { ok: false; error: string };

const KNOT_KMH = 1.852;
const MS_KMH = 3.6;

function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const t = text(value)?.toLowerCase();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  return undefined;
}

/**
 * A time as OsmAnd clients send it: unix seconds, unix milliseconds (13 digits and more), or an ISO-8601
 * date-time (`2026-11-27T04:00:00Z`; the query form's `+` may have arrived as a space). NaN when unreadable.
 */
export function osmandTime(value: unknown): number {
  const t = text(value);
  if (t === undefined) return Number.NaN;
  if (/^\d+(\.\d+)?$/.test(t)) {
    const n = Number(t);
    return n >= 1e12 ? Math.round(n) : Math.round(n * 1000);
  }
  if (!/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d/.test(t)) return Number.NaN;
  const iso = t.replace(/ (\d\d:?\d\d)$/, '+$1').replace(/^(\d{4}-\d\d-\d\d) /, '$1T');
  // A date-time without a zone is UTC (phones send UTC; the host's TZ must not matter).
  return Date.parse(/(Z|[+-]\d\d:?\d\d)$/i.test(iso) ? iso : `${iso}Z`);
}

/** The query / form parameter form (values as strings, as a URL parser hands them). */
export function decodeOsmandParams(params: Record<string, string | undefined>, now: number): OsmandDecodeResult {
  const terminalId = text(params.id) ?? text(params.deviceid);
  if (!terminalId) return { ok: false, error: 'missing id' };
  const attributes: Attributes = {};
  const batt = num(params.batt);
  if (batt !== undefined) attributes.batteryLevel = Math.round(batt);
  const charge = flag(params.charge);
  if (charge !== undefined) attributes.charging = charge;
  const accuracy = num(params.accuracy);
  if (accuracy !== undefined) attributes.accuracy = accuracy;
  const hdop = num(params.hdop);
  if (hdop !== undefined) attributes.hdop = hdop;
  const odometer = num(params.odometer);
  if (odometer !== undefined) attributes.mileage = Math.round(odometer);
  const lat = num(params.lat);
  const lon = num(params.lon);
  if (lat === undefined || lon === undefined) {
    if (params.lat !== undefined || params.lon !== undefined) return { ok: false, error: 'bad lat/lon' };
    return { ok: true, report: { terminalId, position: null, attributes } };
  }
  const time = params.timestamp === undefined ? now : osmandTime(params.timestamp);
  if (Number.isNaN(time)) return { ok: false, error: 'bad timestamp' };
  const speedKnots = num(params.speed) ?? 0;
  const position = makePosition(
    time,
    lat,
    lon,
    Math.round(speedKnots * KNOT_KMH * 100) / 100,
    num(params.bearing) ?? num(params.heading) ?? 0,
    flag(params.valid) ?? true,
    { ...attributes, locationType: 'gps' },
  );
  position.altitude = num(params.altitude) ?? 0;
  return { ok: true, report: { terminalId, position, attributes } };
}

interface JsonBody {
  device_id?: unknown;
  location?: {
    timestamp?: unknown;
    coords?: {
      latitude?: unknown;
      longitude?: unknown;
      accuracy?: unknown;
      speed?: unknown;
      heading?: unknown;
      altitude?: unknown;
    };
    is_moving?: unknown;
    odometer?: unknown;
    event?: unknown;
    battery?: { level?: unknown; is_charging?: unknown };
    activity?: { type?: unknown };
  };
}

/** The JSON body form of Traccar Client 9+ (its background-location SDK's native record). */
export function decodeOsmandJson(body: unknown, now: number): OsmandDecodeResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'not an object' };
  const b = body as JsonBody;
  const terminalId = text(b.device_id);
  if (!terminalId) return { ok: false, error: 'missing device_id' };
  const loc = typeof b.location === 'object' && b.location !== null ? b.location : {};
  const attributes: Attributes = {};
  const level = num(loc.battery?.level);
  // -1 is what the SDK reports when the level is unknown.
  if (level !== undefined && level >= 0) attributes.batteryLevel = Math.round(level * 100);
  const charging = flag(loc.battery?.is_charging);
  if (charging !== undefined) attributes.charging = charging;
  const moving = flag(loc.is_moving);
  if (moving !== undefined) attributes.motion = moving;
  const event = text(loc.event);
  if (event) attributes.event = event;
  const activity = text(loc.activity?.type);
  if (activity) attributes.activity = activity;
  const odometer = num(loc.odometer);
  if (odometer !== undefined) attributes.mileage = Math.round(odometer);
  const c = loc.coords ?? {};
  const accuracy = num(c.accuracy);
  if (accuracy !== undefined) attributes.accuracy = accuracy;
  const lat = num(c.latitude);
  const lon = num(c.longitude);
  if (lat === undefined || lon === undefined) return { ok: true, report: { terminalId, position: null, attributes } };
  const time = loc.timestamp === undefined ? now : osmandTime(loc.timestamp);
  if (Number.isNaN(time)) return { ok: false, error: 'bad timestamp' };
  // The SDK reports -1 for an unknown speed or heading.
  const speedMs = num(c.speed);
  const heading = num(c.heading);
  const position = makePosition(
    time,
    lat,
    lon,
    speedMs !== undefined && speedMs > 0 ? Math.round(speedMs * MS_KMH * 100) / 100 : 0,
    heading !== undefined && heading >= 0 ? heading : 0,
    true,
    { ...attributes, locationType: 'gps' },
  );
  position.altitude = num(c.altitude) ?? 0;
  return { ok: true, report: { terminalId, position, attributes } };
}
