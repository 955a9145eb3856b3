// The customer self-service calls (issue 16): my account, drivers, special-brand accounts, per-device bulk edit,
// batch-command results. Shapes mirror apps/server/src/modules/custself.
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

export interface Me {
  id: string;
  username: string;
  role: number;
  nickname: string;
  telephone: string;
  email: string;
  lang: string;
  mapType: string;
  alarmSound: boolean;
}
export const getMe = () => api<Me>('/user/me', undefined, { method: 'GET' });
export const updateMe = (patch: Partial<Omit<Me, 'id' | 'username' | 'role'>>) => api<Me>('/user/updateMe', patch);

export interface Driver {
  id: string;
  userId: string;
  username: string;
  name: string;
  phone: string;
  licence: string;
  icCard: string;
  vehicles: string[];
}
export const findDrivers = (body: { userId?: string; keyword?: string; pageNum: number; pageSize: number }) =>
  api<Page<Driver>>('/driver/find', body);
export const saveDriver = (body: {
  id?: string;
  userId?: string;
  name: string;
  phone?: string;
  licence?: string;
  icCard?: string;
}) => api<{ id: string }>('/driver/save', body);
export const deleteDriver = (id: string) => api<null>('/driver/delete', { id });
export const assignDriver = (terminalID: string, driverId: string | null) =>
  api<{ driverName: string }>('/driver/assign', { terminalID, driverId });

export interface SpecialAccount {
  id: string;
  username: string;
  nickname: string;
  role: number;
}
export const findSpecialBrand = () => api<SpecialAccount[]>('/system/specialBrand/find', {});
export const saveSpecialBrand = (ids: string[]) => api<SpecialAccount[]>('/system/specialBrand/save', { ids });

export const BULK_FIELDS = [
  'nickname',
  'carNumber',
  'sim',
  'iccid',
  'driverName',
  'driverPhone',
  'deviceType',
  'iconType',
] as const;
export type BulkField = (typeof BULK_FIELDS)[number];
export type BulkRow = { terminalID: string } & Partial<Record<BulkField, string>>;
export interface BulkLine {
  line: number;
  terminalID: string;
  status: 'change' | 'unchanged' | 'failed';
  message: string;
  changes: { field: BulkField; from: string; to: string }[];
}
export const previewBulk = (rows: BulkRow[]) => api<{ lines: BulkLine[] }>('/device/updateAllPreview', { rows });
export const applyBulk = (rows: BulkRow[]) =>
  api<{ success: number; failed: { terminalID: string; message: string }[]; lines: BulkLine[] }>('/device/updateAll', {
    rows,
  });

export type ImportLine = BulkLine & { move: boolean };
export const previewDataImport = (userId: string, rows: BulkRow[]) =>
  api<{ lines: ImportLine[] }>('/device/dataImportPreview', { userId, rows });
export const runDataImport = (userId: string, rows: BulkRow[]) =>
  api<{ success: number; failed: number; lines: ImportLine[] }>('/device/dataImport', { userId, rows });
