import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { deleteEntity, newId, writeEntity, type Collection, type EntityChanges, type EntityFields } from '../../shared/index.ts';
import { applyStored, type DocumentStore, type StoredUpdates } from '../src/sync/document-store.ts';
import { openStore, storeKinds, type OpenedStore } from './support/document-stores.ts';
import { canonicalState } from './support/ranch-state.ts';

/**
 * What every DocumentStore promises (src/sync/document-store.ts), checked the same way on
 * memory, PGlite and (with DATABASE_URL) real Postgres. Each test uses a document of its own.
 */

/** A change to `doc` as an update, and the entities it touched (what the host hands the store). */
function change(doc: Y.Doc, collection: Collection, edit: (doc: Y.Doc) => void, ...ids: string[]) {
  const before = Y.encodeStateVector(doc);
  doc.transact(() => edit(doc));
  const changes: EntityChanges = new Map([[collection, new Set(ids)]]);
  return { update: Y.encodeStateAsUpdate(doc, before), changes };
}

const writeBreed = (doc: Y.Doc, id: string, fields: EntityFields) => change(doc, 'breeds', (d) => writeEntity(d, 'breeds', id, fields), id);

function docOf(stored: StoredUpdates): Y.Doc {
  const doc = new Y.Doc();
  applyStored(doc, stored, null);
  return doc;
}

const unique = () => `doc-${newId()}`;

// Postgres hands bytes back as Buffers: equal bytes are equal, whatever their class.
expect.addEqualityTesters([
  (a: unknown, b: unknown) => (a instanceof Uint8Array && b instanceof Uint8Array ? Buffer.from(a).equals(Buffer.from(b)) : undefined),
]);

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe.each(storeKinds())('document store contract (%s)', (kind) => {
  let opened: OpenedStore;
  let store: DocumentStore;

  beforeAll(async () => {
    opened = await openStore(kind);
    store = opened.store;
  });
  afterAll(() => opened?.close());

  it('registers a new document empty, and loading it again changes nothing', async () => {
    const name = unique();
    expect(await store.load(name)).toEqual({ snapshot: null, updates: [], lastSeq: 0n, snapshotSeq: 0n });
    expect(await store.load(name)).toEqual({ snapshot: null, updates: [], lastSeq: 0n, snapshotSeq: 0n });
    expect((await store.positions()).get(name)).toBe(0n);
  });

  it('loads what was appended: the same state, at the new position', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    const first = writeBreed(doc, newId(), { name: 'Arabian', isActive: true });
    const second = writeBreed(doc, newId(), { name: 'Friesian', isActive: true });
    expect(await store.append(name, 0n, [{ update: first.update, userId: newId() }], { doc, changes: first.changes })).toBe(1n);
    expect(await store.append(name, 1n, [{ update: second.update, userId: null }], { doc, changes: second.changes })).toBe(2n);
    const loaded = await store.load(name);
    expect(loaded.lastSeq).toBe(2n);
    expect(canonicalState(docOf(loaded))).toBe(canonicalState(doc));
    expect((await store.readSince(name, 1n)).updates).toEqual([second.update]);
    expect(await store.readSince(name, 2n)).toEqual({ snapshot: null, updates: [], lastSeq: 2n, snapshotSeq: 2n });
    expect((await store.positions()).get(name)).toBe(2n);
  });

  it('logs several updates of one append in order, at consecutive positions', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    const ids = [newId(), newId(), newId()];
    const changes = ids.map((id, index) => writeBreed(doc, id, { name: `Breed ${index}`, isActive: true }));
    const all: EntityChanges = new Map([['breeds', new Set(ids)]]);
    expect(
      await store.append(
        name,
        0n,
        changes.map(({ update }) => ({ update, userId: null })),
        { doc, changes: all },
      ),
    ).toBe(3n);
    expect((await store.readSince(name, 0n)).updates).toEqual(changes.map(({ update }) => update));
    expect((await store.lastValid('breeds', ids)).size).toBe(3);
  });

  it('projects valid entities, keeps the last valid state of invalid ones, and leaves a tombstone for removed ones', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    const id = newId();
    const created = writeBreed(doc, id, { name: 'Mustang', isActive: true });
    await store.append(name, 0n, [{ update: created.update, userId: null }], { doc, changes: created.changes });
    expect(await store.lastValid('breeds', [id])).toEqual(new Map([[id, { id, name: 'Mustang', isActive: true }]]));

    const broken = writeBreed(doc, id, { name: '', isActive: false });
    await store.append(name, 1n, [{ update: broken.update, userId: null }], { doc, changes: broken.changes });
    expect(await store.lastValid('breeds', [id])).toEqual(new Map([[id, { id, name: 'Mustang', isActive: true }]]));

    const renamed = writeBreed(doc, id, { name: 'Mustang II', isActive: false });
    await store.append(name, 2n, [{ update: renamed.update, userId: null }], { doc, changes: renamed.changes });
    const removed = change(doc, 'breeds', (d) => deleteEntity(d, 'breeds', id), id);
    await store.append(name, 3n, [{ update: removed.update, userId: null }], { doc, changes: removed.changes });
    expect(await store.lastValid('breeds', [id, newId(), 'not-an-id'])).toEqual(
      new Map([[id, { id, name: 'Mustang II', isActive: false }]]),
    );
  });

  it('projects every kind of column as Postgres reads it back', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    const [breed, color, gender, horse] = [newId(), newId(), newId(), newId()];
    const lookups = change(
      doc,
      'breeds',
      (d) => {
        writeEntity(d, 'breeds', breed, { name: 'Arabian', isActive: true });
        writeEntity(d, 'colors', color, { name: 'Bay', isActive: true });
        writeEntity(d, 'genders', gender, { name: 'Mare', isActive: true });
      },
      breed,
    );
    lookups.changes.set('colors', new Set([color])).set('genders', new Set([gender]));
    await store.append(name, 0n, [{ update: lookups.update, userId: null }], { doc, changes: lookups.changes });
    const fields = {
      name: 'Star',
      breedId: breed,
      colorId: color,
      genderId: gender,
      birthdate: '2019-04-01',
      ageYears: 6,
      priceUsd: '12500.50',
      notes: 'Calm',
    };
    const created = change(doc, 'horses', (d) => writeEntity(d, 'horses', horse, fields), horse);
    await store.append(name, 1n, [{ update: created.update, userId: null }], { doc, changes: created.changes });
    expect((await store.lastValid('horses', [horse])).get(horse)).toEqual({
      id: horse,
      statusId: null,
      ownerId: null,
      photoUrl: null,
      ...fields,
    });
  });

  it('writes nothing when the log has moved on, and exactly one of two appends at the same position wins', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    const one = writeBreed(doc, newId(), { name: 'One', isActive: true });
    const other = new Y.Doc();
    const two = writeBreed(other, newId(), { name: 'Two', isActive: true });
    const results = await Promise.all([
      store.append(name, 0n, [{ update: one.update, userId: null }], { doc, changes: one.changes }),
      store.append(name, 0n, [{ update: two.update, userId: null }], { doc: other, changes: two.changes }),
    ]);
    expect(results.filter((seq) => seq === 1n)).toHaveLength(1);
    expect(results.filter((seq) => seq === null)).toHaveLength(1);
    const winner = results[0] === 1n ? one : two;
    const loser = results[0] === 1n ? two : one;
    expect((await store.readSince(name, 0n)).updates).toEqual([winner.update]);
    expect((await store.lastValid('breeds', [...loser.changes.get('breeds')!])).size).toBe(0);
    expect(await store.append(name, 0n, [{ update: loser.update, userId: null }], { doc: other, changes: loser.changes })).toBeNull();
  });

  it('leaves nothing behind when an append fails', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    const id = newId();
    const created = writeBreed(doc, id, { name: 'Lost', isActive: true });
    await expect(
      store.append(
        name,
        0n,
        [
          { update: created.update, userId: null },
          { update: created.update, userId: 'not-a-user' },
        ],
        { doc, changes: created.changes },
      ),
    ).rejects.toThrow();
    await expect(store.append(name, 0n, [], { doc, changes: created.changes })).rejects.toThrow();
    expect(await store.load(name)).toEqual({ snapshot: null, updates: [], lastSeq: 0n, snapshotSeq: 0n });
    expect((await store.lastValid('breeds', [id])).size).toBe(0);
    expect(await store.append(name, 0n, [{ update: created.update, userId: null }], { doc, changes: created.changes })).toBe(1n);
  });

  it('compacts into a snapshot that keeps the state; later updates follow it; an older snapshot never replaces a newer one', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    for (let seq = 0n; seq < 3n; seq++) {
      const { update, changes } = writeBreed(doc, newId(), { name: `Breed ${seq}`, isActive: true });
      await store.append(name, seq, [{ update, userId: null }], { doc, changes });
    }
    const atThree = canonicalState(doc);
    await store.compact(name, Y.encodeStateAsUpdate(doc), 3n);
    const compacted = await store.load(name);
    expect(compacted).toMatchObject({ updates: [], lastSeq: 3n, snapshotSeq: 3n });
    expect(canonicalState(docOf(compacted))).toBe(atThree);

    const later = writeBreed(doc, newId(), { name: 'Later', isActive: true });
    expect(await store.append(name, 3n, [{ update: later.update, userId: null }], { doc, changes: later.changes })).toBe(4n);
    await store.compact(name, new Uint8Array([0, 0]), 2n); // stale: ignored
    const loaded = await store.load(name);
    expect(loaded).toMatchObject({ updates: [later.update], lastSeq: 4n, snapshotSeq: 3n });
    expect(canonicalState(docOf(loaded))).toBe(canonicalState(doc));
    // A device at position 1 gets the snapshot (its log is gone) and what follows.
    const behind = await store.readSince(name, 1n);
    expect(behind.snapshot).not.toBeNull();
    expect(behind).toMatchObject({ updates: [later.update], lastSeq: 4n, snapshotSeq: 3n });
    expect(await store.readSince(name, 3n)).toMatchObject({ snapshot: null, updates: [later.update], lastSeq: 4n });
  });

  it('under the lock: reports position and checked rules, commits what the job wrote, and others wait', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    const first = writeBreed(doc, newId(), { name: 'First', isActive: true });
    await store.append(name, 0n, [{ update: first.update, userId: null }], { doc, changes: first.changes });
    const release = deferred();
    const entered = deferred();
    const second = writeBreed(doc, newId(), { name: 'Second', isActive: true });
    const job = store.locked(name, async (locked) => {
      entered.resolve();
      expect(locked.position).toBe(1n);
      expect(locked.checkedRules).toBe(0);
      expect((await locked.readSince(name, 0n)).updates).toEqual([first.update]);
      await release.promise;
      const seq = await locked.append(name, 1n, [{ update: second.update, userId: null }], { doc, changes: second.changes });
      await locked.setCheckedRules(7);
      return seq;
    });
    await entered.promise;
    const outside = new Y.Doc();
    const racing = writeBreed(outside, newId(), { name: 'Racing', isActive: true });
    const waiting = store.append(name, 1n, [{ update: racing.update, userId: null }], { doc: outside, changes: racing.changes });
    release.resolve();
    expect(await job).toBe(2n);
    expect(await waiting).toBeNull(); // it waited for the lock, then found the log moved on
    await store.locked(name, async (locked) => {
      expect(locked.position).toBe(2n);
      expect(locked.checkedRules).toBe(7);
    });
  });

  it('under the lock: a job that throws leaves nothing behind', async () => {
    const name = unique();
    await store.load(name);
    const doc = new Y.Doc();
    const id = newId();
    const created = writeBreed(doc, id, { name: 'Rolled back', isActive: true });
    await expect(
      store.locked(name, async (locked) => {
        expect(await locked.append(name, 0n, [{ update: created.update, userId: null }], { doc, changes: created.changes })).toBe(1n);
        await locked.setCheckedRules(3);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await store.load(name)).toEqual({ snapshot: null, updates: [], lastSeq: 0n, snapshotSeq: 0n });
    expect((await store.lastValid('breeds', [id])).size).toBe(0);
    await store.locked(name, async (locked) => expect(locked.checkedRules).toBe(0));
  });

  // Only Postgres (and memory) is shared by several server instances: PGlite is one session
  // inside one server process, so there is no other instance to tell; the test is not defined for it.
  if (kind !== 'pglite')
    it('tells another instance of every append once it is durable', async () => {
      const name = unique();
      const other = (await opened.another())!;
      const heard: [string, bigint][] = [];
      let listening = false;
      const stop = await other.listen(
        (doc, seq) => heard.push([doc, seq]),
        () => (listening = true),
      );
      try {
        await expect.poll(() => listening).toBe(true);
        await store.load(name);
        const doc = new Y.Doc();
        const { update, changes } = writeBreed(doc, newId(), { name: 'Heard', isActive: true });
        await store.append(
          name,
          0n,
          [
            { update, userId: null },
            { update, userId: null },
          ],
          { doc, changes },
        );
        await expect.poll(() => heard.filter(([doc]) => doc === name)).toEqual([[name, 2n]]);
        expect((await other.readSince(name, 0n)).lastSeq).toBe(2n);
        expect((await other.positions()).get(name)).toBe(2n);
      } finally {
        await stop();
      }
      const { update, changes } = writeBreed(new Y.Doc(), newId(), { name: 'Unheard', isActive: true });
      await store.append(name, 2n, [{ update, userId: null }], { doc: new Y.Doc(), changes });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard.filter(([doc]) => doc === name)).toHaveLength(1);
    });
});
