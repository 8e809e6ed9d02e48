/**
 * The long run of the sync socket fuzzer (`npm run fuzz`): at least FUZZ_ITEMS (10,000)
 * hostile frames and updates per database kind (PGlite; also Postgres when DATABASE_URL is
 * set), in batches of FUZZ_BATCH_RUNS runs, each batch on a fresh server and database so
 * the document stays a size a run can read. Prints what it tried and what held; exits 1 on
 * any violation, with the seed, path and shortest failing sequence of each failing batch.
 *
 * FUZZ_SEED (the first batch's seed; batch i uses seed + i), FUZZ_PATH (replay one failure
 * in the first batch), FUZZ_SKIP (update kinds to leave out), FUZZ_SHRINK_MS (time per
 * failing batch, 120 s; only the first FUZZ_SHRINK_FAILURES (2) failures are shrunk).
 */
import '../test/fuzz/device-read-model.ts';
import { databaseKinds, type TestDatabaseKind } from '../test/support/databases.ts';
import { startTestServer } from '../test/support/server.ts';
import { FuzzHarness, Tally } from '../test/fuzz/harness.ts';
import { fuzz, seedFromEnv } from '../test/fuzz/property.ts';

const ITEMS = Number(process.env.FUZZ_ITEMS ?? 10_000);
const BATCH_RUNS = Number(process.env.FUZZ_BATCH_RUNS ?? 20);
const SHRINK_MS = Number(process.env.FUZZ_SHRINK_MS ?? 120_000);
const SHRINK_FAILURES = Number(process.env.FUZZ_SHRINK_FAILURES ?? 2);
const STEPS = { maxSteps: 80 };

const unhandled: string[] = [];
process.on('unhandledRejection', (reason) => unhandled.push(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`));

const hostileItems = (tally: Tally) => tally.section('frame:').concat(tally.section('update:')).reduce((sum, [, n]) => sum + n, 0);

function merge(into: Tally, from: Tally): void {
  for (const [key, n] of from.counts) into.add(key, n);
}

async function fuzzKind(kind: TestDatabaseKind, first: { seed: number; path?: string }, failures: string[]): Promise<Tally> {
  const total = new Tally();
  for (let batch = 0; hostileItems(total) < ITEMS; batch++) {
    const server = await startTestServer(kind);
    const harness = await FuzzHarness.start(server);
    const seed = first.seed + batch;
    const shrink = failures.length < SHRINK_FAILURES;
    const started = Date.now();
    try {
      const report = await fuzz(harness, {
        runs: batch === 0 && first.path ? 1 : BATCH_RUNS,
        ...STEPS,
        seed,
        ...(batch === 0 && first.path ? { path: first.path } : {}),
        timeLimitMs: shrink ? BATCH_RUNS * 10_000 + SHRINK_MS : BATCH_RUNS * 10_000,
      });
      if (report) failures.push(`[${kind}, batch ${batch}, seed ${seed}]\n${report}`);
    } finally {
      harness.stop();
      await server.destroy();
    }
    merge(total, harness.tally);
    console.log(`${kind} batch ${batch} (seed ${seed}): ${harness.tally.get('runs')} runs, ${hostileItems(harness.tally)} hostile items, ` +
      `${harness.tally.get('runs with violations')} with violations, ${((Date.now() - started) / 1000).toFixed(1)} s; total ${hostileItems(total)}/${ITEMS}`);
    if (batch === 0 && first.path) break;
  }
  return total;
}

function print(kind: string, tally: Tally): void {
  const lines = (title: string, prefix: string) => {
    console.log(`  ${title}:`);
    for (const [key, n] of tally.section(prefix)) console.log(`    ${key.slice(prefix.length).padEnd(28)} ${n}`);
  };
  console.log(`\n== ${kind}: what it tried ==`);
  lines('raw frames', 'frame:');
  lines('hostile updates (a batch counts each part)', 'update:');
  lines('honest device writes', 'honest:');
  lines('how the server took each frame / update', 'outcome:');
  console.log(`== ${kind}: what held ==`);
  const runs = tally.get('runs');
  console.log(`  runs                          ${runs} (${runs - tally.get('runs with violations')} with every invariant holding)`);
  console.log(`  invariants checked            ${tally.get('invariants checked')}`);
  console.log(`  honest writes                 ${tally.get('honest writes')} (acknowledged ${tally.get('honest writes acknowledged')})`);
  console.log(`  acknowledged writes lost      ${tally.get('honest writes lost')}`);
  console.log(`  document host reloads         ${tally.get('document reloads')}`);
  console.log('  server restarts               0 (each batch starts a fresh server; none was restarted mid-batch)');
}

const first = seedFromEnv();
console.log(`Sync fuzzer long run: FUZZ_SEED=${first.seed}, ≥ ${ITEMS} hostile items per database kind, ${BATCH_RUNS} runs per batch`);
const failures: string[] = [];
for (const kind of databaseKinds()) print(kind, await fuzzKind(kind, first, failures));
failures.push(...unhandled);
if (failures.length > 0) {
  console.log(`\n${failures.length} FAILURE(S):\n\n${failures.join('\n\n')}`);
  process.exit(1);
}
console.log('\nEvery invariant held.');
process.exit(0);
