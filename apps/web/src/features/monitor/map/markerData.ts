// A monitored device as a marker: WGS-84 position, heading, car icon state and label.
import { carIconState, isValidPosition } from '@carhere/domain';
import type { DeviceMarkerDatum } from '../../../map/layers/deviceMarkerLayer.ts';
import type { MonitorDevice } from '../types.ts';

/** Null for devices without a valid position (they stay in the list, not on the map). */
export function markerDatum(d: MonitorDevice, now: number): DeviceMarkerDatum | null {
  if (!isValidPosition(d.location)) return null;
  return {
    id: d.deviceId,
    lat: d.location.lat,
    lon: d.location.lon,
    course: d.course,
    state: carIconState(d, now),
    label: d.displayName,
  };
}

export function markerData(devices: Iterable<MonitorDevice>, now: number): DeviceMarkerDatum[] {
  const out: DeviceMarkerDatum[] = [];
  for (const d of devices) {
    const m = markerDatum(d, now);
    if (m) out.push(m);
  }
  return out;
}
