// Typed calls of /api/share/* (issue 18): a device's share links, making and revoking one, and the public view.
import { api, callEnvelope } from '../../api/client.ts';

export type ShareState = 'active' | 'expired' | 'revoked';

export interface ShareLink {
  id: string;
  terminalID: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  state: ShareState;
  lastViewedAt: string | null;
}

export interface ShareView {
  state: ShareState;
  expiresAt: string;
  pollSeconds: number;
  device: {
    name: string;
    online: boolean;
    position: { time: string; lat: number; lon: number; speed: number; course: number } | null;
  } | null;
}

export const findShareLinks = (terminalID: string) => api<ShareLink[]>('/share/find', { terminalID });
export const addShareLink = (terminalID: string, hours: number) =>
  api<{ id: string; token: string; path: string; expiresAt: string }>('/share/add', { terminalID, hours });
export const revokeShareLink = (id: string) => api<{ id: string }>('/share/revoke', { id });

/** The public page's data: null for an unknown link (404). */
export async function viewShare(token: string, signal?: AbortSignal): Promise<ShareView | null> {
  const env = await callEnvelope<ShareView>(`/share/view/${encodeURIComponent(token)}`, undefined, {
    method: 'GET',
    signal,
  });
  if (!env.meta.success) return null;
  return env.data;
}
