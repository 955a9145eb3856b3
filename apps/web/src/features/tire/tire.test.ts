import { describe, expect, it } from 'vitest';
import { wheelColor, wheelsByPosition } from './wheels.ts';

const wheel = (index: number, position: string | null, statuses: string[]) => ({
  index,
  position,
  pressure: 250,
  temperature: 30,
  statuses,
});

describe('tyre wheels', () => {
  it('places wheels by position name, else by index', () => {
    const placed = wheelsByPosition([wheel(0, 'rightRear', ['normal']), wheel(1, null, ['lowPressure'])]);
    expect(placed.rightRear?.index).toBe(0);
    expect(placed.rightFront?.index).toBe(1);
    expect(placed.leftFront).toBeNull();
  });

  it('colours by the worst status', () => {
    expect(wheelColor(wheel(0, null, ['normal']))).toBe('#52c41a');
    expect(wheelColor(wheel(0, null, ['airLeak', 'lowPower']))).toBe('#ff4d4f');
    expect(wheelColor(wheel(0, null, ['lowPressure']))).toBe('#fa8c16');
    expect(wheelColor(null)).toBe('#d9d9d9');
  });
});
