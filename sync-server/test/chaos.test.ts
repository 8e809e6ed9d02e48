import { describe, expect, it } from 'vitest';
import { chaosRun, type RunResult } from '../chaos/run.ts';
import { databaseKinds } from './support/databases.ts';

/**
 * A short seeded run of the fault suite (`npm run chaos`, docs/architecture.md "The fault
 * suite"): 3 runs of 2 s of faults each (at least one fault per run), on PGlite and on Postgres when DATABASE_URL is set.
 * CHAOS_SEED replays a failure here or with `CHAOS_SEED=… CHAOS_RUNS=1 npm run chaos`.
 */
describe('the fault suite, short', () => {
  it('[Y9] [X2] loses nothing acknowledged, converges and comes back by itself through seeded faults', { timeout: 150_000 }, async () => {
    const seed = Number(process.env.CHAOS_SEED ?? 20261123);
    const results: RunResult[] = [];
    for (let index = 0; index < 3; index++) {
      results.push(await chaosRun(seed + index, { kinds: databaseKinds(), faultSeconds: 2, devices: 3 }));
    }
    const broken = results.flatMap((result) => result.violations.map((violation) => `seed ${result.seed} (${result.kind}): ${violation}`));
    expect(broken).toEqual([]);
    expect(results.reduce((sum, result) => sum + result.lost, 0)).toBe(0);
    expect(results.every((result) => result.faults.length > 0 && result.acknowledged > 0)).toBe(true);
  });
});
