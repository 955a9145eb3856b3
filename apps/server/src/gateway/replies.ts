// A device's command reply as text, and its form, for classifyCommandReply (packages/domain). Shared by the
// TCP dispatcher and the NB-IoT commands.
import type { CommandReplyForm } from '@carhere/domain';
import type { CommandReply } from '@carhere/protocols';

/** JT/T 808 general response results as reply text (the spec classifies replies by text). */
const GENERAL_RESPONSE_TEXT = ['OK', 'failure', 'message error', 'not supported', 'alarm acknowledged OK'];

export function replyText(reply: CommandReply): string {
  if (reply.text) return reply.text;
  if (reply.result !== undefined) return GENERAL_RESPONSE_TEXT[reply.result] ?? `result ${reply.result}`;
  return '';
}

/** How the reply came back: a data answer, a text, or a bare 0x0001 acknowledgement. */
export function replyForm(reply: CommandReply): CommandReplyForm {
  if (reply.data) return 'data';
  if (!reply.text && reply.result !== undefined) return 'ack';
  return 'text';
}
