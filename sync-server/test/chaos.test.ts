import { describe, expect, it } from 'vitest';
import { npmRun } from './support/npm-run.ts';

/**
 * A short seeded run of the fault suite through its own command, `npm run chaos`
 * (docs/architecture.md "The fault suite"): 3 runs of 2 s of faults each (at least one
 * fault per run), each on PGlite or, when DATABASE_URL is set, on the database its seed
 * picks. `npm run test:full` runs the 50 long runs. A failure prints the seed; replay it
 * with `CHAOS_SEED=… CHAOS_RUNS=1 npm run chaos`.
 */
const RUNS = 3;

describe('the fault suite, short', () => {
  it('[Y9] [X2] loses nothing acknowledged, converges and comes back by itself through seeded faults', { timeout: 240_000 }, async () => {
    const seed = process.env.CHAOS_SEED ?? '20261123';
    const { code, output } = await npmRun('chaos', [], {
      CHAOS_SEED: seed,
      CHAOS_RUNS: String(RUNS),
      CHAOS_FAULT_SECONDS: '2',
      CHAOS_DEVICES: '3',
      CHAOS_FAULTS: undefined,
      CHAOS_KINDS: undefined,
    });
    const runs = [
      ...output.matchAll(/^run \d+\/\d+ seed (\d+) \w+: (\d+) faults, (\d+)\/(\d+) acknowledged, (\d+) lost, (\d+) violations/gm),
    ].map(([, runSeed, faults, acknowledged, , lost, violations]) => ({
      seed: Number(runSeed),
      faults: Number(faults),
      acknowledged: Number(acknowledged),
      lost: Number(lost),
      violations: Number(violations),
    }));
    expect(runs, output).toHaveLength(RUNS);
    expect(
      runs.filter((run) => run.lost > 0 || run.violations > 0),
      output,
    ).toEqual([]);
    expect(
      runs.every((run) => run.faults > 0 && run.acknowledged > 0),
      output,
    ).toBe(true);
    expect(code, output).toBe(0);
  });
});
