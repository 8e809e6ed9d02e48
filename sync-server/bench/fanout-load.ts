// Load process of the fan-out benchmark: one writer and N observers, all stock y-websocket
// clients, in a process apart from the server. Prints one JSON line with the figures.
import { performance } from 'node:perf_hooks';
import type * as Y from 'yjs';
import { writeEntity } from '../../shared/index.ts';
import { connect, percentile, sleep, until, type Target } from './clients.ts';

type Input = Target & { observers: number; burst: number; rate: number; pacedSeconds: number };
const input = JSON.parse(process.env.BENCH_INPUT ?? '{}') as Input;

// Fixed ids: the same horse is edited in every run; valid, so our server projects it.
const HORSE = '00000000-0000-7000-8000-00000000b001';
const LOOKUPS = {
  breedId: '00000000-0000-7000-8000-00000000b002',
  colorId: '00000000-0000-7000-8000-00000000b003',
  genderId: '00000000-0000-7000-8000-00000000b004',
};

const writer = connect(input);
await writer.synced;
const horses = writer.doc.getMap<Y.Map<unknown>>('horses');
if (!horses.has(HORSE)) {
  writer.doc.transact(() => {
    writeEntity(writer.doc, 'breeds', LOOKUPS.breedId, { name: 'Bench Breed', isActive: true });
    writeEntity(writer.doc, 'colors', LOOKUPS.colorId, { name: 'Bench Color', isActive: true });
    writeEntity(writer.doc, 'genders', LOOKUPS.genderId, { name: 'Bench Gender', isActive: true });
    writeEntity(writer.doc, 'horses', HORSE, {
      name: 'Bench Horse',
      ...LOOKUPS,
      statusId: null,
      ownerId: null,
      birthdate: null,
      ageYears: 7,
      priceUsd: '12500.00',
      photoUrl: null,
      notes: null,
    });
  });
}
const run = `${Date.now().toString(36)}-`;
const total = input.burst + input.rate * input.pacedSeconds;

// Each observer stamps the moment it first holds edit `seq`; updates of one client arrive in
// order, so seeing edit s means every edit before it arrived too (a server may merge them).
const observers = Array.from({ length: input.observers }, () => {
  const client = connect(input);
  const seen = new Float64Array(total);
  let highest = -1;
  client.doc.getMap<Y.Map<unknown>>('horses').observeDeep(() => {
    const notes = client.doc.getMap<Y.Map<unknown>>('horses').get(HORSE)?.get('notes');
    if (typeof notes !== 'string' || !notes.startsWith(run)) return;
    const seq = Number(notes.slice(run.length));
    const now = performance.now();
    for (let k = highest + 1; k <= seq; k++) seen[k] = now;
    highest = Math.max(highest, seq);
  });
  return { client, seen, highest: () => highest };
});
const connectStart = performance.now();
await Promise.all(observers.map((observer) => observer.client.synced));
const connectMs = performance.now() - connectStart;
await until(() => observers.every((o) => o.client.doc.getMap<Y.Map<unknown>>('horses').has(HORSE)), 10_000, 'the horse');
await sleep(300);

const horse = () => horses.get(HORSE)!;
const edit = (seq: number) => writer.doc.transact(() => horse().set('notes', `${run}${seq}`));
const allHave = (seq: number) => observers.every((o) => o.highest() >= seq);

// Burst: every edit at once; throughput = edits / time until every observer has the last.
const burstStart = performance.now();
for (let seq = 0; seq < input.burst; seq++) edit(seq);
let burstError: string | null = null;
try {
  await until(() => allHave(input.burst - 1), 60_000, 'the burst');
} catch (error) {
  burstError = (error as Error).message;
}
const burstEnd = Math.max(...observers.map((o) => o.seen[input.burst - 1]!));
const burstMs = burstEnd - burstStart;
await sleep(500);

// Paced: `rate` edits per second for `pacedSeconds`; latency = observer receipt - send.
const sent = new Float64Array(total);
const pacedStart = performance.now();
for (let i = 0, seq = input.burst; seq < total; ) {
  const now = performance.now();
  while (seq < total && pacedStart + (i * 1000) / input.rate <= now) {
    sent[seq] = performance.now();
    edit(seq);
    seq++;
    i++;
  }
  await sleep(1);
}
let pacedError: string | null = null;
try {
  await until(() => allHave(total - 1), 30_000, 'the paced edits');
} catch (error) {
  pacedError = (error as Error).message;
}
const latencies: number[] = [];
let missing = 0;
for (const observer of observers) {
  for (let seq = input.burst; seq < total; seq++) {
    if (observer.seen[seq]! > 0) latencies.push(observer.seen[seq]! - sent[seq]!);
    else missing++;
  }
}
console.log(
  JSON.stringify({
    connectMs,
    burstMs,
    burstPerSec: burstError ? NaN : (input.burst / burstMs) * 1000,
    pacedP50: percentile(latencies, 50),
    pacedP99: percentile(latencies, 99),
    missing,
    error: burstError ?? pacedError,
  }),
);
writer.destroy();
observers.forEach((o) => o.client.destroy());
process.exit(0);
