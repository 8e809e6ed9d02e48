import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { FUZZ_SERVER, FuzzHarness } from './fuzz/harness.ts';
import { fuzz, seedFromEnv } from './fuzz/property.ts';

/**
 * A short run of the sync socket fuzzer (sync-server/test/fuzz/): ~200 hostile frames and
 * updates from a stock Staff client, while honest devices keep writing, and after every run
 * the invariants of fuzz/invariants.ts. `npm run fuzz` is the long run. A failure prints
 * the seed, the path and the shortest failing sequence; `FUZZ_SEED=… FUZZ_PATH=…` replays it.
 * Without FUZZ_SEED it runs the same seeded cases every time.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
/** The same cases on every run of the suite; `npm run fuzz` (in `npm run test:full`) draws fresh ones. */
const SEED = 20261207;
const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_LIMIT_MS ?? 45_000);

describe.each(databaseKinds())('sync socket fuzzer, short run (%s)', (kind) => {
  let server: TestServer;
  let harness: FuzzHarness;

  beforeAll(async () => {
    server = await startTestServer(kind, FUZZ_SERVER);
    harness = await FuzzHarness.start(server);
  });
  afterAll(async () => {
    harness.stop();
    await server.destroy();
  });

  it(
    '[Y6] keeps serving honest devices, loses no acknowledged write, and every reader agrees on the valid ranch',
    async () => {
      const { seed, path } = seedFromEnv(SEED);
      const report = await fuzz(harness, { runs: RUNS, maxSteps: 50, seed, ...(path ? { path } : {}), timeLimitMs: TIME_LIMIT_MS });
      expect(harness.tally.get('runs')).toBeGreaterThan(0);
      expect(report, report ?? '').toBeNull();
    },
    TIME_LIMIT_MS + 60_000,
  );
});
