// The device list's tabs (all, online, offline, inactive, expired, with counts) and the search box (name,
// IMEI or plate), over the domain's tab rules.
import { countTabs, filterByTab } from '@carhere/domain';
import type { MonitorDevice } from '../types.ts';

export const LIST_TABS = ['all', 'online', 'offline', 'unactivated', 'expired'] as const;
export type ListTab = (typeof LIST_TABS)[number];

export type ListCounts = Record<ListTab, number>;

export function listCounts(devices: readonly MonitorDevice[], now: number): ListCounts {
  const c = countTabs(devices, now);
  return { all: c.all, online: c.online, offline: c.offline, unactivated: c.unactivated, expired: c.expired };
}

/** Devices of a tab whose name, IMEI or plate contains the query (case-insensitive), order kept. */
export function filterDevices(
  devices: readonly MonitorDevice[],
  tab: ListTab,
  query: string,
  now: number,
): MonitorDevice[] {
  const q = query.trim().toLowerCase();
  const inTab = filterByTab(devices, tab, now);
  return q ? inTab.filter((d) => d.searchText.includes(q)) : inTab;
}
