import type { ExtraLanguage } from '../../languages.ts';
import { CATALOGUE_ES } from './es.ts';
import { CATALOGUE_FR } from './fr.ts';
import { CATALOGUE_KM } from './km.ts';
import { CATALOGUE_MY } from './my.ts';
import { CATALOGUE_PT } from './pt.ts';
import { CATALOGUE_RU } from './ru.ts';
import { CATALOGUE_TH } from './th.ts';
import { CATALOGUE_VI } from './vi.ts';

/** The catalogue labels of one language beyond cn and en. */
export interface CatalogueTranslation {
  /** Alarm names by code: device codes 0-48 and 201, battery codes 50-80. */
  readonly alarms: Readonly<Record<number, string>>;
  /** Name of a code outside the catalogue; `{code}` stands for the code. */
  readonly unknownAlarm: string;
  /** Command labels by command id. */
  readonly commands: Readonly<Record<string, string>>;
  /** Alarm post types 0 to 3 (the M suffix of alarm commands). */
  readonly postTypes: readonly [string, string, string, string];
}

/** Catalogue labels by language; en-IN has none of its own and shows the en labels. */
export const CATALOGUE_TRANSLATIONS: { readonly [L in ExtraLanguage]?: CatalogueTranslation } = {
  vi: CATALOGUE_VI,
  fr: CATALOGUE_FR,
  pt: CATALOGUE_PT,
  es: CATALOGUE_ES,
  km: CATALOGUE_KM,
  th: CATALOGUE_TH,
  ru: CATALOGUE_RU,
  my: CATALOGUE_MY,
};

/**
 * One label in every language that has it, e.g. `translatedLabels((t) => t.alarms[6])` →
 * `{ vi: 'Quá tốc độ', fr: 'Excès de vitesse', … }`, to spread into a Labelled entry.
 */
export function translatedLabels(
  pick: (translation: CatalogueTranslation) => string | undefined,
): Partial<Record<ExtraLanguage, string>> {
  const labels: Partial<Record<ExtraLanguage, string>> = {};
  for (const [lang, translation] of Object.entries(CATALOGUE_TRANSLATIONS) as [ExtraLanguage, CatalogueTranslation][]) {
    const label = pick(translation);
    if (label !== undefined) labels[lang] = label;
  }
  return labels;
}
