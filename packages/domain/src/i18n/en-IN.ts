import type { MessageKey } from '../messages.ts';

/**
 * Indian English, only where it differs from en (the rest falls back to en, whose spelling is already
 * British). In India a vehicle's registration plate is called its "vehicle number".
 */
export const MESSAGES_EN_IN: Readonly<Partial<Record<MessageKey, string>>> = {
  'device.plateConflict': 'This vehicle number is used by another device, please enter a new one',
  'validation.carNumber': 'Please enter the correct vehicle number',
};
