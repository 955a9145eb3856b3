import { describe, expect, it } from 'vitest';
import { type ExtraLanguage, LANGUAGES } from '../../languages.ts';
import { ALARM_TYPES, alarmLabel } from '../alarms.ts';
import { COMMANDS, commandLabel, POST_TYPES } from '../commandCatalogue.ts';
import { type Labelled, labelIn } from '../source.ts';
import { CATALOGUE_TRANSLATIONS, type CatalogueTranslation } from './index.ts';

const translations = Object.entries(CATALOGUE_TRANSLATIONS) as [ExtraLanguage, CatalogueTranslation][];
/** Languages whose every label must use their own script (so never a copy of the English). */
const SCRIPTS: Partial<Record<ExtraLanguage, RegExp>> = {
  km: /[\u1780-\u17ff]/,
  th: /[\u0e00-\u0e7f]/,
  ru: /[\u0400-\u04ff]/,
  my: /[\u1000-\u109f]/,
};

function labelsOf(translation: CatalogueTranslation): string[] {
  return [
    ...Object.values(translation.alarms),
    translation.unknownAlarm,
    ...Object.values(translation.commands),
    ...translation.postTypes,
  ];
}

describe('catalogue translations', () => {
  it('exist for every language beyond cn and en but en-IN, which shows the en labels', () => {
    const expected = LANGUAGES.filter((lang) => !['cn', 'en', 'en-IN'].includes(lang)).sort();
    expect(translations.map(([lang]) => lang).sort()).toEqual(expected);
  });

  it('name exactly the alarm codes and command ids of the catalogues', () => {
    const codes = ALARM_TYPES.map((alarm) => String(alarm.code)).sort();
    const ids = COMMANDS.map((command) => command.id).sort();
    for (const [lang, translation] of translations) {
      expect(Object.keys(translation.alarms).sort(), lang).toEqual(codes);
      expect(Object.keys(translation.commands).sort(), lang).toEqual(ids);
      expect(translation.postTypes, lang).toHaveLength(POST_TYPES.length);
    }
  });

  it('are non-blank, trimmed, and keep {code} in the unknown-alarm name', () => {
    for (const [lang, translation] of translations) {
      for (const label of labelsOf(translation)) {
        expect(label.trim(), lang).not.toBe('');
        expect(label, lang).toBe(label.trim());
      }
      expect(translation.unknownAlarm.match(/\{(\w+)\}/g), lang).toEqual(['{code}']);
    }
  });

  it('keep distinct names apart, as en does', () => {
    const distinct = (labels: readonly string[]) => new Set(labels).size === labels.length;
    expect(distinct(ALARM_TYPES.map((alarm) => alarm.en))).toBe(true);
    expect(distinct(COMMANDS.map((command) => command.en))).toBe(true);
    for (const [lang, translation] of translations) {
      expect(distinct(Object.values(translation.alarms)), lang).toBe(true);
      expect(distinct(Object.values(translation.commands)), lang).toBe(true);
    }
  });

  it('are written in the language’s own script for km, th, ru and my', () => {
    for (const [lang, translation] of translations) {
      const script = SCRIPTS[lang];
      if (!script) continue;
      for (const label of labelsOf(translation)) expect(script.test(label), `${lang}: ${label}`).toBe(true);
    }
  });

  it('put a no-break space, never a plain one, before a French colon', () => {
    for (const label of labelsOf(CATALOGUE_TRANSLATIONS.fr!)) expect(label).not.toMatch(/[^\u00a0]:/);
  });
});

describe('labels in the catalogues', () => {
  it('give every alarm, command and post type a label in every language (en-IN falls back to en)', () => {
    const entries: readonly Labelled[] = [...ALARM_TYPES, ...COMMANDS, ...POST_TYPES];
    for (const entry of entries) {
      for (const [lang] of translations) {
        expect(entry[lang], `${lang}: ${entry.en}`).toBeTruthy();
        expect(labelIn(entry, lang)).toBe(entry[lang]);
      }
      expect(labelIn(entry, 'en-IN')).toBe(entry.en);
      expect(labelIn(entry, 'cn')).toBe(entry.cn);
    }
  });

  it('read the language’s label, falling back to en for an unknown language', () => {
    expect(alarmLabel(44, 'ru')).toBe('Столкновение');
    expect(alarmLabel(64, 'fr')).toBe('Charge faible');
    expect(alarmLabel(99, 'th')).toBe('การแจ้งเตือนที่ไม่รู้จัก (99)');
    expect(commandLabel('RESET#', 'es')).toBe('Reiniciar');
    expect(commandLabel('SENLEVEL,3#', 'vi')).toBe('Độ nhạy rung');
    expect(commandLabel('NOPE#', 'vi')).toBe('NOPE#');
    expect(POST_TYPES[2].pt).toBe('Plataforma + SMS + chamada');
    for (const lang of ['de', 'EN', '', 'toString', '__proto__']) {
      expect(alarmLabel(6, lang), lang).toBe('Overspeed');
      expect(commandLabel('RESET#', lang), lang).toBe('Restart');
    }
  });
});
