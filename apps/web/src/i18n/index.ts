// i18next with one namespace per area (locales/<lang>/<namespace>.json). cn and en are bundled; the other
// nine languages load on demand, with English as the fallback (spec §1).
import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['cn', 'en', 'vi', 'fr', 'pt', 'en-IN', 'es', 'km', 'th', 'ru', 'my'] as const;
export type Language = (typeof LANGUAGES)[number];
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
const LANG_KEY = 'useLang';

type Catalogue = Record<string, unknown>;
const bundled = import.meta.glob<Catalogue>('./locales/{cn,en}/*.json', { eager: true, import: 'default' });
const lazy = import.meta.glob<Catalogue>(['./locales/*/*.json', '!./locales/{cn,en}/*.json'], { import: 'default' });

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

/** The language rule of spec §1: a supported stored choice, else the browser's language, else cn. */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(LANG_KEY);
  if (stored && (LANGUAGES as readonly string[]).includes(stored)) return stored as Language;
  const nav = (navigator.language || '').toLowerCase();
  if (nav.startsWith('zh')) return 'cn';
  const exact = LANGUAGES.find((l) => l.toLowerCase() === nav);
  if (exact) return exact;
  const base = LANGUAGES.find((l) => l === nav.split('-')[0]);
  return base ?? 'cn';
}

export async function setLanguage(lang: Language): Promise<void> {
  localStorage.setItem(LANG_KEY, lang);
  await i18n.changeLanguage(lang);
  document.documentElement.lang = lang === 'cn' ? 'zh-CN' : lang;
}

void i18n
  .use(lazyBackend)
  .use(initReactI18next)
  .init({
    resources,
    partialBundledLanguages: true,
    lng: initialLanguage(),
    fallbackLng: { 'en-IN': ['en'], cn: ['en'], default: ['en'] },
    ns: [...namespaces],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });

export default i18n;
