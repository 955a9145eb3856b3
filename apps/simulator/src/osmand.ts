// A simulated phone speaking the OsmAnd HTTP protocol (as Traccar Client does): one POST per fix to the gateway's
// OSMAND_PORT, query form (speed in knots) or the JSON form of Traccar Client 9+ (speed in m/s).
import type { Fix } from './track.ts';

type OsmandForm = 'query' | 'json';

const KMH_PER_KNOT = 1.852;

/** The request a phone sends for one fix: a URL (query form) or a URL and a JSON body. */
function osmandRequest(
  baseUrl: string,
  id: string,
  fix: Fix,
  form: OsmandForm,
): { url: string; init: { method: 'POST'; headers?: Record<string, string>; body?: string } } {
  if (form === 'json') {
    const body = {
      device_id: id,
      location: {
        timestamp: new Date(fix.time).toISOString(),
        coords: {
          latitude: fix.lat,
          longitude: fix.lon,
          accuracy: 5,
          speed: Math.round((fix.speed / 3.6) * 100) / 100,
          heading: fix.course,
          altitude: fix.altitude,
        },
        is_moving: fix.speed > 0,
        odometer: fix.mileage,
        battery: { level: fix.battery / 100, is_charging: false },
      },
    };
    return {
      url: baseUrl,
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    };
  }
  const q = new URLSearchParams({
    id,
    lat: fix.lat.toFixed(6),
    lon: fix.lon.toFixed(6),
    timestamp: String(Math.floor(fix.time / 1000)),
    speed: (fix.speed / KMH_PER_KNOT).toFixed(2),
    bearing: fix.course.toFixed(1),
    altitude: fix.altitude.toFixed(1),
    accuracy: '5',
    batt: String(fix.battery),
  });
  return { url: `${baseUrl}/?${q}`, init: { method: 'POST' } };
}

/** Sends one fix; answers the HTTP status (200 stored, 404 unknown device, 400 unreadable). */
export async function sendOsmandFix(
  baseUrl: string,
  id: string,
  fix: Fix,
  form: OsmandForm = 'query',
): Promise<number> {
  const { url, init } = osmandRequest(baseUrl, id, fix, form);
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res.status;
}
