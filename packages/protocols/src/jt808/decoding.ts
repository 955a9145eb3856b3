import type { AlarmName } from '../alarms.ts';
import type { Attributes, DecodedMessage } from '../types.ts';
import type { Jt808Context } from './context.ts';
import type { Jt808Header } from './frame.ts';

/** Working state while one JT/T 808 message is decoded. */
export interface Jt808Decoding {
  ctx: Jt808Context;
  header: Jt808Header;
  message: DecodedMessage;
  /** Device model in upper case, or ''. */
  model: string;
  /** Attributes for a message without a fix. */
  attributes: Attributes;
  alarms: AlarmName[];
  /** Result code for the 0x8001 general response; null = no general response. */
  generalResult: number | null;
}
