// Typed calls of the monitoring page (gateway issue's location API, see apps/server/src/gateway/README.md).
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

/** /api/location/* Location: a device with its last state. Times are ISO-8601 UTC. */
export interface Location {
  deviceId: string;
  terminalID: string;
  displayName: string;
  /** Device model code. */
  deviceProtocol: number;
  protocolType?: number;
  online: boolean;
  /** WGS-84 */
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  valid: boolean | null;
  locationType: string | null;
  acc: boolean | null;
  battery: number | null;
  mileage: number | null;
  stateTime: string | null;
  utcTime: string | null;
  lastSeen: string | null;
  /** 0 unknown, 1 moving, 2 fast, 3 overspeed, 4 stop, 5 offline, 6 expired */
  mapState: number;
  runState: number;
  // The device list item's fields (spec §3), sent by findV2 and find.
  /** 'zx' online, 'lx' offline, 'wjh' not activated: from the device's activation, not from its last fix. */
  state: 'zx' | 'lx' | 'wjh';
  /** Effective expiry (the earlier of platform and user expiry), ISO-8601; null: never expires. */
  expire: string | null;
  activatedAt: string | null;
  carNumber: string;
  nickname: string;
  /** SIM number. */
  telephone: string;
  iconType: number;
  userId: string | null;
  username: string | null;
  carIconState: 'expired' | 'offline' | 'unknown' | 'stop' | 'moving' | 'fast' | 'overspeed';
  /** The current driver ('' when none). */
  driverName?: string;
  driverPhone?: string;
}

/** Every device below the caller (admin: all), in pages of up to 100,000. */
export const LOCATION_PAGE_SIZE = 20_000;

export async function findAllLocations(
  signal?: AbortSignal,
  scope: { userId?: string | null; noProcess?: string[] } = {},
): Promise<Location[]> {
  const all: Location[] = [];
  // The account picker's account (its subtree) and the no-process set of special-brand agents (spec §6, §9).
  const extra = {
    ...(scope.userId ? { userId: scope.userId } : {}),
    ...(scope.noProcess && scope.noProcess.length > 0 ? { noProcess: scope.noProcess } : {}),
  };
  for (let pageNum = 1; ; pageNum++) {
    const page = await api<Page<Location>>(
      '/location/findV2',
      { children: true, pageNum, pageSize: LOCATION_PAGE_SIZE, ...extra },
      { signal },
    );
    all.push(...page.list);
    if (page.list.length < LOCATION_PAGE_SIZE || all.length >= page.total) return all;
  }
}
