import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, languageFromBrowser, resolveLanguage } from './languages.ts';
import { ROLES } from './roles.ts';

describe('languages', () => {
  it('lists the 11 languages, cn default, cn and en bundled', () => {
    expect(LANGUAGES).toEqual(['cn', 'en', 'vi', 'fr', 'pt', 'en-IN', 'es', 'km', 'th', 'ru', 'my']);
    expect(DEFAULT_LANGUAGE).toBe('cn');
    expect(isLanguage('en-IN')).toBe(true);
    expect(isLanguage('de')).toBe(false);
  });

  it('maps browser tags', () => {
    expect(languageFromBrowser('zh-CN')).toBe('cn');
    expect(languageFromBrowser('zh_TW')).toBe('cn');
    expect(languageFromBrowser('en-IN')).toBe('en-IN');
    expect(languageFromBrowser('en-in')).toBe('en-IN');
    expect(languageFromBrowser('en-GB')).toBe('en');
    expect(languageFromBrowser('pt-BR')).toBe('pt');
    expect(languageFromBrowser('de-DE')).toBeUndefined();
    expect(languageFromBrowser('')).toBeUndefined();
    expect(languageFromBrowser(undefined)).toBeUndefined();
  });

  it('stored choice, else browser, else cn', () => {
    expect(resolveLanguage({ stored: 'fr', browser: 'en-US' })).toBe('fr');
    expect(resolveLanguage({ stored: 'xx', browser: 'ru-RU' })).toBe('ru');
    expect(resolveLanguage({ stored: null, browser: 'de' })).toBe('cn');
    expect(resolveLanguage({})).toBe('cn');
  });

  it('test-type roles always get cn', () => {
    for (const role of [ROLES.wanweiTest, ROLES.test, ROLES.testSearch]) {
      expect(resolveLanguage({ stored: 'en', browser: 'en', role })).toBe('cn');
    }
    expect(resolveLanguage({ stored: 'en', role: ROLES.log })).toBe('en');
  });
});
