import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundTurn } from './background-turn.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('backgroundTurn', () => {
  it('waits for a task at background priority where the browser schedules by priority', async () => {
    const queued: { task: () => void; priority: string; done: () => void }[] = [];
    vi.stubGlobal('scheduler', {
      postTask: (task: () => void, { priority }: { priority: string }) =>
        new Promise<void>((done) => queued.push({ task, priority, done })),
    });
    let resolved = false;
    const turn = backgroundTurn().then(() => {
      resolved = true;
    });
    expect(queued.map((entry) => entry.priority)).toEqual(['background']);
    await Promise.resolve();
    expect(resolved).toBe(false);
    queued[0]!.task();
    queued[0]!.done();
    await turn;
    expect(resolved).toBe(true);
  });

  it('where there is no scheduler (Safari), waits for a task', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('scheduler', undefined);
    let resolved = false;
    const turn = backgroundTurn().then(() => {
      resolved = true;
    });
    await Promise.resolve();
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    await turn;
    expect(resolved).toBe(true);
  });
});
