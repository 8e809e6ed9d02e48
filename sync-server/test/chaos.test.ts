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

  it("reports a run whose server does not start as that run's violation, with the table and the seed, and exits 1", {
    timeout: 120_000,
  }, async () => {
    // Every start refused (a bad setting stops the server at start-up): each run breaks the
    // promise "the plain start command brings the server up", and the command still ends
    // with every run's line, the table and the seeds to replay, instead of crashing at the first.
    const { code, output } = await npmRun('chaos', [], {
      CHAOS_SEED: '7',
      CHAOS_RUNS: '2',
      CHAOS_FAULT_SECONDS: '1',
      CHAOS_DEVICES: '2',
      CHAOS_FAULTS: undefined,
      CHAOS_KINDS: 'pglite',
      RANCH_TRUST_PROXY: 'not-a-setting',
    });
    expect(output.match(/^run \d\/2 seed \d+ pglite: 0 faults, .*, 1 violations/gm), output).toHaveLength(2);
    expect(output.match(/VIOLATION: the plain start command did not start the server: [\s\S]*?RANCH_TRUST_PROXY/g), output).toHaveLength(2);
    expect(output, output).toMatch(/^\| 2 \| 2 \/ 0 \| 0 \| 0 \| 0 \| 2 \|$/m);
    expect(output, output).toContain('CHAOS_SEED=8 CHAOS_RUNS=1 npm run chaos');
    expect(code, output).toBe(1);
  });
});
