// A device on the monitoring page: the domain's list entry (state, expiry, last position) plus what the
// popup shows. Positions are WGS-84; times are epoch milliseconds.
import type { DeviceListEntry, DevicePosition } from '@carhere/domain';

export type LocationType = 'gps' | 'beidou' | 'lbs' | 'wifi';

export interface MonitorDevice extends DeviceListEntry {
  readonly deviceId: string;
  readonly terminalID: string;
  readonly displayName: string;
  /** 'zx' online, 'lx' offline, 'wjh' not activated */
  readonly state: string;
  readonly expire: number | null;
  readonly location: DevicePosition | null;
  readonly deviceProtocol: number;
  readonly course: number;
  readonly locationType: LocationType | null;
  readonly acc: boolean | null;
  readonly battery: number | null;
  readonly mileage: number | null;
  readonly lastSeen: number | null;
  /** Lower-case name, IMEI and plate joined, for the search box. */
  readonly searchText: string;
  /** The current driver ('' when none) and the driver's phone. */
  readonly driverName?: string;
  readonly driverPhone?: string;
}
