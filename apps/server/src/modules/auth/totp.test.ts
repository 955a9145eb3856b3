import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, generateTotpSecret, hotp, matchTotp, otpauthUri, totp } from './totp.ts';

// RFC 6238 appendix B, SHA-1 rows: seed "12345678901234567890", 8 digits, 30-second steps.
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 SHA-1 test vectors', () => {
    for (const [seconds, code] of RFC_VECTORS) expect(totp(RFC_SEED, seconds * 1000, 8), String(seconds)).toBe(code);
  });

  it('matches the RFC 4226 HOTP test values', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    for (const [counter, code] of expected.entries()) expect(hotp(RFC_SEED, counter)).toBe(code);
  });

  it('base32 round-trips and decodes the RFC 4648 example', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
  });

  it('accepts a code one step either side, refuses two steps away, wrong codes and replays', () => {
    const secret = base32Encode(RFC_SEED);
    const t = 1111111111 * 1000;
    const step = Math.floor(1111111111 / 30);
    const now = totp(RFC_SEED, t);
    expect(matchTotp(secret, now, t)).toBe(step);
    expect(matchTotp(secret, totp(RFC_SEED, t - 30_000), t)).toBe(step - 1);
    expect(matchTotp(secret, totp(RFC_SEED, t + 30_000), t)).toBe(step + 1);
    expect(matchTotp(secret, totp(RFC_SEED, t - 60_000), t)).toBeNull();
    expect(matchTotp(secret, '12345', t)).toBeNull();
    expect(matchTotp(secret, now, t, step)).toBeNull(); // already used
  });

  it('builds an otpauth URI with the secret, issuer and parameters', () => {
    const uri = otpauthUri('Carhere', 'bob', 'ABC');
    expect(uri.startsWith('otpauth://totp/Carhere%3Abob?')).toBe(true);
    const params = new URL(uri).searchParams;
    expect(params.get('secret')).toBe('ABC');
    expect(params.get('issuer')).toBe('Carhere');
    expect(params.get('digits')).toBe('6');
    expect(params.get('period')).toBe('30');
  });
});
