// Spec §4's send flow as the web sees it: the answer of /api/command/add becomes one of four outcomes.
// A timeout offers to keep the command as an offline command (/api/command/insertOffline {commandId}).
import { decideCommandSend, type MessageKey } from '@carhere/domain';
import type { OilOutcomeView } from '../deviceTypes/OilOutcome.tsx';

export interface CommandResult {
  commandId: string;
  terminalID: string;
  status: 'pending' | 'sent' | 'answered' | 'timeout' | 'failed' | 'expired' | 'cancelled' | 'refused';
  /** 1 success, 2 timeout, 3 error */
  result: number | null;
  reply: string | null;
  message: string;
  /** The oil / electricity control reading of the reply (spec §4), for RELAY commands. */
  oil?: OilOutcomeView | null;
}

export type SendOutcome =
  | { kind: 'success'; message: string; reply: string | null; oil?: OilOutcomeView | null }
  | { kind: 'queued'; message: string; commandId: string }
  | { kind: 'timeout'; message: string; commandId: string }
  | { kind: 'error'; message: string; reply: string | null; oil?: OilOutcomeView | null };

export function sendOutcome(meta: { success: boolean; message: string }, data: CommandResult | null): SendOutcome {
  if (!data) return { kind: 'error', message: meta.message, reply: null };
  const message = data.message || meta.message;
  if (data.status === 'pending' && data.result === null) return { kind: 'queued', message, commandId: data.commandId };
  if (data.result === 1) return { kind: 'success', message, reply: data.reply, oil: data.oil };
  if (data.result === 2 || data.status === 'timeout') return { kind: 'timeout', message, commandId: data.commandId };
  return { kind: 'error', message, reply: data.reply, oil: data.oil };
}

/** Checked before sending, with the domain rule: an empty text, or 'SWMODE,0#' to an online device. */
export function refusalBeforeSend(
  content: string,
  device: { online: boolean; deviceProtocol: number },
): MessageKey | null {
  const decision = decideCommandSend({
    content,
    online: device.online,
    deviceModel: device.deviceProtocol,
    // The NB-IoT deviceId is known to the server only; it answers that case itself.
    deviceId: 'checked-by-server',
  });
  return decision.action === 'refuse' ? decision.message : null;
}
