/**
 * The long run of the sync socket fuzzer (`npm run fuzz`): at least FUZZ_ITEMS (10,000)
 * hostile frames and updates per database kind (PGlite; also Postgres when DATABASE_URL is
 * set), in batches of FUZZ_BATCH_RUNS runs, each batch on a fresh server and database so
 * the document stays a size a run can read. Every run is checked and every violation
 * counted (a failing run does not end the batch); afterwards the first run of each distinct
 * kind of violation (FUZZ_SHRINK_FAILURES of them, 3) is replayed on a fresh server and
 * shrunk by fast-check to its shortest failing sequence. Prints what it tried and what held;
 * exits 1 on any violation.
 *
 * FUZZ_SEED (batch i uses seed + i), FUZZ_SKIP (update kinds to leave out), FUZZ_SHRINK_MS
 * (time to shrink each failure, 120 s). A printed FUZZ_SEED/FUZZ_PATH pair replays in
 * sync-server/test/sync-fuzz.test.ts.
 */
import fc from 'fast-check';
import '../test/fuzz/device-read-model.ts';
import { databaseKinds, type TestDatabaseKind } from '../test/support/databases.ts';
import { startTestServer } from '../test/support/server.ts';
import { FUZZ_SERVER, FuzzHarness, scenario, Tally } from '../test/fuzz/harness.ts';
import { fuzz, seedFromEnv } from '../test/fuzz/property.ts';

const ITEMS = Number(process.env.FUZZ_ITEMS ?? 10_000);
const BATCH_RUNS = Number(process.env.FUZZ_BATCH_RUNS ?? 25);
const SHRINK_MS = Number(process.env.FUZZ_SHRINK_MS ?? 120_000);
const SHRINK_FAILURES = Number(process.env.FUZZ_SHRINK_FAILURES ?? 3);
/** The sync-fuzz.test.ts short run uses 50; longer runs here meet more combinations. */
const MAX_STEPS = 50;

type Failure = { kind: TestDatabaseKind; signature: string; count: number; seed: number; path: string; example: string };

const unhandled: string[] = [];
process.on('unhandledRejection', (reason) =>
  unhandled.push(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`),
);

/** A violation without its ids and numbers: what kind of failure it is. */
const signature = (violation: string) =>
  violation
    .split('\n')[0]!
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\d+/g, 'N')
    .replace(/\[.*$/, '');

const hostileItems = (tally: Tally) =>
  tally
    .section('frame:')
    .concat(tally.section('update:'))
    .reduce((sum, [, n]) => sum + n, 0);

async function fuzzKind(kind: TestDatabaseKind, firstSeed: number, failures: Map<string, Failure>): Promise<Tally> {
  const total = new Tally();
  for (let batch = 0; hostileItems(total) < ITEMS; batch++) {
    const seed = firstSeed + batch;
    const server = await startTestServer(kind, FUZZ_SERVER);
    const harness = await FuzzHarness.start(server);
    const started = Date.now();
    try {
      for (const [index, steps] of fc.sample(scenario(MAX_STEPS), { seed, numRuns: BATCH_RUNS }).entries()) {
        for (const violation of await harness.run(steps)) {
          const key = `${kind}: ${signature(violation)}`;
          const known = failures.get(key);
          if (known) known.count += 1;
          else failures.set(key, { kind, signature: signature(violation), count: 1, seed, path: String(index), example: violation });
        }
      }
    } finally {
      harness.stop();
      await server.destroy();
    }
    for (const [key, n] of harness.tally.counts) total.add(key, n);
    console.log(
      `${kind} batch ${batch} (seed ${seed}): ${harness.tally.get('runs')} runs, ${hostileItems(harness.tally)} hostile items, ` +
        `${harness.tally.get('runs with violations')} with violations, ${((Date.now() - started) / 1000).toFixed(1)} s; total ${hostileItems(total)}/${ITEMS}`,
    );
  }
  return total;
}

/** Replays a failure's run on a fresh server and shrinks it to its shortest sequence. */
async function shrink(failure: Failure): Promise<string> {
  const server = await startTestServer(failure.kind, FUZZ_SERVER);
  const harness = await FuzzHarness.start(server);
  try {
    const report = await fuzz(harness, {
      runs: 1,
      maxSteps: MAX_STEPS,
      seed: failure.seed,
      path: failure.path,
      timeLimitMs: SHRINK_MS,
      focus: (violation) => signature(violation) === failure.signature,
    });
    return report ?? '(did not fail again when replayed alone on a fresh server: it depends on earlier runs of its batch)';
  } finally {
    harness.stop();
    await server.destroy();
  }
}

function print(kind: string, tally: Tally): void {
  const lines = (title: string, prefix: string) => {
    console.log(`  ${title}:`);
    for (const [key, n] of tally.section(prefix)) console.log(`    ${key.slice(prefix.length).padEnd(28)} ${n}`);
  };
  console.log(`\n== ${kind}: what it tried (${hostileItems(tally)} hostile frames and updates) ==`);
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

const { seed } = seedFromEnv();
console.log(`Sync fuzzer long run: FUZZ_SEED=${seed}, ≥ ${ITEMS} hostile items per database kind, ${BATCH_RUNS} runs per batch`);
const failures = new Map<string, Failure>();
for (const kind of databaseKinds()) print(kind, await fuzzKind(kind, seed, failures));
if (failures.size > 0 || unhandled.length > 0) {
  console.log(`\n${failures.size} KIND(S) OF VIOLATION:`);
  for (const [key, failure] of failures)
    console.log(`  ${String(failure.count).padStart(6)} × ${key} (first: seed ${failure.seed}, run ${failure.path})`);
  for (const failure of [...failures.values()].slice(0, SHRINK_FAILURES)) {
    console.log(`\n--- ${failure.kind}: ${failure.signature}\nFirst seen:\n  ${failure.example}\nShrunk:`);
    console.log(await shrink(failure));
  }
  unhandled.forEach((line) => console.log(line));
  process.exit(1);
}
console.log('\nEvery invariant held.');
process.exit(0);
