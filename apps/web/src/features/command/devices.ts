// The devices a user may pick on the command, fence, tyre and alarm screens: every device below the caller
// (/api/location/findV2 with children), with the fields those screens need.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

export interface DeviceOption {
  deviceId: string;
  terminalID: string;
  displayName: string;
  /** device model code (location.deviceProtocol) */
  deviceProtocol: number;
  /** protocol type when the server sends it (0 other, 1 808, 2 GT06, 3 808 long standby, 4 BSJ) */
  protocolType?: number;
  online: boolean;
  /** 'zx' online, 'lx' offline, 'wjh' not activated (spec §4) */
  state: 'zx' | 'lx' | 'wjh';
  /** Effective expiry, ISO-8601; null: never expires. */
  expire: string | null;
  lat: number | null;
  lon: number | null;
}

const PAGE_SIZE = 20_000;

export async function findDeviceOptions(signal?: AbortSignal): Promise<DeviceOption[]> {
  const all: DeviceOption[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const page = await api<Page<DeviceOption>>(
      '/location/findV2',
      { children: true, pageNum, pageSize: PAGE_SIZE },
      { signal },
    );
    all.push(...page.list);
    if (page.list.length < PAGE_SIZE || all.length >= page.total) return all;
  }
}

export const DEVICE_OPTIONS_KEY = ['deviceOptions'] as const;

/** Cached for a minute; online flags are refreshed by the pages that need them live. */
export function useDeviceOptions() {
  return useQuery({
    queryKey: DEVICE_OPTIONS_KEY,
    queryFn: ({ signal }) => findDeviceOptions(signal),
    staleTime: 60_000,
  });
}

/** Case-insensitive match on name or IMEI, for the device pickers. */
export function matchesDevice(device: Pick<DeviceOption, 'displayName' | 'terminalID'>, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return device.displayName.toLowerCase().includes(q) || device.terminalID.toLowerCase().includes(q);
}
