// The alarms, fence, command, tire, system and notice catalogues: complete in all 11 languages with the same
// {{placeholders}} as English, and every key the screens use exists (literal keys found in the source, and
// the key families built at run time).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '@carhere/domain';
import { describe, expect, it } from 'vitest';
import { COMMAND_GROUPS } from '../command/menu.ts';
import { GEOCODER_KINDS, MAP_VENDORS } from './api.ts';

const locales = join(import.meta.dirname, '../../i18n/locales');
const features = join(import.meta.dirname, '..');
const NAMESPACES = ['alarms', 'fence', 'command', 'tire', 'system', 'notice'] as const;

function flat(obj: unknown, prefix = ''): Record<string, string> {
  if (typeof obj === 'string') return { [prefix]: obj };
  return Object.assign(
    {},
    ...Object.entries(obj as Record<string, unknown>).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)),
  );
}
const load = (lang: string, ns: string) => flat(JSON.parse(readFileSync(join(locales, lang, `${ns}.json`), 'utf8')));
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/**
 * Literal t('key') calls of a feature folder's files that translate with the folder's own namespace (a file whose
 * useTranslation names another namespace is checked against that one by its own catalogue test; keys with an
 * explicit namespace are skipped).
 */
function literalKeys(folder: string): string[] {
  const keys = new Set<string>();
  for (const file of readdirSync(join(features, folder))) {
    if (!/\.tsx?$/.test(file) || file.endsWith('.test.ts')) continue;
    const source = readFileSync(join(features, folder, file), 'utf8');
    const ns = /useTranslation\(\s*'([^']+)'/.exec(source)?.[1];
    if (ns !== undefined && ns !== folder) continue;
    for (const m of source.matchAll(/\bt\(\s*'([^']+)'/g)) if (!m[1].includes(':')) keys.add(m[1]);
  }
  return [...keys];
}

describe('web feature catalogues', () => {
  for (const ns of NAMESPACES) {
    for (const lang of LANGUAGES) {
      it(`${lang}/${ns} has every English key, non-empty, with the same placeholders`, () => {
        const en = load('en', ns);
        const other = load(lang, ns);
        expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
        for (const [key, text] of Object.entries(en)) {
          expect(other[key].trim(), `${lang}/${ns}:${key}`).not.toBe('');
          expect(placeholders(other[key]), `${lang}/${ns}:${key}`).toEqual(placeholders(text));
        }
      });
    }

    it(`every literal key the ${ns} screens use is in cn and en`, () => {
      const used = literalKeys(ns);
      expect(used.length).toBeGreaterThan(0);
      for (const lang of ['cn', 'en']) {
        const cat = load(lang, ns);
        expect(
          used.filter((k) => !(k in cat)),
          `${lang}/${ns}`,
        ).toEqual([]);
      }
    });
  }

  it('has the key families built at run time', () => {
    const need: Record<string, string[]> = {
      fence: [
        'alarmType.in',
        'alarmType.out',
        'alarmType.inOut',
        'editor.nameRequired',
        'editor.drawFirst',
        'editor.radiusRange',
      ],
      command: [
        ...Object.keys(COMMAND_GROUPS).map((g) => `group.${g}`),
        ...['live', 'offline', 'manual'].map((m) => `mode.${m}`),
        ...['pending', 'sent', 'answered', 'timeout', 'failed', 'expired', 'cancelled', 'refused'].map(
          (s) => `status.${s}`,
        ),
        ...['success', 'queued', 'timeout', 'error'].map((o) => `outcome.${o}`),
      ],
      tire: ['leftFront', 'rightFront', 'leftRear', 'rightRear'].map((p) => `position.${p}`),
      system: [
        ...MAP_VENDORS.map((v) => `vendor.${v}`),
        ...GEOCODER_KINDS.map((k) => `geocoder.kind.${k}`),
        ...['shown', 'hidden', 'none'].map((s) => `notice.state.${s}`),
      ],
    };
    for (const [ns, keys] of Object.entries(need)) {
      for (const lang of ['cn', 'en']) {
        const cat = load(lang, ns);
        expect(
          keys.filter((k) => !(k in cat)),
          `${lang}/${ns}`,
        ).toEqual([]);
      }
    }
  });
});
