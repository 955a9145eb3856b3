// Typed calls of the factory production screens: stock, SIM cards, QC and serial results
// (/api/stock/*, /api/card/*, /api/qc/*, /api/serials/*; apps/server/src/modules/{stock,cards,qc}).
import { api } from '../../../api/client.ts';
import type { Job } from '../../agent/api.ts';

export type { Job };

export interface RefusedLine {
  line: number;
  value: string;
  reason: string;
  message: string;
}

/** Spec §8's import result counts and the refused lines (the first 100; all of them as CSV). */
export interface ImportCountsResult {
  success: number;
  failure: number;
  unqualified: number;
  noFactoryTest: number;
  notPreset: number;
  alreadyStocked: number;
  rejected: RefusedLine[];
  rejectedTotal?: number;
}

export interface Upload {
  text?: string;
  file?: { name: string; base64: string };
}

export type StockState = 'unused' | 'in' | 'out';

export interface StockItem {
  imei: string;
  model: string;
  batch: string;
  iccid: string;
  preset: boolean;
  state: StockState;
  qcPass: boolean | null;
  inAt: string | null;
  outAt: string | null;
  agentId: string | null;
  agentName: string | null;
  createdAt: string;
}

export interface PageOf<T> {
  total: number;
  list: T[];
}

export type ImportKind = 'stockImei' | 'stockDevice' | 'cards' | 'nbIds';
const JOB_BASE: Record<ImportKind, string> = {
  stockImei: '/stock',
  stockDevice: '/stock',
  cards: '/card',
  nbIds: '/idManager',
};
const jobBase = (kind: ImportKind) => JOB_BASE[kind];

export const findStock = (f: Record<string, unknown>) => api<PageOf<StockItem>>('/stock/find', f);
export const importImeis = (body: Upload & { model?: string; batch?: string }) =>
  api<Job<ImportCountsResult>>('/stock/importImei', body, { timeoutMs: 0 });
export const importStockDevices = (body: Upload & { model?: string; batch?: string; protocol?: number }) =>
  api<Job<ImportCountsResult>>('/stock/importDevice', body, { timeoutMs: 0 });
export const importCards = (body: Upload) => api<Job<ImportCountsResult>>('/card/import', body, { timeoutMs: 0 });
export const fetchImportJob = (kind: ImportKind) => (id: string) =>
  api<Job<ImportCountsResult>>(`${jobBase(kind)}/importJob?kind=${kind}&id=${encodeURIComponent(id)}`, undefined, {
    method: 'GET',
  });
/** The system setting "factory checks": whether the customer device import applies the factory's rules. */
export const fetchFactoryChecks = () => api<{ enabled: boolean }>('/stock/factoryChecks', undefined, { method: 'GET' });
export const saveFactoryChecks = (enabled: boolean) => api<{ enabled: boolean }>('/stock/factoryChecks', { enabled });
export const rejectedUrl = (kind: ImportKind, id: string) =>
  `/api${jobBase(kind)}/importRejected?kind=${kind}&id=${encodeURIComponent(id)}`;

export interface AgentOption {
  id: string;
  username: string;
  nickname: string;
}
export const stockAgents = (keyword: string) => api<AgentOption[]>('/stock/agents', { keyword });
export const stockOut = (agentId: string, text: string) => api<ImportCountsResult>('/stock/out', { agentId, text });

export type CardState = 'inactive' | 'active' | 'suspended' | 'cancelled';
export const CARD_STATES: CardState[] = ['inactive', 'active', 'suspended', 'cancelled'];

export interface CardItem {
  iccid: string;
  imsi: string;
  msisdn: string;
  operator: string;
  plan: string;
  activatedOn: string | null;
  expiresOn: string | null;
  state: CardState;
  imei: string | null;
  boundAt: string | null;
  reportedIccid: string;
}

export interface Mismatch {
  kind: 'mismatch' | 'unknownCard' | 'notReported';
  imei: string;
  cardIccid: string;
  reportedIccid: string;
  msisdn: string;
}

export const findCards = (f: Record<string, unknown>) => api<PageOf<CardItem>>('/card/find', f);
export const checkCards = (body: { imeis?: string[]; pageNum: number; pageSize: number }) =>
  api<PageOf<Mismatch> & { synced: number }>('/card/check', body);
export const clearCards = (body: { iccids: string[]; imeis: string[] }) =>
  api<{ cleared: number }>('/card/clear', body);

export type QcKind = 'v1' | 'v2' | 'gps';

export interface QcItem {
  id: string;
  kind: QcKind;
  imei: string;
  model: string;
  batch: string;
  station: string;
  firmware: string | null;
  gsm: number | null;
  satellites: number | null;
  cn0: number | null;
  ttff: number | null;
  stationPass: boolean | null;
  pass: boolean;
  failures: string[];
  testedAt: string;
}

export interface QcFilter {
  kind?: QcKind;
  imei?: string;
  batch?: string;
  from?: string;
  to?: string;
  pass?: boolean;
}

export const findQc = (url: '/qc/find' | '/serials/find', f: QcFilter & { pageNum: number; pageSize: number }) =>
  api<PageOf<QcItem> & { more: boolean }>(url, f);

/** The query string of an export of the same filter. */
export function queryOf(f: Record<string, string | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== '') q.set(k, String(v));
  return q.toString();
}

export interface UploadOutcome {
  accepted: number;
  passed: number;
  failed: number;
  results: { imei: string; pass: boolean; failures: string[] }[];
  errors: { line: number; message: string }[];
}
export const uploadV1 = (text: string, station: string) => api<UploadOutcome>('/serials/v1', { text, station });
export const uploadV2 = (body: unknown) => api<UploadOutcome>('/serials/v2', body);

export interface Criteria {
  model: string;
  minSatellites: number | null;
  minCn0: number | null;
  minGsm: number | null;
  firmware: string | null;
  updatedAt?: string;
}
export const findCriteria = () => api<Criteria[]>('/serials/config/find', {});
export const saveCriteria = (c: Criteria) => api<Criteria>('/serials/config/save', c);
export const deleteCriteria = (model: string) => api<{ deleted: number }>('/serials/config/delete', { model });

/** Reads a picked file as base64 for the upload endpoints. */
export function readFileBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
