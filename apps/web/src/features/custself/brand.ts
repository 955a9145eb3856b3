// The brand the page was opened under (issue 16, per-brand login pages): a path /b/<key> names it (and is
// remembered in local storage 'brandKey', so the signed-in layout keeps it), else the server picks it by the
// host name (GET /api/brand/current). The login page and the layout read it with useBrand(); its default
// language and map apply to users who have not chosen their own.
import i18n from 'i18next';
import { useSyncExternalStore } from 'react';
import { callEnvelope } from '../../api/client.ts';
import { LANGUAGES, type Language, languageLocked } from '../../i18n/index.ts';

export interface Brand {
  id: string;
  key: string;
  host: string;
  name: string;
  title: string;
  logo: string;
  primaryColor: string;
  headerColor: string;
  appUrl: string;
  defaultLang: string;
  defaultMap: string;
}

const STORAGE_KEY = 'brandKey';
/** /b/<key>: the brand's own login address. */
export const BRAND_PATH = /^\/b\/([a-z0-9-]{1,32})\/?$/i;

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

/** Remembers the key of a /b/<key> address the page was opened at (before the first render). */
function keyFromPath(): string | null {
  const m = BRAND_PATH.exec(location.pathname);
  if (!m) return storage()?.getItem(STORAGE_KEY) ?? null;
  const key = m[1].toLowerCase();
  storage()?.setItem(STORAGE_KEY, key);
  return key;
}

let current: Brand | null = null;
const listeners = new Set<() => void>();

function applyDefaults(brand: Brand): void {
  if (brand.title || brand.name) document.title = brand.title || brand.name;
  const store = storage();
  // A default language for those who never chose one (a test-type role stays in Chinese).
  if (
    brand.defaultLang &&
    (LANGUAGES as readonly string[]).includes(brand.defaultLang) &&
    !store?.getItem('useLang') &&
    !languageLocked()
  ) {
    void i18n.changeLanguage(brand.defaultLang as Language);
  }
  if (brand.defaultMap)
    void import('../../map/mapType.ts').then((m) => m.mapTypeStore.setBrandDefault(brand.defaultMap));
}

/** Asks the server for the brand of the remembered key or of this host name; called once before the first render. */
export async function loadBrand(): Promise<void> {
  const key = keyFromPath();
  try {
    const env = await callEnvelope<Brand | null>(
      `/brand/current${key ? `?key=${encodeURIComponent(key)}` : ''}`,
      undefined,
      { method: 'GET' },
    );
    if (!env.meta.success) return;
    current = env.data;
    // A key no brand has any more is forgotten.
    if (key && (!current || current.key !== key)) storage()?.removeItem(STORAGE_KEY);
    if (current) applyDefaults(current);
    for (const l of listeners) l();
  } catch {
    // Offline or an old server: the platform's own look.
  }
}

/** The brand of this page, or null for the platform's own look. */
export function useBrand(): Brand | null {
  return useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => current,
  );
}
