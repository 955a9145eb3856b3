import { describe, expect, it } from 'vitest';
import { scopeBody } from './api.ts';

describe('statistics scope', () => {
  it('chosen devices win, then an account with or without its sub-accounts, else the caller’s subtree', () => {
    expect(scopeBody({ terminalIDs: ['1', '2'], userId: '7' })).toEqual({ terminalIDs: ['1', '2'] });
    expect(scopeBody({ terminalIDs: [], userId: '7', children: false })).toEqual({ userId: '7', children: false });
    expect(scopeBody({ userId: '7' })).toEqual({ userId: '7', children: true });
    expect(scopeBody({})).toEqual({});
  });
});
