// Typed calls of the alarm screens (/api/deviceAlarms/*, gateway README) and the fence names of fence alarms.
import i18n from 'i18next';
import { ApiFailure, api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

export interface Alarm {
  id: string;
  deviceId: string;
  terminalID: string;
  displayName: string;
  alarmType: number;
  /** the alarm type's name in the caller's language (server side) */
  alarmName: string;
  name: string;
  source: string;
  time: string;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  read: boolean;
  readAt: string | null;
  address: string | null;
}

export type ReadFilter = 'all' | 'unread' | 'read';

export interface AlarmFilter {
  terminalID?: string;
  type?: number;
  read: ReadFilter;
  /** epoch ms */
  startTime?: number;
  endTime?: number;
  /** An account of the caller's tree: its devices' alarms (/deviceAlarms/findAllById). */
  userId?: string;
  /** With the account's whole subtree. */
  children?: boolean;
}

/** The request body of findAll / export for a filter (read: 'all' sends no read flag). */
export function filterBody(filter: AlarmFilter): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (filter.terminalID) body.terminalID = filter.terminalID;
  if (filter.type !== undefined) body.type = filter.type;
  if (filter.read !== 'all') body.read = filter.read === 'read';
  if (filter.startTime !== undefined) body.startTime = filter.startTime;
  if (filter.endTime !== undefined) body.endTime = filter.endTime;
  return body;
}

export function findAlarms(filter: AlarmFilter, pageNum: number, pageSize: number, signal?: AbortSignal) {
  if (filter.userId) {
    const body = { ...filterBody(filter), id: filter.userId, children: filter.children ?? false, pageNum, pageSize };
    return api<Page<Alarm>>('/deviceAlarms/findAllById', body, { signal });
  }
  return api<Page<Alarm>>('/deviceAlarms/findAll', { ...filterBody(filter), pageNum, pageSize }, { signal });
}

export interface AccountFamily {
  user: { id: string; username: string; nickname?: string | null };
  ancestors: { id: string; username: string; nickname?: string | null }[];
  children: { id: string; username: string }[];
}

/** An account with its superiors (as far up as the caller reaches) and its sub-accounts (/user/getFamily). */
export function findFamily(id: string, signal?: AbortSignal) {
  return api<AccountFamily>('/user/getFamily', { id }, { signal });
}

/** Marks alarms read (the vendor API's /deviceAlarms/save). */
export function markRead(ids: string[]) {
  return api<{ updated: number }>('/deviceAlarms/save', { ids });
}

/** Marks one alarm unread again (/deviceAlarms/update). */
export function markUnread(id: string) {
  return api<{ updated: number }>('/deviceAlarms/update', { id, read: false });
}

export function deleteAlarms(ids: string[]) {
  return api<{ deleted: number }>('/deviceAlarms/delete', { ids });
}

/** Fence names of fence alarms (codes 4 and 5), by alarm id. */
export function alarmFences(ids: string[]): Promise<Record<string, string[]>> {
  return ids.length === 0
    ? Promise.resolve({})
    : api<Record<string, string[]>>('/fence/findAlarmFences', { alarmIds: ids });
}

/** Export count (spec §7): how many alarms the filter would export, and the export's row limit. */
export function countAlarmExport(filter: AlarmFilter): Promise<{ total: number; max: number }> {
  return api<{ total: number; max: number }>('/deviceAlarms/exportCount', filterBody(filter));
}

/** Downloads the .xlsx export of a filter through the session cookie. */
export async function exportAlarms(filter: AlarmFilter, fileName: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/deviceAlarms/export', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', lang: i18n.language || 'cn' },
      body: JSON.stringify(filterBody(filter)),
    });
  } catch {
    throw new ApiFailure(i18n.t('common:error.network'), 'network');
  }
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('spreadsheet')) {
    const meta = await res
      .json()
      .then((j: { meta?: { message?: string } }) => j.meta?.message)
      .catch(() => undefined);
    throw new ApiFailure(meta || i18n.t('common:error.server'), 'server');
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
