import oilData from './catalogues/data/oil-control-replies.json' with { type: 'json' };
import { isNbIotModel } from './catalogues/deviceModels.ts';
import type { MessageKey } from './messages.ts';

/** The normal-mode command, pointless for a device that is already online (spec §4). */
export const NORMAL_MODE_COMMAND = 'SWMODE,0#';

export function isNormalModeCommand(content: string): boolean {
  return content.trim().toUpperCase() === NORMAL_MODE_COMMAND;
}

export type CommandDecision =
  | { readonly action: 'refuse'; readonly message: MessageKey }
  | { readonly action: 'offline' }
  | { readonly action: 'live' };

/**
 * How to send a command (spec §4), checked in this order: an empty text is refused; an NB-IoT device
 * without a deviceId is refused ('Cannot find deviceId for this device'); 'SWMODE,0#' to an online
 * device is refused; an offline device gets an offline command (queued, resent at the next
 * connection) unless the caller does not allow that ('Offline devices can't send instructions!');
 * otherwise it is sent live.
 */
export function decideCommandSend(input: {
  content: string;
  online: boolean;
  /** location.deviceProtocol (device model code). */
  deviceModel?: number | null;
  deviceId?: string | null;
  offlineAllowed?: boolean;
}): CommandDecision {
  if (typeof input.content !== 'string' || input.content.trim() === '') {
    return { action: 'refuse', message: 'command.empty' };
  }
  if (isNbIotModel(input.deviceModel) && !input.deviceId?.trim()) {
    return { action: 'refuse', message: 'command.nbDeviceIdMissing' };
  }
  if (input.online && isNormalModeCommand(input.content)) {
    return { action: 'refuse', message: 'command.onlineNormalMode' };
  }
  if (!input.online) {
    return input.offlineAllowed === false
      ? { action: 'refuse', message: 'command.offlineNotAllowed' }
      : { action: 'offline' };
  }
  return { action: 'live' };
}

/** Command result codes (spec §4). */
export const COMMAND_RESULT = { success: 1, timeout: 2, error: 3 } as const;
export type CommandResultCode = (typeof COMMAND_RESULT)[keyof typeof COMMAND_RESULT];

/** A reply containing any of these (case-sensitive, as the spec lists them) is a success. */
export const COMMAND_SUCCESS_MARKERS = ['OK', 'ok', 'Success', 'successfully', 'Already', 'success'] as const;
export const COMMAND_TIMEOUT_MARKER = 'timeout';

/**
 * 1 success when the reply contains a success marker, else 2 timeout when it contains 'timeout',
 * else 3 error (an empty or missing reply included). Markers are plain substrings, as in the spec.
 */
export function classifyCommandResult(reply: string | null | undefined): CommandResultCode {
  const text = typeof reply === 'string' ? reply : '';
  if (COMMAND_SUCCESS_MARKERS.some((marker) => text.includes(marker))) return COMMAND_RESULT.success;
  if (text.includes(COMMAND_TIMEOUT_MARKER)) return COMMAND_RESULT.timeout;
  return COMMAND_RESULT.error;
}

/**
 * Query commands: they ask the device for data (its status, parameters, position, version …) and take no
 * arguments. Their answer is the data itself, which carries none of the success words.
 */
export const QUERY_COMMANDS = [
  'STATUS',
  'PARAM',
  'WHERE',
  'VERSION',
  'GPRSSET',
  'URL',
  'ICCID',
  'IMEI',
  'CHECK',
  'SCXSZ',
] as const;

/** True for a query command ('STATUS#', 'where#', 'PARAM' …): a known query word with no arguments. */
export function isQueryCommand(content: string | null | undefined): boolean {
  if (typeof content !== 'string') return false;
  const word = content.trim().toUpperCase().replace(/#$/, '');
  return (QUERY_COMMANDS as readonly string[]).includes(word);
}

/**
 * How a reply came back: 'text' a text reply (GT06 0x15/0x21, JT/T 808 0x0300/0x6006 …), 'data' a data
 * answer to a data request (JT/T 808 0x0104 parameters, 0x0201 position), 'ack' a bare acknowledgement
 * whose text only names its result (JT/T 808 0x0001).
 */
export type CommandReplyForm = 'text' | 'data' | 'ack';

/**
 * The result of a device's reply to a command. Departs on purpose from the spec's §4 word rule, which was
 * written for setting commands: a data reply (form 'data', or any non-empty text answer to a query command
 * such as STATUS# / PARAM# / WHERE#) is a success with the reply as its text. Setting commands, and a bare
 * acknowledgement of a query, keep the word rule (classifyCommandResult). Used on every reply path (live,
 * offline queue, NB-IoT, replies recorded through the API).
 */
export function classifyCommandReply(input: {
  content: string | null | undefined;
  reply: string | null | undefined;
  form?: CommandReplyForm;
}): CommandResultCode {
  const text = typeof input.reply === 'string' ? input.reply.trim() : '';
  const form = input.form ?? 'text';
  if (text !== '' && form === 'data') return COMMAND_RESULT.success;
  if (text !== '' && form === 'text' && isQueryCommand(input.content)) return COMMAND_RESULT.success;
  return classifyCommandResult(input.reply);
}

/** Oil/electric relay reply substrings → message, in the order of data/oil-control-replies.json. */
const OIL_MESSAGE_BY_SUBSTRING: Readonly<Record<string, MessageKey>> = {
  timeout: 'oil.timeout',
  'RELAY,ERROR:103': 'oil.parameterError',
  'RELAY,ERROR:104': 'oil.commandError',
  'has been cut': 'oil.alreadyCut',
  'GPS has Not FIXED': 'oil.gpsNotFixed',
  Resume: 'oil.alreadyResumed',
  'control oil Failed': 'oil.controlFailed',
  'supply cut off': 'oil.supplyCutOff',
  'supply to resume': 'oil.supplyResumed',
  fail: 'oil.controlFailed',
};

const OIL_RULES: readonly { readonly contains: string; readonly message: MessageKey }[] = oilData.replies.map(
  (reply) => {
    const message = OIL_MESSAGE_BY_SUBSTRING[reply.contains];
    if (!message) throw new Error(`oil-control-replies.json entry without a message: ${reply.contains}`);
    return { contains: reply.contains, message };
  },
);

/** The reference's five success markers for the relay command (no lowercase 'success'). */
export const OIL_SUCCESS_MARKERS: readonly string[] = oilData.success_markers;

export interface OilControlOutcome {
  readonly outcome: 'success' | 'timeout' | 'failure';
  /** What to tell the user, most specific first; never empty. */
  readonly messages: readonly MessageKey[];
}

/**
 * Reading of a reply to RELAY,1# / RELAY,0#: success markers first; otherwise every matching failure
 * text in the reference order (a reply may match several), or a generic failure when none match.
 * No reply at all is 'oil.noResponse'.
 */
export function oilControlOutcome(reply: string | null | undefined): OilControlOutcome {
  if (typeof reply !== 'string') return { outcome: 'failure', messages: ['oil.noResponse'] };
  if (OIL_SUCCESS_MARKERS.some((marker) => reply.includes(marker))) {
    return { outcome: 'success', messages: ['oil.success'] };
  }
  const matched = [...new Set(OIL_RULES.filter((rule) => reply.includes(rule.contains)).map((rule) => rule.message))];
  const outcome = reply.includes(COMMAND_TIMEOUT_MARKER) ? 'timeout' : 'failure';
  return { outcome, messages: matched.length > 0 ? matched : ['oil.controlFailed'] };
}
