// Account import lines: "username[,password[,nickname[,telephone]]]", one account per line, blank lines skipped.
import type { UserImportRow } from './api.ts';

export function parseAccountLines(text: string, role: number): UserImportRow[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [username = '', password = '', nickname = '', telephone = ''] = line.split(/[,;\t]/).map((p) => p.trim());
      return {
        username,
        role,
        ...(password ? { password } : {}),
        ...(nickname ? { nickname } : {}),
        ...(telephone ? { telephone } : {}),
      };
    });
}
