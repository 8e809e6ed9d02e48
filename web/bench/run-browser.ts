// Just the Chromium figures of `npm run bench`, in a few minutes instead of seven or more:
// seeds the same ranch (10,000 horses, 50,000 payments) through the sync socket into our
// server and runs web/bench/chromium.ts and web/bench/phone.ts against it. The full bench also makes 10,000 small
// edits before this part, so its document has more history; the list figures do not
// depend on it. Run: `node --import tsx web/bench/run-browser.ts` after `npx vite build`
// (BENCH_WEB_DIR chooses another build, e.g. one of an older commit).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { MESSAGE_ACCESS, MESSAGE_EPOCH, MESSAGE_ACK } from '../../shared/index.ts';
import { createTestDatabase } from '../../sync-server/test/support/databases.ts';
import { connect, until } from '../../sync-server/bench/clients.ts';
import { ROOT, recorderOf, sessionCookie, startOurServer } from '../../sync-server/bench/processes.ts';
import { seededLists, seedRanch } from '../../sync-server/bench/ranch-seed.ts';
import { formatTable, ms } from '../../sync-server/bench/table.ts';
import { browserBench } from './chromium.ts';
import { abDialogs } from './ab-dialogs.ts';
import { abStarts, type StartAction } from './ab-starts.ts';
import { compareStyles } from './compare-styles.ts';
import { phoneBench } from './phone.ts';
import { phoneForms } from './phone-forms.ts';

// BENCH_ONLY=browser or =phone runs one row set (web/bench/phone.ts); BENCH_QUICK=1 shortens the phone's.
// BENCH_ONLY=phone-forms opens the sale and payment forms on a phone (web/bench/phone-forms.ts).
// BENCH_ONLY=ab-starts compares this build's phone starts with BENCH_AB_DIR's (web/bench/ab-starts.ts);
// BENCH_ONLY=ab-dialogs their dialogs' restyles (web/bench/ab-dialogs.ts); BENCH_ONLY=compare-styles
// their computed styles, element by element (web/bench/compare-styles.ts).
const only = new Set((process.env.BENCH_ONLY ?? 'browser,phone').split(','));
const abDir = process.env.BENCH_AB_DIR;
const ab = only.has('ab-starts') || only.has('ab-dialogs') || only.has('compare-styles');
if (ab && (!abDir || !process.env.DATABASE_URL)) {
  throw new Error(
    `BENCH_ONLY=${[...only].join(',')} needs BENCH_AB_DIR (the other build) and DATABASE_URL (two servers share one Postgres database)`,
  );
}
const abDo = abAction(); // Checked before the ranch is seeded.
// BENCH_CARE_PER_HORSE=0 seeds the ranch as issue 12 measured it (no care entries, a 23 MiB document).
const size = {
  horses: Number(process.env.BENCH_HORSES ?? 10_000),
  payments: Number(process.env.BENCH_PAYMENTS ?? 50_000),
  careEntriesPerHorse: Number(process.env.BENCH_CARE_PER_HORSE ?? 5),
};
const webDir = process.env.BENCH_WEB_DIR ?? join(ROOT, 'dist', 'web');
const database = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'pglite');
// Seeded with compaction off and restarted with the defaults, as sync-server/bench/ranch.ts does.
let server = await startOurServer(database, { compactEvery: 1_000_000_000 });
let other: typeof server | undefined;
// Stopped or timed out: take the servers down too rather than leave them running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void Promise.allSettled([server.stop(), other?.stop()]).finally(() => process.exit(1)));
}
try {
  const cookie = await sessionCookie(server.url);
  const recorder = await recorderOf(server.url, cookie);
  const seeder = connect({ kind: 'ours', url: server.url, cookie }, new Y.Doc(), { ack: '1' });
  let acked = 0;
  seeder.provider.messageHandlers[MESSAGE_ACK] = (_encoder, decoder) => {
    acked = Math.max(acked, Y.decodeStateVector(decoding.readVarUint8Array(decoder)).get(seeder.doc.clientID) ?? 0);
  };
  seeder.provider.messageHandlers[MESSAGE_ACCESS] = () => {};
  seeder.provider.messageHandlers[MESSAGE_EPOCH] = () => {}; // the epoch: one document here, never rebuilt
  await seeder.synced;
  const started = performance.now();
  seedRanch(seeder.doc, size, recorder);
  const clock = () => Y.decodeStateVector(Y.encodeStateVector(seeder.doc)).get(seeder.doc.clientID) ?? 0;
  await until(() => acked >= clock(), 600_000, 'the seed to be acknowledged');
  console.log(`seeded in ${ms(performance.now() - started)}`);
  seeder.destroy();
  await server.stop();
  server = await startOurServer(database, { webDir });
  await warmUp(server.url);
  const ranch = { url: server.url, expectedHorses: size.horses, lists: seededLists(size) };
  const rows = only.has('browser') ? await browserBench(ranch, webDir, console.log) : [];
  if (only.has('phone')) {
    const phone = await phoneBench(ranch, console.log, { quick: process.env.BENCH_QUICK === '1' });
    rows.push(...phone.rows);
    console.log(`Phone: ${phone.conditions}`);
  }
  if (only.has('phone-forms'))
    rows.push(...(await phoneForms(server.url, console.log, { rounds: Number(process.env.BENCH_AB_ROUNDS ?? 5) })));
  if (ab) {
    other = await startOurServer(database, { webDir: abDir });
    await warmUp(other.url);
    const builds = [
      { label: webDir, url: server.url },
      { label: abDir!, url: other.url },
    ];
    const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 10);
    if (only.has('ab-starts')) rows.push(...(await abStarts(builds, size.horses, console.log, { rounds, action: abDo })));
    if (only.has('compare-styles')) rows.push(...(await compareStyles(builds, console.log)));
    if (only.has('ab-dialogs')) {
      rows.push(...(await abDialogs(builds, size.horses, console.log, { rounds, selectors: process.env.BENCH_AB_SELECTORS === '1' })));
    }
  }
  console.log(formatTable(rows));
} finally {
  await other?.stop();
  await server.stop();
  await database.drop().catch(() => {});
}
process.exit(0);

/**
 * A restarted server loads the document from Postgres when the first device connects
 * (seconds at this size, with the compaction that is due). That is a server start, not a
 * phone's first sync: one device syncs first, so the phone meets a server that is up.
 */
async function warmUp(url: string): Promise<void> {
  const warming = performance.now();
  const device = connect({ kind: 'ours', url, cookie: await sessionCookie(url) }, new Y.Doc());
  await device.synced;
  device.destroy();
  console.log(`server: the document loaded for its first device after the restart in ${ms(performance.now() - warming)}`);
}

/** `BENCH_AB_DO`: what each of ab-starts' starts does (`list`, `key:<ms>`, `write` or `edit`). */
function abAction(): StartAction {
  const wanted = process.env.BENCH_AB_DO ?? 'list';
  const key = /^key:(\d+)$/.exec(wanted);
  if (key) return { kind: 'key', delay: Number(key[1]) };
  if (wanted === 'list' || wanted === 'write' || wanted === 'edit') return { kind: wanted };
  throw new Error(`BENCH_AB_DO=${wanted}: expected list, key:<ms>, write or edit`);
}
