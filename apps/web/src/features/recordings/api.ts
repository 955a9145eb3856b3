// Typed calls of /api/recording/* (issue 21): a device's recordings, the test role's tape download search, and
// the file's address to play or download (same origin: the session cookie goes with it).
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

export interface Recording {
  id: string;
  terminalID: string;
  time: string;
  durationMs: number | null;
  size: number;
  mediaType: number;
  format: number;
  mime: string;
  event: number;
  lat: number | null;
  lon: number | null;
  commandId: string | null;
  command: string | null;
  commandType: string | null;
}

export interface RecordingQuery {
  pageNum: number;
  pageSize: number;
  startTime?: number;
  endTime?: number;
}

export const findRecordings = (terminalID: string, q: RecordingQuery, signal?: AbortSignal) =>
  api<Page<Recording>>('/recording/find', { terminalID, ...q }, { signal });

export const searchTapes = (q: RecordingQuery & { terminalID?: string }, signal?: AbortSignal) =>
  api<Page<Recording>>('/recording/search', q, { signal });

/** Where the browser plays (inline) or saves (download) a recording. */
export function recordingUrl(id: string, download = false): string {
  return `/api/recording/file?id=${encodeURIComponent(id)}${download ? '&download=1' : ''}`;
}

/** 83 500 ms → '1:24'; null → '-'. */
export function formatLength(ms: number | null): string {
  if (ms === null) return '-';
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
