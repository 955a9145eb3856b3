// The screens' catalogues: every namespace exists in all 11 languages with exactly the English keys (so cn and
// en, the bundled ones, match each other, and no lazy language falls back to English or carries stale keys),
// no text is empty, and every text has the same {{placeholders}} as its English original.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '@carhere/domain';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, 'locales');

function flat(obj: unknown, prefix = ''): Record<string, string> {
  if (typeof obj === 'string') return { [prefix]: obj };
  return Object.assign(
    {},
    ...Object.entries(obj as Record<string, unknown>).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)),
  );
}

const load = (lang: string, ns: string) => flat(JSON.parse(readFileSync(join(dir, lang, `${ns}.json`), 'utf8')));
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

const namespaces = readdirSync(join(dir, 'en')).map((f) => f.replace(/\.json$/, ''));

describe('locale catalogues', () => {
  it('has a folder per language, each with the same namespace files', () => {
    expect(readdirSync(dir).sort()).toEqual([...LANGUAGES].sort());
    expect(namespaces).toContain('common');
    for (const lang of LANGUAGES)
      expect(readdirSync(join(dir, lang)).sort(), lang).toEqual(readdirSync(join(dir, 'en')).sort());
  });

  for (const ns of namespaces) {
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
