/**
 * `npm run chaos`: the fault suite (docs/architecture.md "The fault suite"). CHAOS_RUNS
 * runs (50), run i with seed CHAOS_SEED + i, each on a fresh database (PGlite, or the
 * Postgres of DATABASE_URL when it is set, chosen by the seed) with one server process and
 * CHAOS_DEVICES devices (4: the app's data layer and stock y-websocket clients) writing
 * while the nemesis injects faults for CHAOS_FAULT_SECONDS (12); then the oracle. No new
 * run starts after CHAOS_MAX_MINUTES (40). Loopback only. Prints one table; exits 1 on any
 * violation, with the seed that replays it.
 */
import type { TestDatabaseKind } from '../test/support/databases.ts';
import { databaseKinds } from '../test/support/databases.ts';
import { abandonAll } from './cluster.ts';
import { chaosRun, type RunResult } from './run.ts';
import { table } from './table.ts';

const seed = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
const runs = Number(process.env.CHAOS_RUNS ?? 50);
const faultSeconds = Number(process.env.CHAOS_FAULT_SECONDS ?? 12);
const devices = Number(process.env.CHAOS_DEVICES ?? 4);
const maxMinutes = Number(process.env.CHAOS_MAX_MINUTES ?? 40);
const kinds = (process.env.CHAOS_KINDS?.split(',') as TestDatabaseKind[] | undefined) ?? databaseKinds();
/** Only the fault kinds whose names contain one of these words (e.g. `disk,killed`). */
const faults = process.env.CHAOS_FAULTS?.split(',') ?? [];

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.log(`${signal}: killing this run's servers and unmounting its disks`);
    abandonAll();
    process.exit(130);
  });
}

const unhandled: string[] = [];
process.on('unhandledRejection', (reason) =>
  unhandled.push(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`),
);

console.log(`Fault suite: CHAOS_SEED=${seed}, ${runs} runs of ${faultSeconds} s of faults, ${devices} devices, on ${kinds.join(' and ')}`);
const started = Date.now();
const results: RunResult[] = [];
for (let index = 0; index < runs; index++) {
  if (Date.now() - started > maxMinutes * 60_000) {
    console.log(`CHAOS_MAX_MINUTES (${maxMinutes}) reached: ${index} of ${runs} runs done`);
    break;
  }
  const result = await chaosRun(seed + index, { kinds, faultSeconds, devices, faults });
  results.push(result);
  console.log(
    `run ${index + 1}/${runs} seed ${result.seed} ${result.kind}: ${result.faults.length} faults, ${result.acknowledged}/${result.writes} acknowledged, ` +
      `${result.lost} lost, ${result.violations.length} violations, ${result.seconds.toFixed(1)} s` +
      (result.notes.length > 0 ? ` (${result.notes.join('; ')})` : ''),
  );
  for (const fault of result.faults)
    console.log(`  ${fault.kind}: ${fault.recoveryMs === null ? 'not recovered' : `recovered in ${fault.recoveryMs} ms`}`);
  for (const violation of result.violations) console.log(`  VIOLATION: ${violation}`);
}
console.log(`\n${table(results)}\n\n${((Date.now() - started) / 60_000).toFixed(1)} min, CHAOS_SEED=${seed}`);
const failed = results.filter((result) => result.violations.length > 0);
unhandled.forEach((line) => console.log(line));
if (failed.length > 0 || unhandled.length > 0) {
  console.log(`\n${failed.length} run(s) broke a promise. Replay one with:`);
  for (const result of failed)
    console.log(`  CHAOS_SEED=${result.seed} CHAOS_RUNS=1 npm run chaos   # ${result.violations[0]?.split('\n')[0]}`);
  process.exit(1);
}
console.log('Every promise held: nothing acknowledged was lost, every device converged, the server came back by itself after every fault.');
process.exit(0);
