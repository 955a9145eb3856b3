// i18next with one namespace per area (locales/<lang>/<namespace>.json). cn and en are bundled; the other
// nine languages load on demand, with English as the fallback (spec §1).

import { FALLBACK_LANGUAGE, forcesChineseInterface, type Language, resolveLanguage } from '@carhere/domain';
import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { authStore } from '../auth/store.ts';

export { LANGUAGES } from '@carhere/domain';
export const LANGUAGE_NAMES: Record<Language, string> = {
  cn: '中文',
  en: 'English',
  vi: 'Tiếng Việt',
  fr: 'Français',
  pt: 'Português',
  'en-IN': 'English (India)',
  es: 'Español',
  km: 'ខ្មែរ',
  th: 'ไทย',
  ru: 'Русский',
  my: 'မြန်မာ',
};
export type { Language };

const LANG_KEY = 'useLang';

type Catalogue = Record<string, unknown>;
// cn and en ship with the app and never fall back: their 'common' catalogue (login, layout, errors) is in the
// first bundle, their feature catalogues are chunks requested as soon as i18next starts, so the login page
// does not carry every screen's texts. The other nine languages load when chosen.
const bundled = import.meta.glob<Catalogue>('./locales/{cn,en}/common.json', { eager: true, import: 'default' });
const lazy = import.meta.glob<Catalogue>(['./locales/*/*.json', '!./locales/{cn,en}/common.json'], {
  import: 'default',
});

function parse(path: string): { lang: string; ns: string } {
  const m = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  return { lang: m?.[1] ?? '', ns: m?.[2] ?? '' };
}

const resources: Record<string, Record<string, Catalogue>> = {};
const namespaces = new Set<string>();
for (const [path, cat] of Object.entries(bundled)) {
  const { lang, ns } = parse(path);
  resources[lang] ??= {};
  resources[lang][ns] = cat;
  namespaces.add(ns);
}
for (const path of Object.keys(lazy)) namespaces.add(parse(path).ns);

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = lazy[`./locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (data) => callback(null, data),
      (err: Error) => callback(err, null),
    );
  },
};

/** The role of the user in this tab's session (sessionStorage 'userInfo'), if any. */
function sessionRole(): number | null {
  return authStore.get()?.userInfo.role ?? null;
}

/**
 * The language rule of spec §1 (domain resolveLanguage): test-type roles (wanweiTest, test, testSearch) get
 * cn; otherwise a supported stored choice, else the browser's language, else cn.
 */
export function initialLanguage(role: number | null = sessionRole()): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch {
    stored = null;
  }
  return resolveLanguage({ stored, browser: navigator.language, role });
}

/** Whether the signed-in user's role keeps the interface in Chinese. */
export function languageLocked(): boolean {
  return forcesChineseInterface(sessionRole());
}

function applyDocumentLanguage(lang: string): void {
  document.documentElement.lang = lang === 'cn' ? 'zh-CN' : lang;
}

export async function setLanguage(lang: Language): Promise<void> {
  // A test-type role stays in Chinese; the choice is not stored, so it does not follow the next user.
  if (languageLocked()) {
    await i18n.changeLanguage('cn');
    return;
  }
  localStorage.setItem(LANG_KEY, lang);
  await i18n.changeLanguage(lang);
}

i18n.on('languageChanged', applyDocumentLanguage);

// Logging in (or out) re-applies the rule: a test-type role switches to Chinese, the next user gets theirs.
let lastRole = sessionRole();
authStore.subscribe(() => {
  const role = sessionRole();
  if (role === lastRole) return;
  lastRole = role;
  const wanted = initialLanguage(role);
  if (wanted !== i18n.language) void i18n.changeLanguage(wanted);
});

void i18n
  .use(lazyBackend)
  .use(initReactI18next)
  .init({
    resources,
    partialBundledLanguages: true,
    lng: initialLanguage(),
    fallbackLng: { 'en-IN': [FALLBACK_LANGUAGE], cn: [FALLBACK_LANGUAGE], default: [FALLBACK_LANGUAGE] },
    ns: [...namespaces],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
