// The account screens' namespaces (agent, device, user) are complete in all 11 languages, with the same
// {{placeholders}} as English in every text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '@carhere/domain';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../i18n/locales');
const NAMESPACES = ['agent', 'device', 'user'];

function flat(obj: unknown, prefix = ''): Record<string, string> {
  if (typeof obj === 'string') return { [prefix]: obj };
  return Object.assign(
    {},
    ...Object.entries(obj as Record<string, unknown>).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)),
  );
}

const load = (lang: string, ns: string) => flat(JSON.parse(readFileSync(join(dir, lang, `${ns}.json`), 'utf8')));
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('account screen catalogues', () => {
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
  }
});
