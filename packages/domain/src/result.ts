import type { MessageKey, MessageParams } from './messages.ts';

/** A refusal: the message key (see MESSAGES) and the values of its placeholders. */
export interface Refusal {
  readonly ok: false;
  readonly message: MessageKey;
  readonly params?: MessageParams;
}

/** Outcome of a rule that only says yes or no. */
export type RuleResult = { readonly ok: true } | Refusal;

/** Outcome of a validator: the accepted (normalised) value, or a refusal. */
export type Validated<T> = { readonly ok: true; readonly value: T } | Refusal;

export const ALLOWED: RuleResult = Object.freeze({ ok: true });

export function refuse(message: MessageKey, params?: MessageParams): Refusal {
  return params === undefined ? { ok: false, message } : { ok: false, message, params };
}

export function accept<T>(value: T): Validated<T> {
  return { ok: true, value };
}
