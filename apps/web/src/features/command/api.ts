// Typed calls of /api/command/* (gateway README): the spec §4 send flow, records, log and offline commands.
import { api, callEnvelope } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import type { OilOutcomeView } from '../deviceTypes/OilOutcome.tsx';
import { type CommandResult, type SendOutcome, sendOutcome } from './sendFlow.ts';

export type CommandStatus = 'pending' | 'sent' | 'answered' | 'timeout' | 'failed' | 'expired' | 'cancelled';

export interface CommandRecord {
  id: string;
  terminalID: string;
  /** the command's catalogue label in the caller's language, or the command word */
  type: string;
  content: string;
  mode: 'live' | 'offline' | 'manual';
  status: CommandStatus;
  result: number | null;
  reply: string | null;
  sender: string;
  attempts: number;
  createdAt: string;
  sendTime: string | null;
  executeTime: string | null;
  expiresAt: string | null;
  oil?: OilOutcomeView | null;
  /** Recordings this command produced (record audio). */
  recordings?: string[];
}

export interface CommandLogEntry {
  id: string;
  commandId: string;
  terminalID: string;
  content: string;
  time: string;
  status: string;
  detail: string;
}

/** The whole flow in one call: refused, queued offline (offline device or `offline`), or sent live. */
export async function sendCommand(body: {
  terminalID: string;
  content: string;
  deviceProtocol?: number;
  offline?: boolean;
}): Promise<SendOutcome> {
  const env = await callEnvelope<CommandResult | null>('/command/add', body);
  return sendOutcome(env.meta, env.data);
}

/** Keeps a timed-out live command as an offline command; answers the server's message. */
export async function saveAsOffline(commandId: string): Promise<string> {
  const env = await callEnvelope<CommandRecord>('/command/insertOffline', { commandId });
  if (!env.meta.success) throw new Error(env.meta.message);
  return env.meta.message;
}

export function findRecords(terminalID: string, pageNum: number, pageSize: number, signal?: AbortSignal) {
  return api<Page<CommandRecord>>('/command/find', { terminalID, pageNum, pageSize }, { signal });
}

export function findOpenOffline(terminalID: string, signal?: AbortSignal) {
  return api<CommandRecord[]>('/command/findAndOffline', { terminalID }, { signal });
}

export function findLog(commandId: string, signal?: AbortSignal) {
  return api<Page<CommandLogEntry>>('/command/findLog', { commandId, pageNum: 1, pageSize: 100 }, { signal });
}

export function cancelOffline(commandId: string) {
  return api<CommandRecord>('/command/cancelOffline', { commandId });
}
