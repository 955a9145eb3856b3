import type { DecodeResult, ProtocolError, ProtocolErrorCode } from './types.ts';

/**
 * Thrown inside decoders when the input is malformed; always caught at the decoder's entry point and
 * turned into `{ ok: false, error }`. It never escapes the package.
 */
export class DecodeError extends Error {
  readonly code: ProtocolErrorCode;

  constructor(code: ProtocolErrorCode, message: string) {
    super(message);
    this.name = 'DecodeError';
    this.code = code;
  }
}

export function failure(code: ProtocolErrorCode, message: string): DecodeResult {
  return { ok: false, error: { code, message } };
}

/** Converts anything a decoder threw into an error value; anything but a DecodeError is a bug ('internal'). */
export function errorFromThrown(thrown: unknown): ProtocolError {
  if (thrown instanceof DecodeError) return { code: thrown.code, message: thrown.message };
  const text = thrown instanceof Error ? thrown.message : String(thrown);
  return { code: 'internal', message: `internal decoder error: ${text}` };
}
