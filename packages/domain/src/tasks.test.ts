import { describe, expect, it } from 'vitest';
import { taskProgress } from './tasks.ts';

describe('task item states', () => {
  it('computes progress from counts', () => {
    const p = taskProgress({ pending: 1, sent: 1, success: 2 });
    expect(p.counts.total).toBe(4);
    expect(p.done).toBe(0.5);
    expect(p.finished).toBe(false);
    expect(taskProgress({ success: 3, cancelled: 1 }).finished).toBe(true);
  });
});
