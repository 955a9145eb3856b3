import type { ExtraLanguage } from '../languages.ts';
import type { MessageKey } from '../messages.ts';
import { MESSAGES_EN_IN } from './en-IN.ts';
import { MESSAGES_ES } from './es.ts';
import { MESSAGES_FR } from './fr.ts';
import { MESSAGES_KM } from './km.ts';
import { MESSAGES_MY } from './my.ts';
import { MESSAGES_PT } from './pt.ts';
import { MESSAGES_RU } from './ru.ts';
import { MESSAGES_TH } from './th.ts';
import { MESSAGES_VI } from './vi.ts';

/** Every message of the catalogue in one language (the type makes a missing or unknown key a compile error). */
export type MessageTranslation = Readonly<Record<MessageKey, string>>;

/**
 * The message texts of the nine languages beyond cn and en, merged into MESSAGES by key. en-IN holds only
 * the texts where Indian English differs from en; every other language translates every message.
 */
export const MESSAGE_TRANSLATIONS: {
  readonly [L in ExtraLanguage]: Readonly<Partial<Record<MessageKey, string>>>;
} = {
  vi: MESSAGES_VI,
  fr: MESSAGES_FR,
  pt: MESSAGES_PT,
  'en-IN': MESSAGES_EN_IN,
  es: MESSAGES_ES,
  km: MESSAGES_KM,
  th: MESSAGES_TH,
  ru: MESSAGES_RU,
  my: MESSAGES_MY,
};
