// The monitoring page's devices, outside React: loaded once from /api/location/findV2 and then kept current
// by live batches. Components subscribe and re-render at most once per batch; the list order (domain rules)
// is recomputed when devices come or go and otherwise at most every few seconds, so rows do not jump
// under the user's pointer on every update.
import { displayName as domainDisplayName, sortDevices } from '@carhere/domain';
import type { Location } from './api.ts';
import type { PositionMessage, StateMessage } from './live/messages.ts';
import type { LocationType, MonitorDevice } from './types.ts';

const LOCATION_TYPES = new Set<LocationType>(['gps', 'beidou', 'lbs', 'wifi']);

function time(value: string | null | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : null;
}

function locationType(value: string | null | undefined): LocationType | null {
  const v = value?.toLowerCase() as LocationType | undefined;
  return v && LOCATION_TYPES.has(v) ? v : null;
}

function searchText(d: {
  displayName: string;
  terminalID: string;
  carNumber?: string | null;
  nickname?: string | null;
}) {
  return [d.displayName, d.terminalID, d.carNumber ?? '', d.nickname ?? ''].join('\u0000').toLowerCase();
}

export function fromLocation(loc: Location): MonitorDevice {
  const utcTime = time(loc.utcTime);
  const lastSeen = time(loc.lastSeen);
  const hasPosition = loc.lat !== null && loc.lon !== null && utcTime !== null && loc.valid !== false;
  // The server's state and expiry (device activation and expiry dates): an activated device that never sent
  // a fix is offline, not 'not activated'. Only an unknown code falls back to the online flag.
  const state = loc.state === 'zx' || loc.state === 'lx' || loc.state === 'wjh' ? loc.state : loc.online ? 'zx' : 'lx';
  const expire = time(loc.expire);
  const name =
    loc.displayName ||
    domainDisplayName({ terminalID: loc.terminalID, carNumber: loc.carNumber, nickname: loc.nickname });
  return {
    deviceId: loc.deviceId,
    terminalID: loc.terminalID,
    displayName: name,
    carNumber: loc.carNumber ?? null,
    nickname: loc.nickname ?? null,
    state,
    expire,
    location: hasPosition
      ? {
          lat: loc.lat as number,
          lon: loc.lon as number,
          speed: loc.speed ?? 0,
          utcTime: utcTime as number,
          stateTime: lastSeen,
        }
      : null,
    deviceProtocol: loc.deviceProtocol,
    driverName: loc.driverName ?? '',
    driverPhone: loc.driverPhone ?? '',
    course: loc.course ?? 0,
    locationType: locationType(loc.locationType),
    acc: loc.acc,
    battery: loc.battery,
    mileage: loc.mileage,
    lastSeen,
    searchText: searchText({ ...loc, displayName: name }),
  };
}

/** A newer fix moves the device; an older or invalid one only refreshes what it says about the device. */
export function withPosition(device: MonitorDevice, msg: PositionMessage): MonitorDevice {
  const fixTime = time(msg.time);
  const seen = time(msg.receivedAt) ?? fixTime;
  const newer = fixTime !== null && (device.location === null || fixTime >= device.location.utcTime);
  const lastSeen = Math.max(device.lastSeen ?? 0, seen ?? 0) || null;
  const moved = newer && msg.valid;
  return {
    ...device,
    state: device.state === 'wjh' ? 'zx' : device.state,
    location: moved
      ? { lat: msg.lat, lon: msg.lon, speed: msg.speed, utcTime: fixTime as number, stateTime: lastSeen }
      : device.location && { ...device.location, stateTime: lastSeen },
    course: moved ? msg.course : device.course,
    locationType: newer ? (locationType(msg.locationType) ?? device.locationType) : device.locationType,
    acc: newer && msg.acc !== null ? msg.acc : device.acc,
    battery: newer && msg.battery !== null ? msg.battery : device.battery,
    lastSeen,
  };
}

export function withState(device: MonitorDevice, msg: StateMessage): MonitorDevice {
  const lastSeen = time(msg.lastSeen) ?? device.lastSeen;
  return {
    ...device,
    state: msg.online ? 'zx' : 'lx',
    lastSeen,
    location: device.location && { ...device.location, stateTime: lastSeen },
  };
}

export interface BatchResult {
  /** Devices whose position, state or look may have changed. */
  changed: MonitorDevice[];
}

/** How long the list keeps its order while only positions change (ms). */
export const ORDER_REFRESH_MS = 5_000;

export class DeviceStore {
  private readonly devices = new Map<string, MonitorDevice>();
  private order: string[] = [];
  private orderedAt = Number.NEGATIVE_INFINITY;
  private orderDirty = true;
  private readonly listeners = new Set<() => void>();
  private version = 0;

  load(locations: readonly Location[]): void {
    this.devices.clear();
    for (const loc of locations) this.devices.set(loc.deviceId, fromLocation(loc));
    this.orderDirty = true;
    this.emit();
  }

  /** Applies one coalesced live batch; unknown devices (not in this user's list) are ignored. */
  apply(positions: readonly PositionMessage[], states: readonly StateMessage[]): BatchResult {
    const changed = new Map<string, MonitorDevice>();
    for (const msg of states) {
      const device = changed.get(msg.deviceId) ?? this.devices.get(msg.deviceId);
      if (device) changed.set(msg.deviceId, withState(device, msg));
    }
    for (const msg of positions) {
      const device = changed.get(msg.deviceId) ?? this.devices.get(msg.deviceId);
      if (device) changed.set(msg.deviceId, withPosition(device, msg));
    }
    for (const [id, device] of changed) this.devices.set(id, device);
    if (states.length > 0) this.orderDirty = true;
    if (changed.size > 0) this.emit();
    return { changed: [...changed.values()] };
  }

  get(id: string): MonitorDevice | undefined {
    return this.devices.get(id);
  }

  byTerminal(terminalID: string): MonitorDevice | undefined {
    for (const d of this.devices.values()) if (d.terminalID === terminalID) return d;
    return undefined;
  }

  get size(): number {
    return this.devices.size;
  }

  all(): IterableIterator<MonitorDevice> {
    return this.devices.values();
  }

  /** Devices in the domain's list order (re-sorted when stale), with their current data. */
  sorted(now: number): MonitorDevice[] {
    if (this.orderDirty || now - this.orderedAt >= ORDER_REFRESH_MS) {
      this.order = sortDevices([...this.devices.values()], now).map((d) => d.deviceId);
      this.orderedAt = now;
      this.orderDirty = false;
    }
    const out: MonitorDevice[] = [];
    for (const id of this.order) {
      const d = this.devices.get(id);
      if (d) out.push(d);
    }
    return out;
  }

  getVersion = (): number => this.version;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private emit(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
