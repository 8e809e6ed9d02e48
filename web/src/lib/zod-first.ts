import { yieldToBrowser } from '../data/time-slices.ts';

let zod: Promise<void> | undefined;

/**
 * Loads zod (its own chunk, vite.config.ts) and yields a task before whatever builds schemas
 * with it: zod, the horse's schemas and its form evaluated together are one long task on a
 * phone during a start. Once loaded it
 * resolves at once, with no yield.
 */
export function zodFirst(): Promise<void> {
  zod ??= import('./zod-chunk.ts').then(yieldToBrowser, (error: unknown) => {
    zod = undefined; // The next load tries again.
    throw error;
  });
  return zod;
}
