import type { Language } from '../languages.ts';

/**
 * Where a catalogue entry comes from: 'reference' when it is read from the partial reference data in
 * ./data (see its README), 'carhere' when Carhere filled a gap the reference does not cover.
 */
export type EntrySource = 'reference' | 'carhere';

/** A catalogue label in Chinese and English; other languages show the English one. */
export interface Labelled {
  readonly cn: string;
  readonly en: string;
}

export function labelIn(entry: Labelled, lang: Language | string): string {
  return lang === 'cn' ? entry.cn : entry.en;
}
