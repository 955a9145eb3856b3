import type { AlarmName } from '../alarms.ts';
import type { Attributes, DecodedMessage, Position } from '../types.ts';
import type { Gt06Context } from './context.ts';
import type { Gt06FrameLayout } from './frame.ts';
import type { Gt06Variant } from './variant.ts';

/** Working state while one GT06 frame is decoded. */
export interface Gt06Decoding {
  ctx: Gt06Context;
  frame: Uint8Array;
  layout: Gt06FrameLayout;
  message: DecodedMessage;
  /** Attributes of the report; they go to the position if there is one, else to the message. */
  attributes: Attributes;
  alarms: AlarmName[];
  position: Position | null;
  /** Minutes east of UTC for device-local times. */
  timeZone: number;
  variant: Gt06Variant;
  /** Device model (upper case) or ''. */
  model: string;
  /** LW-series models reuse some codes. */
  lwModel: boolean;
  /** Send the standard ACK (same protocol number and serial, no content). */
  ack: boolean;
}
