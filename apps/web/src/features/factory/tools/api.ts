// The factory's transfer-IP, batch-command and console APIs (apps/server/src/modules/transferIp, mutiCmd).
import i18n from 'i18next';
import { ApiFailure, api } from '../../../api/client.ts';
import type { Page } from '../../../api/types.ts';
import type { TaskItemState } from '../../tasks/api.ts';

export interface TransferResult {
  taskId: string;
  terminalID: string;
  host: string;
  port: number;
  status: TaskItemState;
  reply: string | null;
  detail: string;
  sentTime: string | null;
  replyTime: string | null;
  createdAt: string;
}
export interface CmdResult {
  taskId: string;
  terminalID: string;
  content: string;
  status: TaskItemState;
  reply: string | null;
  detail: string;
  sentTime: string | null;
  replyTime: string | null;
}
export interface HistoryRow {
  commandId: string;
  content: string;
  status: string;
  result: number | null;
  reply: string | null;
  senderName: string;
  createdAt: string;
  sentAt: string | null;
  answeredAt: string | null;
}
export interface SearchFilter {
  text?: string;
  status?: TaskItemState;
  from?: string;
  to?: string;
  /** A model of the caller's device-type list (deviceTypeList). */
  model?: string;
}

/**
 * The caller's device-type list (spec §6): for wanweiTest the named test account's long model list or GW005W,
 * for other roles the configured types (the server decides, /deviceType/list).
 */
export const deviceTypeList = (signal?: AbortSignal) => api<string[]>('/deviceType/list', {}, { signal });

export const sendTransferIp = (body: { text: string; host: string; port: number }) =>
  api<{ taskId: string; total: number }>('/transferIp/send', body);
export const transferResults = (body: {
  taskId?: string;
  terminalID?: string;
  status?: TaskItemState;
  pageNum: number;
  pageSize: number;
  model?: string;
}) => api<Page<TransferResult>>('/transferIp/results', body);
export const searchTransfer = (body: SearchFilter & { pageNum: number; pageSize: number }) =>
  api<Page<TransferResult>>('/transferIp/search', body);
export const sendMutiCmd = (body: { text: string; content: string }) =>
  api<{ taskId: string; total: number }>('/mutiCmd/send', body);
export const mutiCmdResults = (body: {
  taskId?: string;
  terminalID?: string;
  status?: TaskItemState;
  pageNum: number;
  pageSize: number;
}) => api<Page<CmdResult>>('/mutiCmd/results', body);
export type BatchAction = 'move' | 'reset' | 'clearData' | 'changeModel';
export const deviceBatchManage = (body: {
  text: string;
  action: BatchAction;
  username?: string;
  deviceType?: number;
}) => api<{ success: number; failed: { terminalID: string; message: string }[] }>('/mutiCmd/deviceBatchManage', body);
export const consoleSend = (body: { terminalID: string; content: string; hex?: boolean }) =>
  api<HistoryRow>('/cmdSend/send', body);
export const consoleHistory = (terminalID: string) => api<HistoryRow[]>('/cmdSend/history', { terminalID });
export const toHex = (text: string, reverse = false) =>
  api<{ hex: string; text: string }>('/config/toHex', { text, reverse });

/** The transfer-IP search as xlsx, fetched through the session cookie and saved. */
export async function exportTransfer(filter: SearchFilter, fileName: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/transferIp/export', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', lang: i18n.language || 'cn' },
      body: JSON.stringify(filter),
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

/** The IMEIs in an xlsx/csv/txt file: every cell (or word) of 6 to 20 letters and digits that holds a digit. */
export async function imeisFromFile(file: File): Promise<string[]> {
  const found: string[] = [];
  const take = (v: string) => {
    for (const w of v.split(/[\s,;]+/)) if (/^[0-9A-Za-z]{6,20}$/.test(w) && /\d/.test(w)) found.push(w);
  };
  if (/\.xlsx$/i.test(file.name)) {
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await file.arrayBuffer());
    for (const sheet of book.worksheets) {
      sheet.eachRow((row) => {
        row.eachCell((cell) => take(String(cell.text ?? '')));
      });
    }
  } else take(await file.text());
  return [...new Set(found)];
}
