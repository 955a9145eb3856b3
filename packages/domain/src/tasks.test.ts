import { describe, expect, it } from 'vitest';
import { COMMAND_RESULT } from './commands.ts';
import { taskProgress, taskStateOfCommand, taskStateOfResult } from './tasks.ts';

describe('task item states', () => {
  it('maps the spec result codes 1 / 2 / 3 to success / timeout / failed', () => {
    expect(taskStateOfResult(COMMAND_RESULT.success)).toBe('success');
    expect(taskStateOfResult(COMMAND_RESULT.timeout)).toBe('timeout');
    expect(taskStateOfResult(COMMAND_RESULT.error)).toBe('failed');
  });

  it('maps command statuses onto the item states', () => {
    expect(taskStateOfCommand('pending', null)).toBe('pending');
    expect(taskStateOfCommand('sent', null)).toBe('sent');
    expect(taskStateOfCommand('answered', 1)).toBe('success');
    expect(taskStateOfCommand('answered', 2)).toBe('timeout');
    expect(taskStateOfCommand('answered', 3)).toBe('failed');
    expect(taskStateOfCommand('answered', null)).toBe('success');
    expect(taskStateOfCommand('expired', null)).toBe('timeout');
    expect(taskStateOfCommand('cancelled', null)).toBe('cancelled');
    expect(taskStateOfCommand('failed', 3)).toBe('failed');
  });

  it('computes progress from counts', () => {
    const p = taskProgress({ pending: 1, sent: 1, success: 2 });
    expect(p.counts.total).toBe(4);
    expect(p.done).toBe(0.5);
    expect(p.finished).toBe(false);
    expect(taskProgress({ success: 3, cancelled: 1 }).finished).toBe(true);
  });
});
