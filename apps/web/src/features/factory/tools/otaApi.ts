// The factory's OTA, AGPS and subscription-settings APIs (apps/server/src/modules/ota, agps, subscribe).
import { api } from '../../../api/client.ts';
import type { Page } from '../../../api/types.ts';
import type { TaskItemState } from '../../tasks/api.ts';

export interface Firmware {
  id: string;
  model: number;
  version: string;
  notes: string;
  fileName: string;
  size: number;
  sha256: string;
  upgradeType: number;
  manufacturer: string;
  createdBy: string;
  createdAt: string;
  uses: number;
}
export interface OtaResult {
  taskId: string;
  terminalID: string;
  firmwareId: string;
  model: number;
  version: string;
  method: 'jt808' | 'http';
  status: TaskItemState;
  reply: string | null;
  detail: string;
  packetsTotal: number;
  packetsAcked: number;
  resent: number;
  bytesSent: number;
  downloads: number;
  sentTime: string | null;
  doneTime: string | null;
}
export interface ResultQuery {
  taskId?: string;
  terminalID?: string;
  status?: TaskItemState;
  pageNum: number;
  pageSize: number;
}

/** A file's bytes as base64 (the upload endpoints take JSON). */
export async function fileBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export const findFirmware = (body: { model?: number; pageNum: number; pageSize: number }) =>
  api<Page<Firmware>>('/ota/firmware/find', body);
export const uploadFirmware = (body: {
  model: number;
  version: string;
  notes: string;
  fileName: string;
  data: string;
  upgradeType: number;
  manufacturer: string;
}) => api<Firmware>('/ota/firmware/upload', body);
export const deleteFirmware = (id: string) => api<{ deleted: boolean }>('/ota/firmware/delete', { id });
export const pushOta = (body: { firmwareId: string; text: string }) =>
  api<{ taskId: string; total: number }>('/ota/push', body);
export const otaResults = (body: ResultQuery) => api<Page<OtaResult>>('/ota/results', body);
export const userOtaResults = (body: ResultQuery) => api<Page<OtaResult>>('/user_ota', body);

export interface AgpsFile {
  id: string;
  provider: string;
  kind: string;
  fileName: string;
  size: number;
  sha256: string;
  modifiedAt: string | null;
  ageSeconds: number | null;
  upstreamUrl: string | null;
  refreshMinutes: number | null;
  nextRefreshAt: string | null;
  lastFetchAt: string | null;
  lastError: string;
  downloads: number;
  path: string;
}
export const findAgps = () => api<{ total: number; list: AgpsFile[] }>('/agps/find', {});
export const uploadAgps = (body: { provider: string; kind: string; fileName: string; data: string }) =>
  api<AgpsFile>('/agps/upload', body);
export const sourceAgps = (body: {
  provider: string;
  kind: string;
  upstreamUrl: string | null;
  refreshMinutes: number;
}) => api<AgpsFile>('/agps/source', body);
export const refreshAgps = (id: string) => api<AgpsFile>('/agps/refresh', { id });
export const deleteAgps = (id: string) => api<{ deleted: boolean }>('/agps/delete', { id });

export interface SubscribeView {
  values: Record<string, string>;
  secrets: Record<string, boolean>;
  fromEnv: string[];
  notifyTypes: string[];
  defaultNotifyTypes: string[];
  callbacks: string[];
}
export const findSubscribe = () => api<SubscribeView>('/setting/subscribe/find', {});
export const saveSubscribe = (body: Record<string, unknown>) => api<SubscribeView>('/setting/subscribe/save', body);
export const testSubscribe = () =>
  api<{ ok: boolean; status: number | null; detail: string }>('/setting/subscribe/test', {});

export interface ConfigParams {
  server?: string;
  heartbeat?: number;
  interval?: number;
  apn?: string;
  timezone?: number;
}
export interface ConfigProfile {
  id: string;
  model: number;
  name: string;
  params: ConfigParams;
  updatedBy: string;
  updatedAt: string;
}
export interface ConfigResult {
  taskId: string;
  terminalID: string;
  model: number | null;
  content: string;
  status: TaskItemState;
  reply: string | null;
  detail: string;
  sentTime: string | null;
  replyTime: string | null;
  params: ConfigParams | null;
  differences: { key: string; expected: string; actual: string | null }[] | null;
}
export const findConfigs = () => api<ConfigProfile[]>('/config/findAll', {});
export const addConfig = (body: { model: number; name: string; params: ConfigParams }) =>
  api<ConfigProfile>('/config/add', body);
export const updateConfig = (body: { id: string; name: string; params: ConfigParams }) =>
  api<ConfigProfile>('/config/update', body);
export const pushConfig = (body: { id: string; text: string }) =>
  api<{ taskId: string; total: number }>('/config/push', body);
export const readConfig = (body: { text: string }) => api<{ taskId: string; total: number }>('/config/read', body);
export const configResults = (body: { taskId: string; pageNum: number; pageSize: number }) =>
  api<Page<ConfigResult>>('/config/results', body);
