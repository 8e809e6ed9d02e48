import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { MESSAGE_ACCESS, MESSAGE_EPOCH, MESSAGE_ACK } from '../../shared/index.ts';
import { openDatabase } from '../src/db/client.ts';
import { compactDocument, loadDocument } from '../src/sync/persistence.ts';
import type { TestDatabase } from '../test/support/databases.ts';
import { rawGet } from '../test/support/raw-get.ts';
import { connect, median, sleep, until, type Target } from './clients.ts';
import { floodBench, type FloodOptions } from './flood.ts';
import { runLoad, recorderOf, sessionCookie, startBytesServer, startOurServer, startReferenceServer, type Child } from './processes.ts';
import { type ListCounts, seededLists, seedRanch, type RanchSize } from './ranch-seed.ts';
import { kb, ms, perSec, ratio, type Row } from './table.ts';

export type RanchOptions = RanchSize & {
  edits: number;
  editSeconds: number;
  loadRounds: number;
  syncRounds: number;
  restSeconds: number;
  webDir: string;
  /** Measure a read-only flood (flood.ts) once the rest is done. */
  flood?: FloodOptions;
};

/** What the browser benchmark gets: a running server holding the seeded ranch. */
export type RanchServer = { url: string; expectedHorses: number; lists: ListCounts };

const NO_COMPACTION = 1_000_000_000;

/**
 * The ranch at scale: seeding through the sync socket, 10,000 small edits, the log against
 * the snapshot, cold loads from Postgres, initial sync (ours against the reference), REST
 * under load. `whileRunning` gets the server holding the ranch (the Chromium benchmark).
 */
export async function ranchBench(
  database: TestDatabase,
  options: RanchOptions,
  log: (line: string) => void,
  whileRunning: (server: RanchServer) => Promise<Row[]>,
): Promise<Row[]> {
  const rows: Row[] = [];
  // 1. Seed and edit with compaction off, so the log keeps everything for the comparison.
  let server = await startOurServer(database, { compactEvery: NO_COMPACTION });
  const target: Target = { kind: 'ours', url: server.url, cookie: await sessionCookie(server.url) };
  const seeder = connect(target, new Y.Doc(), { ack: '1' });
  let acked = 0;
  seeder.provider.messageHandlers[MESSAGE_ACK] = (_encoder, decoder) => {
    acked = Math.max(acked, Y.decodeStateVector(decoding.readVarUint8Array(decoder)).get(seeder.doc.clientID) ?? 0);
  };
  seeder.provider.messageHandlers[MESSAGE_ACCESS] = () => {};
  seeder.provider.messageHandlers[MESSAGE_EPOCH] = () => {}; // the epoch: one document here, never rebuilt
  const localClock = () => Y.decodeStateVector(Y.encodeStateVector(seeder.doc)).get(seeder.doc.clientID) ?? 0;
  await seeder.synced;
  let seedUpdates = 0;
  seeder.doc.on('update', () => seedUpdates++);
  const seedStart = performance.now();
  const { horseIds } = seedRanch(seeder.doc, options, await recorderOf(target.url, target.cookie));
  await until(() => acked >= localClock(), 300_000, 'the seed to be acknowledged');
  const seedMs = performance.now() - seedStart;
  const careEntries = seeder.doc.getMap('careEntries').size;
  log(
    `  seeded ${options.horses} horses + ${options.payments} payments + ${careEntries} care entries in ${seedUpdates} updates, durable in ${ms(seedMs)}`,
  );
  rows.push({
    group: 'ranch',
    figure: `seed ${options.horses} horses + ${options.payments} payments + ${careEntries} care entries (${seedUpdates} sync updates)`,
    ours: ms(seedMs),
    note: 'through the sync socket, acknowledged',
  });

  // 2. Small edits: one field of one horse per update, acknowledged in batches of 500.
  const horses = seeder.doc.getMap<Y.Map<unknown>>('horses');
  const editStart = performance.now();
  let edits = 0;
  while (edits < options.edits && performance.now() - editStart < options.editSeconds * 1000) {
    for (let i = 0; i < 500 && edits < options.edits; i++, edits++)
      horses.get(horseIds[(edits * 7919) % horseIds.length]!)!.set('notes', `Edit ${edits}`);
    await until(() => acked >= localClock(), 120_000, 'edits to be acknowledged');
  }
  const editRate = (edits / (performance.now() - editStart)) * 1000;
  log(`  ${edits} small edits at ${perSec(editRate)} (acknowledged)`);
  rows.push({
    group: 'ranch',
    figure: `${edits} small edits on the ranch, acked in batches of 500`,
    ours: perSec(editRate),
    note: 'sustained durable writes, one device',
  });
  seeder.destroy();
  await server.stop();

  // 3. Cold load from Postgres: the whole log, then a snapshot.
  const db = await openDatabase(database.options);
  try {
    const [editLog] = await db.sql<{ n: string; bytes: string }[]>`
      select count(*) as n, coalesce(sum(octet_length(u)), 0) as bytes
      from (select update as u from doc_updates where doc = 'ranch' order by seq desc limit ${edits}) as last`;
    const [wholeLog] = await db.sql<{ n: string; bytes: string }[]>`
      select count(*) as n, coalesce(sum(octet_length(update)), 0) as bytes from doc_updates where doc = 'ranch'`;
    const time = async () => {
      const durations: number[] = [];
      let loaded: Awaited<ReturnType<typeof loadDocument>> | undefined;
      for (let i = 0; i < options.loadRounds; i++) {
        loaded?.doc.destroy();
        const start = performance.now();
        loaded = await loadDocument(db.sql, 'ranch', { kind: 'load' });
        durations.push(performance.now() - start);
      }
      return { ms: median(durations), loaded: loaded! };
    };
    const fromLog = await time();
    const state = Y.encodeStateAsUpdate(fromLog.loaded.doc);
    await compactDocument(db.sql, 'ranch', state, fromLog.loaded.lastSeq);
    fromLog.loaded.doc.destroy();
    const fromSnapshot = await time();
    fromSnapshot.loaded.doc.destroy();
    log(`  cold load: log of ${wholeLog!.n} updates ${ms(fromLog.ms)}, snapshot ${ms(fromSnapshot.ms)}`);
    rows.push({
      group: 'cold load',
      figure: `document ready from the log (${wholeLog!.n} updates, no snapshot)`,
      ours: ms(fromLog.ms),
      note: `log ${kb(Number(wholeLog!.bytes))}; median of ${options.loadRounds}; Postgres read + Y.applyUpdate`,
    });
    rows.push({
      group: 'cold load',
      figure: 'document ready from a snapshot',
      ours: ms(fromSnapshot.ms),
      ratio: ratio(fromSnapshot.ms, fromLog.ms),
      note: 'ratio: snapshot / log',
    });
    rows.push({
      group: 'cold load',
      figure: `log of ${editLog!.n} small edits vs the snapshot`,
      ours: `${kb(Number(editLog!.bytes))} vs ${kb(state.length)}`,
      ratio: ratio(Number(editLog!.bytes), state.length),
      note: `snapshot ${kb(gzipSync(state).length)} gzip; compacted every 500 by default`,
    });
  } finally {
    await db.close();
  }

  // 4. The server as it runs (default compaction) holding the ranch: initial sync, memory, REST.
  server = await startOurServer(database, { webDir: options.webDir });
  const reference = await startReferenceServer();
  try {
    const ours: Target = { kind: 'ours', url: server.url, cookie: await sessionCookie(server.url) };
    const peer: Target = { kind: 'reference', url: reference.url, cookie: '' };
    await sleep(1000);
    const rssBefore = server.rss();
    // The reference gets the same document from a device that holds it.
    const holder = connect(ours);
    await holder.synced;
    const pusher = connect(peer, holder.doc);
    await pusher.synced;
    const durations: Record<'ours' | 'reference', number[]> = { ours: [], reference: [] };
    const wire: Record<'ours' | 'reference', number> = { ours: NaN, reference: NaN };
    let size = 0;
    let gzipped = 0;
    type SyncResult = { firstMessageMs: number; receivedMs: number; totalMs: number; wireBytes: number };
    // The new device runs in a process of its own, as a phone would be.
    const newDevice = (t: Target) => runLoad<SyncResult>('sync-load.ts', { ...t, horses: options.horses }, 120_000);
    // Not counted: "synced" says the pusher received the reference's state, not that the
    // reference has finished applying the pushed ranch, which it may still be doing (on the
    // same two cores) during the first measured device. A device that receives every horse
    // from each server first settles that, and warms both.
    for (const t of [ours, peer]) log(`  initial sync warm-up, ${t.kind}: all horses ${ms((await newDevice(t)).totalMs)}`);
    for (let round = 0; round < options.syncRounds; round++) {
      for (const t of round % 2 === 0 ? [ours, peer] : [peer, ours]) {
        const result = await newDevice(t);
        log(
          `  initial sync, ${t.kind}: first message ${ms(result.firstMessageMs)}, state received ${ms(result.receivedMs)}, all horses ${ms(result.totalMs)}, ${kb(result.wireBytes)} on the wire`,
        );
        durations[t.kind].push(result.totalMs);
        wire[t.kind] = result.wireBytes;
      }
      if (size === 0) {
        const state = Y.encodeStateAsUpdate(holder.doc);
        size = state.length;
        gzipped = gzipSync(state).length;
      }
    }
    pusher.provider.destroy();
    holder.destroy();
    const rssAfter = server.rss();
    const sync = { ours: median(durations.ours), reference: median(durations.reference) };
    log(`  initial sync: ours ${ms(sync.ours)}, reference ${ms(sync.reference)}`);
    rows.push({
      group: 'initial sync',
      figure: `new device receives ${options.horses} horses + ${options.payments} payments`,
      ours: ms(sync.ours),
      reference: ms(sync.reference),
      ratio: ratio(sync.ours, sync.reference),
      target: '< 2 s',
      met: sync.ours < 2000,
      note: `median of ${options.syncRounds}, loopback`,
    });
    rows.push({ group: 'initial sync', figure: 'document size (state update)', ours: kb(size), note: `${kb(gzipped)} gzip` });
    rows.push({
      group: 'initial sync',
      figure: 'bytes a new device reads from its socket',
      ours: kb(wire.ours),
      reference: kb(wire.reference),
      ratio: ratio(wire.ours, wire.reference),
      note: 'ours compresses large messages (permessage-deflate, level 1)',
    });
    rows.push({
      group: 'initial sync',
      figure: 'server memory for the ranch (RSS growth)',
      ours: kb(rssAfter - rssBefore),
      note: `RSS ${kb(rssAfter)}`,
    });

    rows.push(...(await guarded('REST', () => restBench(server, ours.cookie, options.restSeconds, log), log)));
    rows.push(
      ...(await guarded(
        'Chromium',
        () => whileRunning({ url: server.url, expectedHorses: options.horses, lists: seededLists(options) }),
        log,
      )),
    );
  } finally {
    await server.stop();
    await reference.stop();
  }

  // 5. A read-only flood against the server as shipped (production limits), holding the ranch.
  if (options.flood) {
    const flood = options.flood;
    server = await startOurServer(database, { productionLimits: true });
    try {
      const ours: Target = { kind: 'ours', url: server.url, cookie: await sessionCookie(server.url) };
      rows.push(...(await guarded('flood', () => floodBench(server, ours, flood, log), log)));
    } finally {
      await server.stop();
    }
  }
  return rows;
}

/** A failing part prints what it has and a FAILED row instead of taking the other figures down. */
async function guarded(group: string, run: () => Promise<Row[]>, log: (line: string) => void): Promise<Row[]> {
  try {
    return await run();
  } catch (error) {
    log(`  ${group} failed: ${(error as Error).stack ?? error}`);
    return [{ group, figure: 'FAILED', ours: 'n/a', note: (error as Error).message.split('\n')[0]!.slice(0, 120) }];
  }
}

async function restBench(server: Child, cookie: string, seconds: number, log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  // As browsers ask: compressed answers welcome.
  const headers = { cookie, 'accept-encoding': 'gzip, deflate, br' };
  const load = (url: string) => autocannon({ url, connections: 50, duration: seconds, headers, timeout: 30 });
  for (const path of ['/api/horses', '/api/dashboard/metrics']) {
    const json = (await (await fetch(`${server.url}${path}`, { headers: { cookie } })).arrayBuffer()).byteLength;
    // The peer serves the very bytes ours sends (compressed or not), from memory.
    const answer = await rawGet(`${server.url}${path}`, headers);
    const file = join(mkdtempSync(join(tmpdir(), 'ranch-bench-')), 'answer');
    writeFileSync(file, answer.body);
    const peer = await startBytesServer(
      file,
      pickHeaders(answer.headers, ['content-type', 'content-encoding', 'etag', 'vary', 'cache-control']),
    );
    const results: Record<'ours' | 'peer', Awaited<ReturnType<typeof load>>[]> = { ours: [], peer: [] };
    try {
      for (let round = 0; round < 2; round++) {
        for (const kind of round % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const)) {
          const result = await load(`${kind === 'ours' ? server.url : peer.url}${path}`);
          log(
            `  REST ${path}, ${kind}: p50 ${ms(result.latency.p50)} p99 ${ms(result.latency.p99)}, ${Math.round(result.requests.average)} req/s, errors ${result.errors + result.non2xx}`,
          );
          results[kind].push(result);
        }
      }
    } finally {
      await peer.stop();
      rmSync(dirname(file), { recursive: true, force: true });
    }
    const errors = results.ours.reduce((sum, result) => sum + result.errors + result.non2xx, 0);
    for (const key of ['p50', 'p99'] as const) {
      const value = {
        ours: median(results.ours.map((result) => result.latency[key])),
        peer: median(results.peer.map((result) => result.latency[key])),
      };
      rows.push({
        group: 'REST, 50 clients',
        figure: `GET ${path} ${key}`,
        ours: ms(value.ours),
        reference: ms(value.peer),
        ratio: ratio(value.ours, value.peer),
        target: key === 'p99' ? '< 50 ms' : undefined,
        met: key === 'p99' ? value.ours < 50 : undefined,
        note:
          key === 'p50'
            ? `${Math.round(median(results.ours.map((result) => result.requests.average)))} req/s; ${kb(json)} JSON, ${kb(answer.body.byteLength)} sent${answer.headers['content-encoding'] ? ' (gzip)' : ''}${errors ? `, ${errors} errors` : ''}`
            : `median of 2 × ${seconds} s, autocannon; reference: node:http sending the same bytes from memory`,
      });
    }
  }
  return rows;
}

function pickHeaders(headers: IncomingHttpHeaders, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (typeof headers[name] === 'string' ? [[name, headers[name] as string]] : [])));
}
