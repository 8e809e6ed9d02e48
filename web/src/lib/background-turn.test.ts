import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundTurn, FOREGROUND_HOLD_MS, inForeground } from './background-turn.ts';

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

describe('inForeground', () => {
  it('holds background turns until the work the person waits for has settled, failed or not', async () => {
    vi.stubGlobal('scheduler', undefined);
    let save!: () => void;
    let fail!: (error: Error) => void;
    const saved = inForeground(new Promise<void>((resolve) => (save = resolve)));
    const failed = inForeground(new Promise<void>((_, reject) => (fail = reject)));
    failed.catch(() => {});
    let turned = false;
    const turn = backgroundTurn().then(() => {
      turned = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(turned).toBe(false);
    fail(new Error('refused'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // One of the two is still under way.
    expect(turned).toBe(false);
    save();
    await saved;
    await turn;
    expect(turned).toBe(true);
  });

  it('holds them back for FOREGROUND_HOLD_MS at most, for work that waits long (an edit during a start)', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('scheduler', undefined);
    inForeground(new Promise<void>(() => {}));
    let turned = false;
    void backgroundTurn().then(() => {
      turned = true;
    });
    await vi.advanceTimersByTimeAsync(FOREGROUND_HOLD_MS - 1);
    expect(turned).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(turned).toBe(true));
  });

  it('returns the work itself, so its caller sees its answer', async () => {
    await expect(inForeground(Promise.resolve('horse-1'))).resolves.toBe('horse-1');
    await expect(inForeground(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});
