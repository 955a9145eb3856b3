// Who is logged in, kept in memory and in sessionStorage ('userInfo', spec §9) so a reload keeps it.
// The original client encrypted stored data with a secret built into the page, which protects nothing;
// we store only what the server already told this browser (no password, no token — the session lives in
// an httpOnly cookie) and the server checks every call anyway.
import { SESSION_KEYS } from '@carhere/domain';
import { useSyncExternalStore } from 'react';
import type { LoginData } from '../api/types.ts';

const KEY = 'userInfo';
// The session keys of spec §9 (domain's SESSION_KEYS) are all cleared at logout.
const REMEMBER_KEY = 'rememberUsername';

let current: LoginData | null = read();
const listeners = new Set<() => void>();

function read(): LoginData | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as LoginData) : null;
  } catch {
    return null;
  }
}

function emit(): void {
  for (const l of listeners) l();
}

export const authStore = {
  get: (): LoginData | null => current,
  set(data: LoginData | null): void {
    current = data;
    if (data) sessionStorage.setItem(KEY, JSON.stringify(data));
    else for (const k of SESSION_KEYS) sessionStorage.removeItem(k);
    emit();
  },
  subscribe(fn: () => void): () => void {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
  /** "Remember me" keeps the user name (never the password) for the next visit. */
  rememberedUsername: (): string => localStorage.getItem(REMEMBER_KEY) ?? '',
  rememberUsername(name: string | null): void {
    if (name) localStorage.setItem(REMEMBER_KEY, name);
    else localStorage.removeItem(REMEMBER_KEY);
  },
};

export function useAuth(): LoginData | null {
  return useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
}
