import { describe, expect, it } from 'vitest';
import { connectionIntervals } from './connections.ts';

describe('connection intervals', () => {
  it('pairs logins with the event that ended them, and leaves the last one open', () => {
    const r = connectionIntervals([
      { time: 't1', event: 'login', remote: 'a:1' },
      { time: 't2', event: 'idle', remote: 'a:1' },
      { time: 't3', event: 'refused', remote: 'x' },
      { time: 't4', event: 'login', remote: 'b:2' },
      { time: 't5', event: 'login', remote: 'c:3' },
    ]);
    expect(r).toEqual([
      { start: 't1', end: 't2', remote: 'a:1', endedBy: 'idle' },
      { start: 't4', end: 't5', remote: 'b:2', endedBy: 'login' },
      { start: 't5', end: null, remote: 'c:3', endedBy: null },
    ]);
  });
  it('ignores ends without a login', () => {
    expect(connectionIntervals([{ time: 't1', event: 'logout', remote: '' }])).toEqual([]);
  });
});
