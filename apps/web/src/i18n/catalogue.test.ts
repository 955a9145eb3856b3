// Every key must exist in both bundled languages (cn and en), and lazy languages may only use known keys.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, 'locales');

function keys(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object') return [prefix];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function load(lang: string, ns: string): string[] | null {
  try {
    return keys(JSON.parse(readFileSync(join(dir, lang, `${ns}.json`), 'utf8'))).sort();
  } catch {
    return null;
  }
}

const languages = readdirSync(dir);
const namespaces = [
  ...new Set(languages.flatMap((l) => readdirSync(join(dir, l)).map((f) => f.replace(/\.json$/, '')))),
];

describe('locale catalogues', () => {
  it('has the bundled languages', () => {
    expect(languages).toEqual(expect.arrayContaining(['cn', 'en']));
    expect(namespaces).toContain('common');
  });

  for (const ns of namespaces) {
    it(`namespace ${ns}: cn and en have exactly the same keys`, () => {
      const cn = load('cn', ns);
      const en = load('en', ns);
      expect(cn, `cn/${ns}.json missing`).not.toBeNull();
      expect(en, `en/${ns}.json missing`).not.toBeNull();
      expect(
        cn!.filter((k) => !en!.includes(k)),
        `keys in cn/${ns} missing in en`,
      ).toEqual([]);
      expect(
        en!.filter((k) => !cn!.includes(k)),
        `keys in en/${ns} missing in cn`,
      ).toEqual([]);
    });

    it(`namespace ${ns}: other languages use only keys that exist in en`, () => {
      const en = load('en', ns) ?? [];
      for (const lang of languages.filter((l) => l !== 'en' && l !== 'cn')) {
        const other = load(lang, ns);
        if (other === null) continue;
        expect(
          other.filter((k) => !en.includes(k)),
          `${lang}/${ns} has unknown keys`,
        ).toEqual([]);
      }
    });
  }
});
