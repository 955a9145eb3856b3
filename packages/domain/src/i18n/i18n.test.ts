import { describe, expect, it } from 'vitest';
import { type ExtraLanguage, LANGUAGES } from '../languages.ts';
import { MESSAGES, type MessageKey, translate } from '../messages.ts';
import { MESSAGE_TRANSLATIONS } from './index.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const keys = Object.keys(MESSAGES) as MessageKey[];
const extraLanguages = LANGUAGES.filter((lang): lang is ExtraLanguage => lang !== 'cn' && lang !== 'en');
/** Languages whose every text must be in their own script (so never a copy of the English). */
const SCRIPTS: Partial<Record<ExtraLanguage, RegExp>> = {
  km: /[\u1780-\u17ff]/,
  th: /[\u0e00-\u0e7f]/,
  ru: /[\u0400-\u04ff]/,
  my: /[\u1000-\u109f]/,
};

describe('message translations', () => {
  it('cover the nine languages beyond cn and en, and only keys of the base catalogue', () => {
    expect(Object.keys(MESSAGE_TRANSLATIONS).sort()).toEqual([...extraLanguages].sort());
    for (const [lang, texts] of Object.entries(MESSAGE_TRANSLATIONS)) {
      for (const key of Object.keys(texts)) expect(keys, `${lang}: ${key}`).toContain(key);
    }
  });

  it('give every message a text in all 11 languages (en-IN may fall back to en)', () => {
    for (const key of keys) {
      const texts: Readonly<Record<string, string | undefined>> = MESSAGES[key];
      for (const lang of LANGUAGES) {
        const text = texts[lang] ?? (lang === 'en-IN' ? texts.en : undefined);
        expect(text?.trim(), `${lang}: ${key}`).toBeTruthy();
        expect(text, `${lang}: ${key}`).toBe(text?.trim());
      }
    }
  });

  it('keep the placeholders of the en text in every language', () => {
    for (const key of keys) {
      const expected = placeholders(MESSAGES[key].en);
      for (const [lang, texts] of Object.entries(MESSAGE_TRANSLATIONS)) {
        const text = texts[key];
        if (text !== undefined) expect(placeholders(text), `${lang}: ${key}`).toEqual(expected);
      }
    }
  });

  it('are written in the language’s own script for km, th, ru and my', () => {
    for (const [lang, script] of Object.entries(SCRIPTS)) {
      for (const key of keys) {
        const text = MESSAGE_TRANSLATIONS[lang as ExtraLanguage][key] ?? '';
        expect(script.test(text), `${lang}: ${key}`).toBe(true);
      }
    }
  });

  it('put a no-break space, never a plain one, before French : ! ? ;', () => {
    for (const key of keys) {
      const text = MESSAGE_TRANSLATIONS.fr[key] ?? '';
      expect(text, key).not.toMatch(/ [:!?;]/);
      expect(text, key).not.toMatch(/[^\s\u00a0\u202f\d][:!?;]/u);
    }
  });

  it('keep en-IN to the texts where Indian English differs from en', () => {
    for (const [key, text] of Object.entries(MESSAGE_TRANSLATIONS['en-IN'])) {
      expect(text, key).not.toBe(MESSAGES[key as MessageKey].en);
    }
    expect(translate('validation.carNumber', 'en-IN')).toBe('Please enter the correct vehicle number');
    expect(translate('session.407', 'en-IN')).toBe(MESSAGES['session.407'].en);
  });
});

describe('translate in the added languages', () => {
  it('returns the Vietnamese text for vi, with placeholders filled', () => {
    expect(translate('login.202', 'vi')).toBe('Sai mật khẩu');
    expect(translate('validation.required', 'vi', { field: 'Tên' })).toBe('Tên không được để trống');
    expect(translate('validation.fenceRadius', 'vi', { min: 100, max: 5000 })).toBe(
      'Bán kính hàng rào phải từ 100 đến 5000 m',
    );
  });

  it('fills placeholders in every language', () => {
    for (const lang of LANGUAGES) {
      const text = translate('validation.imei808Duplicate', lang, { imei: '12345678901' });
      expect(text, lang).toContain('12345678901');
      expect(text, lang).not.toContain('{imei}');
    }
  });

  it('falls back to en for an unknown language, including names of Object properties', () => {
    for (const lang of ['de', 'zh', 'EN', '', 'toString', '__proto__', 'constructor']) {
      expect(translate('login.202', lang), lang).toBe('wrong password');
    }
  });
});
