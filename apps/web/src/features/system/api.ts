// Typed calls of the System screens: map keys and the address service (/api/map/*), the demo account and
// API keys (/api/system/*), and the maintenance notice (/api/notice/*).
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

export const MAP_VENDORS = ['baidu', 'amap', 'google', 'yandex', 'bing'] as const;
export type MapVendor = (typeof MAP_VENDORS)[number];

export interface MapKeyEntry {
  projectName: string;
  devicePlatform: number;
  mapType: MapVendor;
  key: string;
  updatedAt: string;
}

export const GEOCODER_KINDS = ['none', 'nominatim', 'baidu', 'amap'] as const;
export type GeocoderKind = (typeof GEOCODER_KINDS)[number];

export interface GeocoderSettings {
  provider: GeocoderKind;
  key: string;
  reverseUrl: string;
  suggestUrl: string;
  hongKongUserIds: string[];
}

export interface DemoAccount {
  username: string;
  enabled: boolean;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  userId: string;
  username: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface StoredNotice {
  title: string;
  content: string;
  startsAt: string | null;
  endsAt: string;
  /** spec §1 "on start": also shown on the login page */
  showOnStart: boolean;
  version: string;
  active: boolean;
}

export interface AccountRow {
  id: string;
  username: string;
  nickname: string;
  role: number;
}

export const findKeys = () => api<MapKeyEntry[]>('/map/findKeys');
export const saveKey = (entry: Omit<MapKeyEntry, 'updatedAt'>) => api<MapKeyEntry[]>('/map/saveKey', entry);
export const deleteKey = (slot: Omit<MapKeyEntry, 'updatedAt' | 'key'>) =>
  api<{ deleted: number }>('/map/deleteKey', slot);
export const findGeocoder = () => api<GeocoderSettings>('/map/findGeocoder');
export const saveGeocoder = (s: GeocoderSettings) => api<GeocoderSettings>('/map/saveGeocoder', s);
export const testAddress = (lat: number, lon: number) =>
  api<{ available: boolean; address: string | null; message: string | null }>('/map/getKeyAddress', { lat, lon });

export const findDemoAccount = () => api<DemoAccount>('/system/demoAccount/find');
export const saveDemoAccount = (d: DemoAccount) => api<DemoAccount>('/system/demoAccount/update', d);

export const findApiKeys = (pageNum: number, pageSize: number) =>
  api<Page<ApiKey>>('/system/apiKey/find', { pageNum, pageSize });
export const addApiKey = (body: { name: string; userId?: string }) =>
  api<ApiKey & { key: string }>('/system/apiKey/add', body);
export const revokeApiKey = (id: string) => api<{ revoked: number }>('/system/apiKey/delete', { id });

export const findNotice = () => api<StoredNotice | null>('/notice/find');
export const saveNotice = (n: {
  title: string;
  content: string;
  startsAt: string | null;
  endsAt: string;
  showOnStart: boolean;
}) => api<StoredNotice>('/notice/update', n);
export const deleteNotice = () => api<null>('/notice/delete');

/** Accounts of the caller's subtree (for choosing whom an API key logs in as). */
export const findAccounts = (id: string) => api<AccountRow[]>('/user/findAllUserV2', { id });

/** One write through the API, as the audit log keeps it (POST /api/audit/find). */
export interface AuditEntry {
  id: string;
  at: string;
  userId: string | null;
  username: string;
  role: number | null;
  ip: string;
  operation: string;
  status: number;
  targets: Record<string, string[]>;
  changes:
    | {
        kind: 'user' | 'device';
        id: string;
        before: Record<string, unknown> | null;
        after: Record<string, unknown> | null;
      }[]
    | null;
}

export interface AuditFilter {
  user?: string;
  operation?: string;
  target?: string;
  startTime?: string;
  endTime?: string;
}

export const findAudit = (filter: AuditFilter, pageNum: number, pageSize: number) =>
  api<Page<AuditEntry>>('/audit/find', { ...filter, pageNum, pageSize });
