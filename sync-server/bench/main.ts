// `npm run bench` (through scripts/bench.mjs): every figure in one table. Not a
// test: it prints figures against targets and never fails on a missed one.
import { cpus, hostname, totalmem } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { browserBench } from '../../web/bench/chromium.ts';
import { phoneBench } from '../../web/bench/phone.ts';
import { phoneForms } from '../../web/bench/phone-forms.ts';
import { createTestDatabase, type TestDatabase } from '../test/support/databases.ts';
import { fanoutBench } from './fanout.ts';
import { ROOT } from './processes.ts';
import { ranchBench } from './ranch.ts';
import { formatTable, type Row } from './table.ts';
import { currentCommit, notWritten, writeTables } from './write-tables.ts';

const quick = process.env.BENCH_QUICK === '1';
const GROUPS = ['fanout', 'ranch', 'browser', 'phone', 'phone-forms', 'flood'];
const only = new Set(process.env.BENCH_ONLY?.split(',') ?? GROUPS);
const log = (line: string) => console.log(line);
const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const webDir = join(ROOT, 'dist', 'web');
/** The seeded ranch (ranch-seed.ts: 200 suppliers, 1,000 buyers, a sale per ten payments, 5 care entries per horse). */
const HORSES = 10_000;
const PAYMENTS = 50_000;

async function databaseVersion(): Promise<string> {
  if (kind === 'pglite') return 'embedded PGlite (PostgreSQL 18 in WASM, worker thread)';
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ server_version: string }[]>`show server_version`;
    const url = new URL(process.env.DATABASE_URL!);
    return `PostgreSQL ${row!.server_version} at ${url.host} (fresh database per phase, dropped after)`;
  } finally {
    await sql.end();
  }
}

async function phase(name: string, run: (database: TestDatabase) => Promise<Row[]>): Promise<Row[]> {
  const started = Date.now();
  log(`- ${name}`);
  const database = await createTestDatabase(kind);
  try {
    return await run(database);
  } catch (error) {
    log(`  ${name} failed: ${(error as Error).stack ?? error}`);
    return [{ group: name, figure: 'FAILED', ours: 'n/a', note: (error as Error).message.split('\n')[0]!.slice(0, 120) }];
  } finally {
    await database.drop().catch(() => {});
    log(`  (${name}: ${Math.round((Date.now() - started) / 1000)} s)`);
  }
}

function failed(group: string, error: Error): Row[] {
  log(`  ${group} failed: ${error.stack ?? error}`);
  return [{ group, figure: 'FAILED', ours: 'n/a', note: error.message.split('\n')[0]!.slice(0, 120) }];
}

const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const dbVersion = await databaseVersion();
const startedAt = new Date().toISOString().slice(0, 16).replace('T', ' ');
const commit = currentCommit(ROOT);
log(`Ranch benchmarks, ${startedAt} UTC, commit ${commit}`);
log(`Machine: ${machine}`);
log(`Database: ${dbVersion}`);
const rows: Row[] = [];
/** How the phone rows made a phone of the host (phone.ts), for the table's header. */
let phoneConditions = 'the phone rows did not finish';
if (only.has('fanout')) {
  rows.push(
    ...(await phase('fan-out', (database) =>
      fanoutBench(
        database,
        { observers: [20, 50], rounds: quick ? 1 : 2, burst: 500, rate: 200, pacedSeconds: quick ? 2 : 3, idleConnections: 500 },
        log,
      ),
    )),
  );
}
if (only.has('ranch')) {
  rows.push(
    ...(await phase('ranch', (database) =>
      ranchBench(
        database,
        {
          horses: HORSES,
          payments: PAYMENTS,
          edits: quick ? 2000 : 10_000,
          editSeconds: 75,
          loadRounds: 1,
          syncRounds: 3,
          restSeconds: quick ? 3 : 5,
          webDir,
          ...(only.has('flood') ? { flood: { edits: quick ? 20 : 50, sockets: 8, perTick: 50 } } : {}),
        },
        log,
        async (server) => [
          ...(only.has('browser') ? await browserBench(server, webDir, log) : []),
          // The phone rows (web/bench/phone.ts) fail on their own, not taking the desk rows with them.
          ...(only.has('phone')
            ? await phoneBench(server, log, { quick }).then(
                (phone) => {
                  phoneConditions = phone.conditions;
                  return phone.rows;
                },
                (error: Error) => failed('Phone (CPU 4×)', error),
              )
            : []),
          ...(only.has('phone-forms')
            ? await phoneForms(server.url, log, { rounds: quick ? 2 : 3 }).catch((error: Error) => failed('Phone (CPU 4×), forms', error))
            : []),
        ],
      ),
    )),
  );
}
log('');
log(`Machine: ${machine}; database: ${dbVersion}`);
if (only.has('phone')) log(`Phone: ${phoneConditions}`);
log(formatTable(rows));
const missed = rows.filter((row) => row.met === false).length;
log(`${rows.filter((row) => row.met !== undefined).length - missed} targets met, ${missed} missed.`);
// A whole run writes the table of current figures in docs/performance.md and the README.
const reason = notWritten(rows, {
  left: GROUPS.filter((group) => !only.has(group)),
  quick,
  write: process.env.BENCH_WRITE,
  underTest: process.env.VITEST !== undefined,
});
if (reason) log(`The tables in docs/performance.md and README.md are left as they were: ${reason}.`);
else {
  const count = (n: number) => n.toLocaleString('en-US');
  const ranch = `${count(HORSES)} horses, 200 suppliers, 1,000 buyers, ${count(PAYMENTS / 10)} sales, ${count(PAYMENTS)} payments, 5 care entries per horse`;
  const run = { at: startedAt, commit, host: hostname(), machine, database: dbVersion, ranch, phone: phoneConditions };
  for (const path of writeTables(ROOT, rows, run)) log(`Wrote the table in ${path}.`);
}
process.exit(0);
