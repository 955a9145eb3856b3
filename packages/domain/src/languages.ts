import { forcesChineseInterface } from './roles.ts';

/** The 11 interface languages of spec §1. cn is the default; cn and en are bundled, the rest load on demand. */
export const LANGUAGES = ['cn', 'en', 'vi', 'fr', 'pt', 'en-IN', 'es', 'km', 'th', 'ru', 'my'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Languages whose texts may be missing from a catalogue entry (they fall back to en). */
export type ExtraLanguage = Exclude<Language, 'cn' | 'en'>;

export const DEFAULT_LANGUAGE: Language = 'cn';
export const FALLBACK_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Maps a browser language tag (navigator.language, Accept-Language item) to a supported language, or
 * undefined. Chinese of any region maps to cn; an exact tag wins over its primary subtag
 * ('en-IN' → en-IN, 'en-GB' → en, 'pt-BR' → pt).
 */
export function languageFromBrowser(tag: string | null | undefined): Language | undefined {
  if (!tag) return undefined;
  const normalized = tag.trim().replace('_', '-');
  if (normalized === '') return undefined;
  const exact = LANGUAGES.find((lang) => lang.toLowerCase() === normalized.toLowerCase());
  if (exact) return exact;
  const primary = normalized.split('-')[0].toLowerCase();
  if (primary === 'zh') return 'cn';
  return LANGUAGES.find((lang) => lang === primary);
}

/**
 * The interface language (spec §1): test-type roles (wanweiTest, test, testSearch) always get cn;
 * otherwise the stored choice if supported, else the browser's language, else cn.
 */
export function resolveLanguage(input: {
  stored?: string | null;
  browser?: string | null;
  role?: number | null;
}): Language {
  if (forcesChineseInterface(input.role)) return 'cn';
  if (isLanguage(input.stored)) return input.stored;
  return languageFromBrowser(input.browser) ?? DEFAULT_LANGUAGE;
}
