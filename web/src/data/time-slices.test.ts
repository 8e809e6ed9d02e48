import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeSlices, yieldBehindQueued } from './time-slices.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

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

  it('in the data worker, pauses behind the tasks already queued, though scheduler.yield() would resume ahead of them', async () => {
    // Chromium's scheduler.yield() resumes before tasks queued earlier; here, at once.
    vi.stubGlobal('scheduler', { yield: () => Promise.resolve() });
    const ran: string[] = [];
    const queued = (name: string) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        ran.push(name);
      };
      channel.port2.postMessage(null);
    };
    queued('an answer from IndexedDB');
    await timeSlices(8).pause();
    expect(ran).toEqual([]);
    await timeSlices(8, yieldBehindQueued).pause();
    expect(ran).toEqual(['an answer from IndexedDB']);
  });
});
