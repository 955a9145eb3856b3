// Typed calls of the account screens (/api/user/*, /api/agent/export; apps/server/src/modules/user, quota).
import i18n from 'i18next';
import { ApiFailure, api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

/** One row of the account lists (spec §3). */
export interface AccountRow {
  id: string;
  /** The parent account's id ('0' at the root). */
  user_id: string;
  ancestors: string;
  username: string;
  nickname: string;
  role: number;
  telephone: string;
  email: string;
  address: string;
  mark: string;
  providerName: string;
  providerLinkman: string;
  providerTelephone: string;
  expireAt: string | null;
  createdAt: string;
  deviceNum: number;
  totalDeviceNum: number;
  saleNum: number;
  importQuota: number;
  childCount: number;
}

export interface AccountFields {
  nickname?: string;
  telephone?: string;
  email?: string;
  address?: string;
  mark?: string;
  providerName?: string;
  providerLinkman?: string;
  providerTelephone?: string;
  expireAt?: string | null;
}

export interface NewAccount extends AccountFields {
  username: string;
  password: string;
  confirmPassword: string;
  parentId: string;
  role: number;
}

export interface QuotaSummary {
  userId: string;
  unlimited: boolean;
  remaining: number;
  received: number;
  given: number;
  used: number;
}

export interface QuotaRecord {
  id: string;
  kind: 'grant' | 'give' | 'revoke' | 'reclaim' | 'import' | 'set';
  amount: number;
  balance: number;
  counterpartId: string | null;
  counterpartName: string | null;
  operatorName: string | null;
  note: string;
  createdAt: string;
}

export interface Job<R> {
  id: string;
  status: 'running' | 'done' | 'failed';
  total: number;
  processed: number;
  result: R | null;
  error: string | null;
}

export interface UserImportResult {
  success: number;
  failure: number;
  /** `password`: generated for a line without one, answered once (the first read of the finished job). */
  created: { line: number; id: string; username: string; password?: string }[];
  refused: { line: number; username: string; message: string }[];
}

export interface UserImportRow {
  username: string;
  password?: string;
  nickname?: string;
  telephone?: string;
  role?: number;
}

export const findAgents = (id: string, signal?: AbortSignal) =>
  api<AccountRow[]>('/user/findAllAgentByIdV2', { id }, { signal });
export const findChildren = (id: string, signal?: AbortSignal) =>
  api<AccountRow[]>('/user/findAllUser', { id }, { signal });
export const findSubtree = (id: string, signal?: AbortSignal) =>
  api<AccountRow[]>('/user/findAllUserV2', { id }, { signal });
export const findLike = (selectName: string, id: string, signal?: AbortSignal) =>
  api<AccountRow[]>('/user/findLike', { selectName, id }, { signal });
export const usernameExists = (username: string) =>
  api<{ exists: boolean }>('/user/findUsername', { username }).then((r) => r.exists);
export const assignableRoles = () =>
  api<{ roles: number[]; isAgent: boolean }>('/user/roles', undefined, { method: 'GET' });

export const insertUser = (account: NewAccount) => api<{ id: string }>('/user/insertUser', account);
export const updateUser = (id: string, fields: AccountFields & { lang?: string; timeZone?: string }) =>
  api<null>('/user/updateUser', { id, ...fields });
export const deleteUsers = (ids: string[]) =>
  api<{ deleted: string[]; refused: { id: string; message: string }[] }>('/user/deleteAllUser', { ids });
export const moveUser = (id: string, parentId: string) => api<null>('/user/transferAgent', { id, user_id: parentId });
export const renameUser = (id: string, username: string) => api<null>('/user/updateUserName', { id, username });
export const changeRole = (id: string, role: number) => api<null>('/user/updateRole', { id, role });
export const resetPassword = (id: string) => api<{ password: string }>('/user/resetPassword', { id });
/** Ends every session of an account (it has to log in again); answers how many were ended. */
export const clearSessions = (id: string) => api<{ sessions: number }>('/user/clear', { id });

export const quotaSummary = (id: string) => api<QuotaSummary>('/user/userRelationimportNum', { id });
export const quotaRecords = (id: string, pageNum: number, pageSize: number, signal?: AbortSignal) =>
  api<Page<QuotaRecord>>('/user/findImportNumRecord', { id, pageNum, pageSize }, { signal });
/** The administrator sets an agent's remaining imports outright. */
export const setQuota = (id: string, num: number) =>
  api<{ remaining: number }>('/user/addAgentImportNum', { id, num, set: true });
export const giveQuota = (id: string, num: number, fromId?: string) =>
  api<{ remaining: number }>('/user/addAgentImportNum', { id, num, ...(fromId ? { fromId } : {}) });

/** Starts an account import; imports have no request timeout (spec §7). */
export const importUsers = (parentId: string, rows: UserImportRow[]) =>
  api<Job<UserImportResult>>('/user/importUser', { parentId, rows }, { timeoutMs: 0 });
export const userImportJob = (id: string) =>
  api<Job<UserImportResult>>(`/user/importJob?id=${encodeURIComponent(id)}`, undefined, { method: 'GET' });

/** Downloads the .xlsx of a subtree's accounts through the session cookie. */
export async function exportAccounts(id: string, agentsOnly: boolean, fileName: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/agent/export', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', lang: i18n.language || 'cn' },
      body: JSON.stringify({ id, agentsOnly }),
    });
  } catch {
    throw new ApiFailure(i18n.t('common:error.network'), 'network');
  }
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('spreadsheet')) {
    const message = await res
      .json()
      .then((j: { meta?: { message?: string } }) => j.meta?.message)
      .catch(() => undefined);
    throw new ApiFailure(message || i18n.t('common:error.server'), 'server');
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
