// The caller's language and message translation for API answers.
import type { FastifyRequest } from 'fastify';
import { resolveMessage } from './messages.ts';

const SUPPORTED = ['cn', 'en', 'vi', 'fr', 'pt', 'en-IN', 'es', 'km', 'th', 'ru', 'my'];

/** The `lang` header the web sends, else the session user's language, else Accept-Language, else cn. */
export function callerLang(req: FastifyRequest): string {
  const header = req.headers.lang;
  if (typeof header === 'string' && SUPPORTED.includes(header)) return header;
  if (req.user?.lang && SUPPORTED.includes(req.user.lang)) return req.user.lang;
  const accept = String(req.headers['accept-language'] ?? '').toLowerCase();
  if (accept.startsWith('zh')) return 'cn';
  if (accept) {
    const first = accept.split(',')[0].split(';')[0].trim();
    const exact = SUPPORTED.find((l) => l.toLowerCase() === first);
    if (exact) return exact;
    const base = SUPPORTED.find((l) => l === first.split('-')[0]);
    if (base) return base;
    return 'en';
  }
  return 'cn';
}

export function translate(key: string, lang: string, params: Record<string, string | number> = {}): string {
  return resolveMessage(key, lang, params);
}
