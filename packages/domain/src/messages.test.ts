import { describe, expect, it } from 'vitest';
import oilData from './catalogues/data/oil-control-replies.json' with { type: 'json' };
import { LANGUAGES } from './languages.ts';
import {
  interpolate,
  isMessageKey,
  isSessionExpired,
  MESSAGES,
  type MessageKey,
  SESSION_EXPIRED_CODE,
  translate,
} from './messages.ts';

const en = (key: MessageKey) => MESSAGES[key].en;

describe('catalogue', () => {
  it('every entry has non-blank cn and en texts with the same placeholders', () => {
    for (const [key, texts] of Object.entries(MESSAGES)) {
      expect(texts.cn.trim(), key).not.toBe('');
      expect(texts.en.trim(), key).not.toBe('');
      const names = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(texts.cn), key).toEqual(names(texts.en));
    }
  });

  it('holds the login codes 200/201/202/208/209 in the spec wording, and 407', () => {
    expect(en('login.200')).toBe('login successful');
    expect(en('login.201')).toBe('user name error');
    expect(en('login.202')).toBe('wrong password');
    expect(en('login.208')).toBe('user expired');
    expect(en('login.209')).toBe('wrong username or password');
    expect(isMessageKey('session.407')).toBe(true);
  });

  it("holds spec §8's messages verbatim in English", () => {
    const texts = Object.values(MESSAGES).map((t) => t.en);
    for (const text of [
      'Network problem, please try again later!',
      'the server is busy, please try later',
      'This account has no permission to do this!',
      'The device does not support this feature!',
      'The device is not activated and cannot be used normally!',
      "The device has expired, please contact the device's service provider!",
      "Offline devices can't send instructions!",
      'Please do not repeat the operation!',
      'The user name is already in use!',
      'Enter the correct username!',
      'The current remaining quantity is insufficient!',
      'No permission to use this feature!',
      'no permission to use this function',
      'There are not enough imports left to import these devices!',
      'Whoops! The old driver is gone...',
      'device already online, no need to send normal-mode command',
      'Cannot find deviceId for this device',
      'map configuration not obtained',
      "{field} can't be empty",
      'the two inputs do not match',
      'Please enter the correct SIM card number',
      'Please enter the correct telephone number',
      'please enter correct car number',
    ]) {
      expect(texts, text).toContain(text);
    }
    expect(isMessageKey('tip.server.err')).toBe(true);
    for (const action of ['save', 'delete', 'transfer', 'upload', 'export']) {
      expect(isMessageKey(`action.${action}.success`)).toBe(true);
      expect(isMessageKey(`action.${action}.failure`)).toBe(true);
    }
    for (const count of ['success', 'failure', 'unqualified', 'noFactoryTest', 'notPreset', 'alreadyStocked']) {
      expect(isMessageKey(`import.${count}`)).toBe(true);
    }
  });

  it('keeps the oil-control texts of the reference verbatim in Chinese', () => {
    const cn = Object.values(MESSAGES).map((t) => t.cn);
    for (const reply of oilData.replies) expect(cn).toContain(reply.text);
    for (const text of [oilData.success_text, oilData.no_response_text, oilData.request_timeout_text]) {
      expect(cn).toContain(text);
    }
    expect(cn).toContain(oilData.offline_saved_text.replace(/\s*\(.*\)$/, ''));
  });
});

describe('translate', () => {
  it('gives cn and en, with placeholders filled', () => {
    expect(translate('validation.fenceRadius', 'en', { min: 100, max: 1000000 })).toBe(
      'The fence radius must be between 100 and 1000000 m',
    );
  });

  it('gives every language but en-IN its own text, and falls back to en for en-IN and unknown languages', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'cn' && l !== 'en' && l !== 'en-IN')) {
      expect(translate('login.202', lang), lang).not.toBe('wrong password');
    }
    expect(translate('login.202', 'en-IN')).toBe('wrong password');
    expect(translate('login.202', 'de')).toBe('wrong password');
  });

  it('returns an unknown key as it is', () => {
    expect(translate('no.such.key', 'en')).toBe('no.such.key');
    expect(translate('toString', 'en')).toBe('toString');
  });

  it('leaves placeholders without a value', () => {
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
    expect(interpolate('{a}', undefined)).toBe('{a}');
  });
});

describe('session expiry (407)', () => {
  it('is detected in meta.message or meta.code', () => {
    expect(SESSION_EXPIRED_CODE).toBe(407);
    expect(isSessionExpired({ message: '407' })).toBe(true);
    expect(isSessionExpired({ message: 407 })).toBe(true);
    expect(isSessionExpired({ code: 407 })).toBe(true);
    expect(isSessionExpired({ message: '4070' })).toBe(false);
    expect(isSessionExpired({ message: 'ok', code: 200 })).toBe(false);
    expect(isSessionExpired(null)).toBe(false);
  });
});
