// Oil and electricity control replies (spec §4) as every command path shows them: the domain's
// oilControlOutcome, translated, for a RELAY / BRELAY command that has a reply (or timed out).
import { isOilControlCommand, oilControlOutcome } from '@carhere/domain';
import { z } from 'zod';
import { translate } from '../../http/i18n.ts';

export const oilOutcomeSchema = z
  .object({
    outcome: z.enum(['success', 'timeout', 'failure']),
    /** The spec's texts, most specific first, in the caller's language. */
    messages: z.array(z.string()),
  })
  .nullable()
  .describe('The reading of an oil / electricity cut or restore reply (spec §4); null for other commands');
export type OilOutcomeView = z.infer<typeof oilOutcomeSchema>;

export function oilOutcomeView(
  content: string | null | undefined,
  reply: string | null | undefined,
  lang: string,
  timedOut = false,
): OilOutcomeView {
  if (!isOilControlCommand(content)) return null;
  if ((reply === null || reply === undefined) && !timedOut) return null;
  const read = oilControlOutcome(reply ?? (timedOut ? 'timeout' : null));
  return { outcome: read.outcome, messages: read.messages.map((m) => translate(m, lang)) };
}
