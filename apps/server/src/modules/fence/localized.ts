// Texts the domain catalogue does not carry, kept by the module that answers with them (cn and en; the
// other languages read the English text). `localizedError` translates at once into the caller's language.
import { interpolate, isMessageKey, type MessageParams } from '@carhere/domain';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';

export interface LocalText {
  cn: string;
  en: string;
}

export type LocalTexts = Record<string, LocalText>;

export function localText(texts: LocalTexts, key: string, lang: string, params: MessageParams = {}): string {
  const entry = texts[key];
  if (!entry) return isMessageKey(key) ? translate(key, lang, params) : key;
  return interpolate(lang === 'cn' ? entry.cn : entry.en, params);
}

/** An ApiError whose message is already in the caller's language (code = HTTP status). */
export function localizedError(
  req: FastifyRequest,
  texts: LocalTexts,
  key: string,
  status = 400,
  params: MessageParams = {},
): ApiError {
  return new ApiError(status, localText(texts, key, callerLang(req), params), status);
}
