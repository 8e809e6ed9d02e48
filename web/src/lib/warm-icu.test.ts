// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A worker that does nothing until told to answer or fail (jsdom has no Worker). */
class StandInWorker {
  static made: StandInWorker[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  terminated = false;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    StandInWorker.made.push(this);
  }
  terminate() {
    this.terminated = true;
  }
}

/** lib/warm-icu.ts as a fresh page loads it (its promise is once per page). */
const freshModule = async () => {
  vi.resetModules();
  return import('./warm-icu.ts');
};

/** Whether `promise` has settled after the tasks queued so far. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

beforeEach(() => {
  StandInWorker.made = [];
  vi.stubGlobal('Worker', StandInWorker);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('warmIcu', () => {
  it('starts one module worker per page, resolves when it answers, and stops it', async () => {
    vi.useFakeTimers(); // No wait runs out here: only the answer settles it.
    const { warmIcu } = await freshModule();
    const warming = warmIcu();
    expect(warmIcu()).toBe(warming);
    expect(StandInWorker.made).toHaveLength(1);
    const [worker] = StandInWorker.made;
    expect(worker!.url.pathname).toMatch(/warm-icu\.worker\.ts$/);
    expect(worker!.options.type).toBe('module');
    expect(await settled(warming)).toBe(false);
    worker!.onmessage!(new MessageEvent('message', { data: null }));
    await warming;
    expect(worker!.terminated).toBe(true);
  });

  it('resolves when the worker fails, so the forms make their own formats', async () => {
    const { warmIcu } = await freshModule();
    const warming = warmIcu();
    StandInWorker.made[0]!.onerror!(new Event('error'));
    await expect(warming).resolves.toBeUndefined();
    expect(StandInWorker.made[0]!.terminated).toBe(true);
  });

  it('stops waiting for a worker that never answers', async () => {
    vi.useFakeTimers();
    const { warmIcu, ICU_WORKER_WAIT_MS } = await freshModule();
    const warming = warmIcu();
    await vi.advanceTimersByTimeAsync(ICU_WORKER_WAIT_MS - 1);
    expect(await settled(warming)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(warming).resolves.toBeUndefined();
    expect(StandInWorker.made[0]!.terminated).toBe(true);
  });

  it('resolves at once where there are no workers, or one cannot start', async () => {
    vi.stubGlobal('Worker', undefined);
    await expect((await freshModule()).warmIcu()).resolves.toBeUndefined();
    vi.stubGlobal(
      'Worker',
      class {
        constructor() {
          throw new DOMException('blocked', 'SecurityError');
        }
      },
    );
    await expect((await freshModule()).warmIcu()).resolves.toBeUndefined();
  });
});
