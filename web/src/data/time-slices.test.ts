import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeSlices } from './time-slices.ts';

afterEach(() => vi.useRealTimers());

describe('time slices', () => {
  it('is due once the budget is used, and pausing lets queued tasks run first', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout'] });
    const slices = timeSlices(8);
    expect(slices.due()).toBe(false);
    vi.advanceTimersByTime(8);
    expect(slices.due()).toBe(true);
    let ran = false;
    setTimeout(() => (ran = true), 0);
    const paused = slices.pause();
    await vi.runAllTimersAsync();
    await paused;
    expect(ran).toBe(true);
    expect(slices.due()).toBe(false);
  });
});
