import { describe, expect, it } from 'vitest';
import { MemoryBus } from './memory.ts';

describe('MemoryBus', () => {
  it('delivers exact and prefix subscriptions and stops after unsubscribe', () => {
    const bus = new MemoryBus();
    const got: string[] = [];
    const off = bus.subscribe('device.position', (p, s) => got.push(`exact:${s}:${p}`));
    bus.subscribe('device.>', (p, s) => got.push(`prefix:${s}:${p}`));
    bus.publish('device.position', 1);
    bus.publish('device.alarm', 2);
    bus.publish('user.changed', 3);
    off();
    bus.publish('device.position', 4);
    expect(got).toEqual([
      'exact:device.position:1',
      'prefix:device.position:1',
      'prefix:device.alarm:2',
      'prefix:device.position:4',
    ]);
  });

  it('keeps delivering to other handlers when one throws', () => {
    const errors: string[] = [];
    const bus = new MemoryBus((_e, s) => errors.push(s));
    const got: number[] = [];
    bus.subscribe('a', () => {
      throw new Error('boom');
    });
    bus.subscribe('a', (p) => got.push(p as number));
    bus.publish('a', 7);
    expect(got).toEqual([7]);
    expect(errors).toEqual(['a']);
  });
});
