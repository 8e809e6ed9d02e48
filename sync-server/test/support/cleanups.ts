import { afterEach } from 'vitest';

export type Cleanups = {
  /** Runs `cleanup` after the current test, after everything deferred later (last in, first out). */
  defer(cleanup: () => Promise<void> | void): void;
  /** Destroys `device` after the current test. */
  track<T extends { destroy(): void }>(device: T): T;
};

/** What each test of the calling `describe` leaves behind, undone after it even when it fails. */
export function cleanupsAfterEach(): Cleanups {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    defer: (cleanup) => void cleanups.push(cleanup),
    track(device) {
      cleanups.push(() => device.destroy());
      return device;
    },
  };
}
