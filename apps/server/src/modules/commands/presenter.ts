// Command records as the API returns them (spec §3: type, content, reply, sender, send time, execute time).
import { commandLabel } from '@carhere/domain';
import { z } from 'zod';
import { oilOutcomeSchema, oilOutcomeView } from '../deviceTypes/oil.ts';
import type { CommandRow } from './store.ts';

export const commandSchema = z.object({
  id: z.string(),
  terminalID: z.string(),
  /** The command's label in the caller's language (from the command catalogue), or the command word. */
  type: z.string(),
  content: z.string(),
  mode: z.enum(['live', 'offline', 'manual']),
  status: z.enum(['pending', 'sent', 'answered', 'timeout', 'failed', 'expired', 'cancelled']),
  /** 1 success, 2 timeout, 3 error */
  result: z.number().nullable(),
  reply: z.string().nullable(),
  sender: z.string(),
  attempts: z.number(),
  createdAt: z.string(),
  sendTime: z.string().nullable(),
  executeTime: z.string().nullable(),
  expiresAt: z.string().nullable(),
  oil: oilOutcomeSchema.optional(),
  /** Recordings this command produced (record audio): their ids for /recording/file. */
  recordings: z.array(z.string()).optional(),
});
export type CommandRecord = z.infer<typeof commandSchema>;

export const commandResultSchema = z.object({
  commandId: z.string(),
  terminalID: z.string(),
  status: z.enum(['pending', 'sent', 'answered', 'timeout', 'failed', 'expired', 'cancelled', 'refused']),
  result: z.number().nullable(),
  reply: z.string().nullable(),
  /** What to tell the user, in the caller's language. */
  message: z.string(),
  oil: oilOutcomeSchema.optional(),
});
export type CommandResult = z.infer<typeof commandResultSchema>;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function presentCommand(r: CommandRow, lang: string): CommandRecord {
  return {
    id: String(r.id),
    terminalID: r.terminal_id,
    type: commandLabel(r.content, lang),
    content: r.content,
    mode: r.mode,
    status: r.status,
    result: r.result,
    reply: r.reply,
    sender: r.sender_name,
    attempts: r.attempts,
    createdAt: new Date(r.created_at).toISOString(),
    sendTime: iso(r.sent_at),
    executeTime: iso(r.answered_at),
    expiresAt: iso(r.expires_at),
    oil: oilOutcomeView(r.content, r.reply, lang, r.status === 'timeout'),
  };
}
