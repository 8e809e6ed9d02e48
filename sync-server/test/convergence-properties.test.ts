import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectionMap,
  contactInput,
  deleteEntity,
  getEntity,
  horseInput,
  lookupInput,
  markHorseSold,
  newId,
  paymentInput,
  RECORD_SCHEMAS,
  saleInput,
  writeEntity,
  type Collection,
  type EntityFields,
  type JsonValue,
} from '../../shared/index.ts';
import { createdId, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import {
  commandList,
  fullRecord,
  indexIn,
  isRef,
  LOOKUPS,
  POOL,
  POOLED,
  someFields,
  type PooledCollection,
  type SymbolicFields,
} from './support/ranch-arbitraries.ts';
import {
  canonicalState,
  documentState,
  durableDocument,
  durableLedger,
  listedProblems,
  projection,
  verdicts,
} from './support/ranch-state.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { connectAckedDevice } from './support/sync-client.ts';

/**
 * [O6], [Y6]: random offline edits on several replicas converge, and the server's
 * projection equals the replicas' state. A failure prints fast-check's seed and path;
 * `FC_SEED=<seed> FC_PATH=<path>` replays exactly that run (and `FC_RUNS` asks for more).
 *
 * They found three gaps in the server's compensation, since fixed (regression tests in
 * sync-validation.test.ts): faults one check hid from the next, reference checks against a
 * projection that lagged the batch, and entities made valid by another's appearance never
 * checked again. The full contract is checked on every run.
 */
const NUM_RUNS = Number(process.env.FC_RUNS ?? 20);
/** The suite's fixed seed, so every run meets the same cases; `FC_SEED` picks others (`npm run test:full` a fresh one). */
const SEED = 20261207;
const replay = {
  seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : SEED,
  ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
};
/**
 * The time one property may take, runs and shrinking together (fast-check then reports what
 * it has): about 2 s per run (they take well under 1 s) and 150 s to shrink a failure.
 */
const TIME_BUDGET_MS = 150_000 + NUM_RUNS * 2_000;
const TEST_TIMEOUT_MS = TIME_BUDGET_MS + 60_000;
const CONVERGENCE_TIMEOUT_MS = 15_000;

type Replica = ReturnType<typeof connectAckedDevice>;

/** Per run, the real UUID of each symbolic pool entry (fresh every run, so runs never collide). */
type Ids = Record<PooledCollection, string[]>;
const freshIds = (): Ids =>
  Object.fromEntries(POOLED.map((collection) => [collection, Array.from({ length: POOL[collection] }, newId)])) as Ids;
const idsOf = (ids: Ids, payments: string[]) => new Set([...Object.values(ids).flat(), ...payments]);

function resolve(fields: SymbolicFields, ids: Ids): EntityFields {
  return Object.fromEntries(
    Object.entries(fields).map(([field, value]) => [
      field,
      isRef(value) ? ids[value.ref as PooledCollection][value.index]! : (value as JsonValue),
    ]),
  );
}

// ---------------------------------------------------------------------------------------
// Property 1: raw replicas (any field values, deletes of anything), offline and online.

type RawCommand =
  | { op: 'write'; replica: number; collection: PooledCollection; index: number; fields: SymbolicFields }
  | { op: 'edit'; replica: number; collection: PooledCollection; index: number; fields: SymbolicFields }
  | { op: 'delete'; replica: number; collection: PooledCollection; index: number }
  | { op: 'pay'; replica: number; fields: SymbolicFields }
  | { op: 'offline'; replica: number }
  | { op: 'online'; replica: number }
  | { op: 'settle' };

const replicaIndex = fc.integer({ min: 0, max: 2 });
const pooledEntity = fc.constantFrom(...POOLED).chain((collection) => indexIn(collection).map((index) => ({ collection, index })));
const rawCommand: fc.Arbitrary<RawCommand> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({ replica: replicaIndex, target: pooledEntity })
      .chain(({ replica, target }) =>
        fullRecord(target.collection).map((fields) => ({ op: 'write' as const, replica, ...target, fields })),
      ),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({ replica: replicaIndex, target: pooledEntity })
      .chain(({ replica, target }) => someFields(target.collection).map((fields) => ({ op: 'edit' as const, replica, ...target, fields }))),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ replica: replicaIndex, target: pooledEntity })
      .map(({ replica, target }) => ({ op: 'delete' as const, replica, ...target })),
  },
  {
    weight: 2,
    arbitrary: fc.record({ replica: replicaIndex, fields: fullRecord('payments') }).map((command) => ({ op: 'pay' as const, ...command })),
  },
  { weight: 2, arbitrary: replicaIndex.map((replica) => ({ op: 'offline' as const, replica })) },
  { weight: 1, arbitrary: replicaIndex.map((replica) => ({ op: 'online' as const, replica })) },
  { weight: 1, arbitrary: fc.constant({ op: 'settle' as const }) },
);
const rawScenario = fc.record({ replicas: fc.integer({ min: 2, max: 3 }), commands: commandList(rawCommand, 20) });

// ---------------------------------------------------------------------------------------
// Property 2: one device that behaves like the app (validates, refuses what the app refuses).

type AppCommand =
  | { op: 'lookup'; kind: (typeof LOOKUPS)[number]; index: number; fields: SymbolicFields }
  | { op: 'horse' | 'owners' | 'buyers' | 'sale'; index: number; fields: SymbolicFields }
  | { op: 'deleteHorse' | 'deleteOwner' | 'deleteBuyer'; index: number }
  | { op: 'pay'; fields: SymbolicFields }
  | { op: 'offline' | 'online' };

const appCommand: fc.Arbitrary<AppCommand> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(...LOOKUPS)
      .chain((kind) =>
        fc
          .record({ index: indexIn(kind), fields: someFields(kind, 'valid') })
          .map((command) => ({ op: 'lookup' as const, kind, ...command })),
      ),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({ index: indexIn('horses'), fields: fullRecord('horses', 'valid') })
      .map((command) => ({ op: 'horse' as const, ...command })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ index: indexIn('owners'), fields: fullRecord('owners', 'valid') })
      .map((command) => ({ op: 'owners' as const, ...command })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ index: indexIn('buyers'), fields: fullRecord('buyers', 'valid') })
      .map((command) => ({ op: 'buyers' as const, ...command })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ index: indexIn('sales'), fields: fullRecord('sales', 'valid') })
      .map((command) => ({ op: 'sale' as const, ...command })),
  },
  { weight: 2, arbitrary: fullRecord('payments', 'valid').map((fields) => ({ op: 'pay' as const, fields })) },
  { weight: 3, arbitrary: indexIn('horses').map((index) => ({ op: 'deleteHorse' as const, index })) },
  { weight: 3, arbitrary: indexIn('owners').map((index) => ({ op: 'deleteOwner' as const, index })) },
  { weight: 1, arbitrary: indexIn('buyers').map((index) => ({ op: 'deleteBuyer' as const, index })) },
  { weight: 2, arbitrary: fc.constantFrom({ op: 'offline' as const }, { op: 'online' as const }) },
);

describe.each(databaseKinds())('properties: offline replicas converge and the projection follows them (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  const open = new Set<Replica>();

  beforeAll(async () => {
    server = await startTestServer(kind);
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
  });
  afterAll(async () => {
    open.forEach((replica) => replica.destroy());
    await server.destroy();
  });

  function connect(): Replica {
    const replica = connectAckedDevice(server.url, staff.cookie);
    open.add(replica);
    return replica;
  }
  function disconnect(replicas: Replica[]): void {
    for (const replica of replicas) {
      replica.destroy();
      open.delete(replica);
    }
  }

  const acked = (replica: Replica) =>
    replica.provider.wsconnected && replica.provider.synced && replica.ackedClock() >= replica.localClock();

  /** Until every replica has all its changes acknowledged and holds exactly what the server holds. */
  async function converge(replicas: Replica[]): Promise<void> {
    for (const replica of replicas) if (!replica.provider.shouldConnect) replica.provider.connect();
    await expect
      .poll(
        async () => {
          const state = canonicalState((await hostDoc()).doc);
          return {
            unacknowledged: replicas.flatMap((replica, index) => (acked(replica) ? [] : [index])),
            differing: replicas.flatMap((replica, index) => (canonicalState(replica.doc) === state ? [] : [index])),
          };
        },
        { timeout: CONVERGENCE_TIMEOUT_MS, interval: 20 },
      )
      .toEqual({ unacknowledged: [], differing: [] });
    // Every replica's update is acknowledged, so committed; wait for anything still queued.
    await (await hostDoc()).run(() => undefined);
  }
  const hostDoc = () => server.registry.get();

  /**
   * (a) every replica and the durable document equal the server's document; (b) the REST
   * lists hold exactly its valid entities and (c) entity_problems exactly its invalid ones,
   * among the entities of this run (`only`), so a failed run does not fail the runs after it.
   */
  async function expectServerFollows(replicas: Replica[], only: ReadonlySet<string>): Promise<void> {
    const state = canonicalState((await hostDoc()).doc);
    for (const replica of replicas) expect(canonicalState(replica.doc)).toBe(state);
    const durable = await durableDocument(server.db.sql);
    expect(canonicalState(durable)).toBe(state);
    const expected = verdicts(durable, only, await durableLedger(server.db.sql));
    const listed = await listedProblems(server.db.sql, only);
    durable.destroy();
    expect(await projection(staff, only)).toEqual(expected.valid);
    expect(listed).toEqual(expected.invalid);
  }

  /**
   * A valid starting ranch made through REST, as the office would: index 0 of every lookup
   * pool, two suppliers, a buyer, a horse of the first supplier, a ranch horse and (unless
   * `sale` is false) a sale of the first horse. Returns the ids it made.
   */
  async function seedRanch(ids: Ids, { sale = true } = {}): Promise<string[]> {
    const made: string[] = [];
    const create = async (collection: PooledCollection, index: number, body: Record<string, unknown>) => {
      made.push((ids[collection][index] = await createdId(staff, `/api/${collection}`, body)));
    };
    for (const kind of LOOKUPS) await create(kind, 0, { name: `${kind} 0` });
    await create('owners', 0, { firstName: 'Olive', lastName: 'Supplier' });
    await create('owners', 1, { firstName: 'Otto', lastName: 'Supplier' });
    await create('buyers', 0, { firstName: 'Bea', lastName: 'Buyer' });
    const lookups = { breedId: ids.breeds[0], colorId: ids.colors[0], genderId: ids.genders[0] };
    await create('horses', 0, { name: 'Seed', ...lookups, ownerId: ids.owners[0], priceUsd: '9000' });
    await create('horses', 1, { name: 'Sprout', ...lookups });
    if (sale)
      await create('sales', 0, { horseId: ids.horses[0], buyerId: ids.buyers[0], salePrice: '9000', downPayment: '1000', termsMonths: 6 });
    return made;
  }

  it(
    '[O6] [Y6] random offline edits on 2–3 replicas converge; the server holds the same document, its projection the valid entities',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawScenario, async ({ replicas: count, commands }) => {
          const ids = freshIds();
          const payments: string[] = [];
          await seedRanch(ids);
          const replicas = Array.from({ length: count }, connect);
          try {
            await converge(replicas);
            for (const command of commands) {
              if (command.op === 'settle') {
                const online = replicas.filter((replica) => replica.provider.shouldConnect);
                await expect.poll(() => online.every(acked), { timeout: CONVERGENCE_TIMEOUT_MS, interval: 10 }).toBe(true);
                continue;
              }
              const replica = replicas[command.replica % count]!;
              const { doc, provider } = replica;
              switch (command.op) {
                case 'offline':
                case 'online':
                  setOnline(provider, command.op === 'online');
                  break;
                case 'write':
                  doc.transact(() =>
                    writeEntity(doc, command.collection, ids[command.collection][command.index]!, resolve(command.fields, ids)),
                  );
                  break;
                case 'edit': {
                  // As the app does: only what this replica still has can be edited.
                  const id = ids[command.collection][command.index]!;
                  if (collectionMap(doc, command.collection).has(id))
                    doc.transact(() => writeEntity(doc, command.collection, id, resolve(command.fields, ids)));
                  break;
                }
                case 'delete':
                  doc.transact(() => deleteEntity(doc, command.collection, ids[command.collection][command.index]!));
                  break;
                case 'pay': {
                  const id = newId();
                  payments.push(id);
                  doc.transact(() => writeEntity(doc, 'payments', id, resolve(command.fields, ids)));
                  break;
                }
              }
            }
            await converge(replicas);
            await expectServerFollows(replicas, idsOf(ids, payments));
          } finally {
            disconnect(replicas);
          }
        }),
        { numRuns: NUM_RUNS, ...replay, plugins: [fc.interruptAfterTimeLimit(TIME_BUDGET_MS, { failOnInterrupt: true })] },
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '[Y6] a device that keeps its data valid has every change accepted as it made it, offline or not',
    async () => {
      await fc.assert(
        fc.asyncProperty(commandList(appCommand, 25), async (commands) => {
          const ids = freshIds();
          /** Ids this run has created (a deleted one is not made again: the app makes new ids). */
          const created = new Set(await seedRanch(ids, { sale: false }));
          const device = connect();
          const { doc, provider } = device;
          /**
           * The sales and payments this device recorded, as the app reads them from the ledger
           * (layout 3): the server takes them out of the document.
           */
          const recorded = new Map<string, { collection: Collection; fields: EntityFields }>();
          const ledgerHas = (collection: Collection, id: string) => recorded.get(id)?.collection === collection;
          const has = (collection: Collection, id: string | undefined) =>
            id !== undefined && (collectionMap(doc, collection).has(id) || ledgerHas(collection, id));
          const refersTo = (collection: Collection, field: string, id: string) =>
            [...collectionMap(doc, collection).values()].some((entity) => entity.get(field) === id) ||
            [...recorded.values()].some((made) => made.collection === collection && made.fields[field] === id);
          /** The app's repositories: validate with the shared schema; a refused save writes nothing. */
          const save = (collection: Collection, id: string, parsed: { success: boolean; data?: unknown }, stamp: boolean) => {
            if (!parsed.success) return;
            const fields = parsed.data as EntityFields;
            // Forms offer only what exists on this device.
            const refs = Object.entries({
              breedId: 'breeds',
              colorId: 'colors',
              genderId: 'genders',
              statusId: 'statuses',
              ownerId: 'owners',
              horseId: 'horses',
              buyerId: 'buyers',
              saleId: 'sales',
            } as const);
            if (refs.some(([field, target]) => typeof fields[field] === 'string' && !has(target, fields[field] as string))) return;
            const exists = has(collection, id);
            if (!exists && created.has(id)) return;
            // [S11] [P5] The app records sales and payments and never changes them afterwards.
            if (exists && (collection === 'sales' || collection === 'payments')) return;
            created.add(id);
            doc.transact(() => {
              let written = exists || !stamp ? fields : { ...fields, createdAt: new Date().toISOString() };
              // [S18] As the app records a sale: the horse marked Sold in the same change, its status before kept.
              if (collection === 'sales') written = { ...written, previousStatusId: markHorseSold(doc, String(fields.horseId)) };
              if (collection === 'sales' || collection === 'payments') recorded.set(id, { collection, fields: written });
              writeEntity(doc, collection, id, written);
            });
          };
          try {
            await converge([device]);
            for (const command of commands) {
              switch (command.op) {
                case 'offline':
                case 'online':
                  setOnline(provider, command.op === 'online');
                  break;
                case 'lookup': {
                  const id = ids[command.kind][command.index]!;
                  const current = getEntity(doc, command.kind, id);
                  // New items are created active ([L4]); existing ones are renamed or (de)activated.
                  save(
                    command.kind,
                    id,
                    lookupInput.safeParse(
                      current ? { ...current, ...resolve(command.fields, ids) } : { ...resolve(command.fields, ids), isActive: true },
                    ),
                    false,
                  );
                  break;
                }
                case 'horse':
                  save('horses', ids.horses[command.index]!, horseInput.safeParse(resolve(command.fields, ids)), false);
                  break;
                case 'owners':
                case 'buyers':
                  save(
                    command.op,
                    ids[command.op][command.index]!,
                    contactInput.safeParse(resolve(command.fields, ids)),
                    command.op === 'owners',
                  );
                  break;
                case 'sale':
                  save('sales', ids.sales[command.index]!, saleInput.safeParse(resolve(command.fields, ids)), true);
                  break;
                case 'pay':
                  save('payments', newId(), paymentInput.safeParse(resolve(command.fields, ids)), true);
                  break;
                case 'deleteHorse': {
                  const id = ids.horses[command.index]!;
                  if (!refersTo('sales', 'horseId', id)) doc.transact(() => deleteEntity(doc, 'horses', id));
                  break;
                }
                case 'deleteOwner': {
                  const id = ids.owners[command.index]!;
                  if (!refersTo('horses', 'ownerId', id)) doc.transact(() => deleteEntity(doc, 'owners', id));
                  break;
                }
                case 'deleteBuyer': {
                  const id = ids.buyers[command.index]!;
                  if (!refersTo('sales', 'buyerId', id)) doc.transact(() => deleteEntity(doc, 'buyers', id));
                  break;
                }
              }
            }
            const asMade = documentState(doc);
            await converge([device]);
            // Nothing was compensated: the server took every change as it was made, its sales and
            // payments into the ledger (layout 3), each as it was made.
            expect(documentState(doc)).toBe(asMade);
            const ledger = await durableLedger(server.db.sql);
            const parsed = (collection: Collection, record: Record<string, unknown>) =>
              JSON.stringify(RECORD_SCHEMAS[collection].parse(record));
            for (const [id, { collection, fields }] of recorded) {
              const entry = ledger.find((found) => found.id === id);
              expect(entry && [entry.collection, parsed(collection, entry.record)], id).toEqual([collection, parsed(collection, fields)]);
            }
            // Everything it made is valid, so the office sees all of it.
            expect(verdicts(doc, created, ledger).invalid).toEqual([]);
            await expectServerFollows([device], created);
          } finally {
            disconnect([device]);
          }
        }),
        { numRuns: NUM_RUNS, ...replay, plugins: [fc.interruptAfterTimeLimit(TIME_BUDGET_MS, { failOnInterrupt: true })] },
      );
    },
    TEST_TIMEOUT_MS,
  );
});

/** Takes a replica off the network or back on it (a no-op when it already is). */
function setOnline(provider: { shouldConnect: boolean; connect(): void; disconnect(): void }, online: boolean): void {
  if (online && !provider.shouldConnect) provider.connect();
  if (!online && provider.shouldConnect) provider.disconnect();
}
