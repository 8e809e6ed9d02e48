import fc from 'fast-check';
import { scenario, type FuzzHarness } from './harness.ts';

export type FuzzOptions = {
  runs: number;
  maxSteps: number;
  seed: number;
  path?: string;
  /** Time for runs and shrinking together; fast-check then reports the shortest failure it has. */
  timeLimitMs: number;
  /** Only violations this accepts fail a run (default: FUZZ_FOCUS, else every violation). */
  focus?: (violation: string) => boolean;
};

/**
 * FUZZ_FOCUS: only violations containing this text fail a run, so shrinking looks for the
 * shortest sequence of that failure and not of another one met on the way (triage only).
 */
const FOCUS = process.env.FUZZ_FOCUS ?? '';

/**
 * The seed and path of a run from the environment (FUZZ_SEED, FUZZ_PATH), else `fallback`
 * (the test suite's fixed seed), else a fresh seed (the long run meets new cases each time).
 */
export function seedFromEnv(fallback?: number): { seed: number; path?: string } {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : (fallback ?? Date.now() ^ (Math.random() * 0x7fffffff));
  return process.env.FUZZ_PATH ? { seed, path: process.env.FUZZ_PATH } : { seed };
}

/**
 * Runs the fuzz property: `runs` scenarios through `harness`, a failing one shrunk to the
 * shortest step list that still fails. Returns fast-check's report (seed, path,
 * counterexample and the violations of the shortest failure) or null when all held.
 */
export async function fuzz(harness: FuzzHarness, options: FuzzOptions): Promise<string | null> {
  const property = fc.asyncProperty(scenario(options.maxSteps), async (steps) => {
    const focus = options.focus ?? ((violation: string) => !FOCUS || violation.includes(FOCUS));
    const violations = (await harness.run(steps)).filter(focus);
    if (violations.length > 0) throw new Error(`${violations.length} violation(s):\n  ${violations.slice(0, 20).join('\n  ')}`);
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed: options.seed,
    ...(options.path ? { path: options.path } : {}),
    interruptAfterTimeLimit: options.timeLimitMs,
    markInterruptAsFailure: false,
    endOnFailure: false,
  });
  if (!details.failed) return null;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return [
    `Sync fuzzer found a violation. Replay: FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ''}`,
    `Shortest failing sequence (${details.numShrinks} shrinks): ${fc.stringify(details.counterexample?.[0])}`,
    error,
  ].join('\n');
}
