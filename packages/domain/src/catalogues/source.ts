import { type ExtraLanguage, isLanguage, type Language } from '../languages.ts';

/**
 * Where a catalogue entry comes from: 'reference' when it is read from the partial reference data in
 * ./data (see its README), 'carhere' when Carhere filled a gap the reference does not cover.
 */
export type EntrySource = 'reference' | 'carhere';

/**
 * A catalogue label in Chinese and English, and in the other languages of spec §1 where it has been
 * translated (see ./i18n); a language without its own label shows the English one.
 */
export interface Labelled extends Readonly<Partial<Record<ExtraLanguage, string>>> {
  readonly cn: string;
  readonly en: string;
}

/** The label in a language: cn, the language's own label, else en (also for an unknown language). */
export function labelIn(entry: Labelled, lang: Language | string): string {
  if (lang === 'cn') return entry.cn;
  return (isLanguage(lang) ? entry[lang] : undefined) ?? entry.en;
}
