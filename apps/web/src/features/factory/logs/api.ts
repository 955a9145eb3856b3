// The factory's log and tool APIs (apps/server/src/modules/logs, modules/factory).

import { api } from '../../../api/client.ts';
import type { Page } from '../../../api/types.ts';
import type { ImportCountsResult, Job, Upload } from '../production/api.ts';

export interface DeviceLogRow {
  id: string;
  time: string;
  terminalID: string;
  protocol: string;
  event: string;
  remote: string;
  detail: string;
}
export interface FrameRow {
  id: string;
  time: string;
  direction: 'in' | 'out';
  hex: string;
  decoded: unknown;
  protocol: string;
}
export interface SystemLogRow {
  id: string;
  time: string;
  level: string;
  message: string;
  detail: string;
}
export interface AuditRow {
  id: string;
  time: string;
  username: string;
  ip: string;
  operation: string;
  status: number;
}
export interface Interval {
  start: string;
  end: string | null;
  remote: string;
  endedBy: string | null;
}

export const findDeviceLog = (body: {
  terminalID?: string;
  from?: string;
  to?: string;
  pageNum: number;
  pageSize: number;
}) => api<Page<DeviceLogRow>>('/log/device/find', body);
export const startCapture = (terminalID: string, minutes: number) =>
  api<{ until: string | null }>('/log/capture/start', { terminalID, minutes });
export const stopCapture = (terminalID: string) => api<{ until: string | null }>('/log/capture/stop', { terminalID });
export const frames = (terminalID: string) =>
  api<{ capture: { until: string | null }; list: FrameRow[] }>('/log/frames', { terminalID, pageSize: 200 });
export const findSystemLog = (body: {
  keyword?: string;
  level?: string;
  afterId?: string;
  pageNum: number;
  pageSize: number;
}) => api<Page<SystemLogRow>>('/log/system/find', body);
export const findAudit = (body: { keyword?: string; pageNum: number; pageSize: number }) =>
  api<Page<AuditRow>>('/log/audit/find', body);
export const deviceState = (terminalID: string) =>
  api<{ registered: boolean; online: boolean; lastSeen: string | null; intervals: Interval[]; events: DeviceLogRow[] }>(
    '/log/deviceState',
    { terminalID },
  );
export interface Gw005 {
  terminalID: string;
  registered: boolean;
  deviceType: number | null;
  online: boolean;
  lastSeen: string | null;
  lastLogin: { time: string; remote: string; protocol: string } | null;
  firmware: string | null;
  position: { time: string | null; lat: number; lon: number; valid: boolean | null; satellites: number | null } | null;
  signal: number | null;
  battery: number | null;
  iccid: string | null;
  qc: {
    pass: boolean;
    testedAt: string;
    model: string;
    firmware: string | null;
    station: string;
    failures: string[];
  } | null;
  card: { iccid: string; msisdn: string; operator: string; state: string; expiresOn: string | null } | null;
}
export const gw005 = (terminalID: string) => api<Gw005>('/factory/search', { terminalID });
export interface IdRow {
  terminalID: string;
  nbDeviceId: string | null;
  deviceType: number;
}
export const findIds = (body: { keyword?: string; pageNum: number; pageSize: number }) =>
  api<Page<IdRow>>('/idManager/find', body);
export const setId = (terminalID: string, nbDeviceId: string | null) =>
  api<IdRow>('/idManager/set', { terminalID, nbDeviceId });
export const importIds = (body: Upload) => api<Job<ImportCountsResult>>('/idManager/import', body, { timeoutMs: 0 });

export const when = (v: string | null | undefined) => (v ? new Date(v).toLocaleString() : '');

/** Log kinds with a retention (server modules/logs/cleanup.ts LOG_KINDS). */
export const LOG_KINDS = ['deviceLog', 'frameLog', 'systemLog', 'commandLog', 'task', 'recording'] as const;
export type LogKind = (typeof LOG_KINDS)[number];
export const fetchRetention = () => api<Record<LogKind, number>>('/log/retention', undefined, { method: 'GET' });
export const saveRetention = (kind: LogKind, days: number) =>
  api<Record<LogKind, number>>('/log/retention', { kind, days });
