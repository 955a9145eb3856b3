// What sessions and push callbacks hand to ingest, after decoding and filtering.
import type { DeviceRef } from '../directory.ts';

/** A fix accepted for storage (range and time already checked). Times are epoch milliseconds. */
export interface StoredPosition {
  time: number;
  lat: number;
  lon: number;
  altitude: number;
  speed: number;
  course: number;
  valid: boolean;
  satellites: number | null;
  locationType: string | null;
  acc: boolean | null;
  mileage: number | null;
  /** Battery level in %, for the live event and device state (not a positions column). */
  battery: number | null;
}

export interface NewAlarm {
  type: number;
  name: string;
  source: 'device' | 'derived';
  time: number;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
}

/** Everything one device message produced that must be durable before the device gets its ACK. */
export interface IngestRecord {
  device: DeviceRef;
  positions: StoredPosition[];
  alarms: NewAlarm[];
  /** Status without a fix (tyres, battery pack, power, …) for device_state, applied after commit. */
  status: StatusPatch | null;
  receivedAt: number;
  /** Called once: without an error after the commit, with one if the record could not be stored. */
  done: ((err?: Error) => void) | null;
}

/** Latest-known values for device_state; undefined = not reported in this message. */
export interface StatusPatch {
  acc?: boolean;
  battery?: number;
  mileage?: number;
  tyres?: unknown;
  batteryPack?: unknown;
  attributes?: Record<string, unknown>;
}
