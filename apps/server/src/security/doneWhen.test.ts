// Issue 12's "Done when", the parts a file can show: the README documents TRUST_PROXY (with an nginx example), the
// NB-IoT callback token, the offline threshold and SECRET_KEY; and no source file carries a shared default password
// (the former one is named only where an old database's accounts are caught by it, and in tests proving it fails).
// The running parts (a fresh `npm start`) are in e2e/fresh-start.e2e.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.tsbuild', 'fixtures', 'screenshots'].includes(e.name) || e.name.startsWith('.'))
      continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|mjs|js|json|sql)$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('issue 12, done when', () => {
  it('the README documents TRUST_PROXY (with an nginx example), the callback token, the offline threshold, SECRET_KEY', () => {
    for (const name of ['TRUST_PROXY', 'NB_CALLBACK_TOKEN', 'OFFLINE_ALARM_MINUTES', 'SECRET_KEY'])
      expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    expect(readme).toMatch(/proxy_set_header\s+X-Forwarded-For/);
  });

  it('no source file sets a shared default password', () => {
    const hits = sources(join(root, 'apps'))
      .concat(sources(join(root, 'packages')), sources(join(root, 'scripts')))
      .filter((f) => !/\.(test|e2e)\.tsx?$/.test(f))
      .filter((f) => /Carhere-123456|DEFAULT_RESET_PASSWORD/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    // Only the detection of accounts still on the former default (they must change it at sign-in).
    expect(hits).toEqual(['apps/server/src/modules/auth/signIn.ts']);
    const signIn = readFileSync(join(root, 'apps/server/src/modules/auth/signIn.ts'), 'utf8');
    expect(signIn.match(/Carhere-123456/g)).toHaveLength(1);
    expect(signIn).toMatch(/password === LEGACY_DEFAULT_PASSWORD && !user\.must_change_password/);
  });
});
