import { describe, expect, it } from 'vitest';
import { npmRun } from './support/npm-run.ts';

/**
 * The README's long-running commands, each through its own `npm run` script in a short
 * form, so that none of them can break unseen between long runs (`npm run test:full` runs
 * them in full). `npm run chaos` runs in chaos.test.ts, `npm run backup` and
 * `npm run restore` in backup.test.ts.
 */
describe('the README’s commands, short', () => {
  it('npm run fuzz: a few batches of hostile frames on each database kind, nothing acknowledged lost', { timeout: 240_000 }, async () => {
    const { code, output } = await npmRun('fuzz', [], {
      FUZZ_SEED: process.env.FUZZ_SEED ?? '20261207',
      FUZZ_PATH: undefined,
      FUZZ_ITEMS: '60',
      FUZZ_BATCH_RUNS: '3',
      FUZZ_SHRINK_MS: '20000',
    });
    const kinds = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
    for (const kind of kinds) expect(output, output).toContain(`== ${kind}: what held ==`);
    const lost = [...output.matchAll(/acknowledged writes lost\s+(\d+)/g)].map(([, n]) => Number(n));
    expect(lost, output).toEqual(kinds.map(() => 0));
    expect(output).toContain('Every invariant held.');
    expect(code, output).toBe(0);
  });

  it('npm run bench: the fan-out rows, quick, every row measured', { timeout: 240_000 }, async () => {
    const { code, output } = await npmRun('bench', [], { BENCH_ONLY: 'fanout', BENCH_QUICK: '1', BENCH_WRITE: '0' });
    expect(code, output).toBe(0);
    expect(output).toMatch(/burst, 20 observers/);
    expect(output).toMatch(/\d+ targets met, \d+ missed\./);
    expect(output).not.toContain('FAILED');
  });
});
