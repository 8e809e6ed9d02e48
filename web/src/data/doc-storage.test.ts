import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type BucketManager, deleteDocBucket, DOC_BUCKET, moveDocument, resolveDocFactory, withIndexedDB } from './doc-storage.ts';
import { openStoredDocument, UPDATES } from './doc-storage.ts';
import { IndexeddbPersistence } from 'y-indexeddb';

const NAME = 'ranch-doc';

/** A browser's storage: the origin's default bucket and its other buckets, each a separate fake IndexedDB. */
function storage({ persisted = false } = {}) {
  const origin = new IDBFactory();
  const buckets = new Map<string, IDBFactory>();
  const opened: { name: string; persisted: boolean }[] = [];
  const manager: BucketManager = {
    async open(name, options) {
      opened.push({ name, persisted: options?.persisted === true });
      const bucket = buckets.get(name) ?? new IDBFactory();
      buckets.set(name, bucket);
      return { indexedDB: bucket };
    },
    async delete(name) {
      buckets.delete(name);
    },
  };
  return { env: { origin, buckets: manager, persisted: async () => persisted }, buckets, opened };
}

/** Stores a Yjs document the way y-indexeddb does, through `factory`, and returns what it holds. */
async function storeDocument(factory: IDBFactory, horses: string[]): Promise<void> {
  const doc = new Y.Doc();
  const persistence = withIndexedDB(factory, () => new IndexeddbPersistence(NAME, doc));
  await persistence.whenSynced;
  for (const name of horses) doc.getMap('horses').set(name, name);
  await persistence.destroy();
}

/** The horses of the document stored in `factory`, as y-indexeddb loads it. */
async function loadHorses(factory: IDBFactory): Promise<string[]> {
  const doc = new Y.Doc();
  const persistence = withIndexedDB(factory, () => new IndexeddbPersistence(NAME, doc));
  await persistence.whenSynced;
  const horses = [...doc.getMap('horses').keys()].sort();
  await persistence.destroy();
  return horses;
}

async function storedUpdates(factory: IDBFactory): Promise<number> {
  const db = await openStoredDocument(factory, NAME);
  const count = await new Promise<number>((resolve) => {
    const request = db.transaction(UPDATES).objectStore(UPDATES).count();
    request.onsuccess = () => resolve(request.result);
  });
  db.close();
  return count;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('the document in a storage bucket of its own', () => {
  it('is kept in the bucket where the browser has buckets, and not in the default one', async () => {
    const { env, buckets, opened } = storage();
    const factory = await resolveDocFactory(env, NAME);
    expect(factory).toBe(buckets.get(DOC_BUCKET));
    await storeDocument(factory, ['Ace']);
    expect(await loadHorses(buckets.get(DOC_BUCKET)!)).toEqual(['Ace']);
    expect((await env.origin.databases()).map((db) => db.name)).toEqual([]);
    expect(opened).toEqual([{ name: DOC_BUCKET, persisted: false }]);
  });

  it('asks for a persistent bucket when the origin is persistent', async () => {
    const { env, opened } = storage({ persisted: true });
    await resolveDocFactory(env, NAME);
    expect(opened).toEqual([{ name: DOC_BUCKET, persisted: true }]);
  });

  it('stays in the default bucket where there are no buckets', async () => {
    const origin = new IDBFactory();
    expect(await resolveDocFactory({ origin }, NAME)).toBe(origin);
  });

  it('moves a document stored before there was a bucket, and loses none of it', async () => {
    const { env, buckets } = storage();
    await storeDocument(env.origin, ['Ace', 'Bolt']);
    const factory = await resolveDocFactory(env, NAME);
    expect(await loadHorses(factory)).toEqual(['Ace', 'Bolt']);
    // Emptied, not deleted: an earlier build's tab may still append to it.
    expect(await storedUpdates(env.origin)).toBe(0);
    expect(buckets.get(DOC_BUCKET)).toBe(factory);
  });

  it('moves what was written to the default bucket after an earlier move, merging both', async () => {
    const { env } = storage();
    await storeDocument(env.origin, ['Ace']);
    const factory = await resolveDocFactory(env, NAME);
    await storeDocument(factory, ['Bolt']);
    // A tab of an earlier build, still open, wrote one more horse where the document was.
    await storeDocument(env.origin, ['Comet']);
    await moveDocument(env.origin, factory, NAME);
    expect(await loadHorses(factory)).toEqual(['Ace', 'Bolt', 'Comet']);
  });

  it('a move made twice (cut short before the delete) still loads the same document', async () => {
    const { env } = storage();
    await storeDocument(env.origin, ['Ace', 'Bolt']);
    const bucket = new IDBFactory();
    await moveDocument(env.origin, bucket, NAME);
    await storeDocument(env.origin, ['Ace', 'Bolt']);
    await moveDocument(env.origin, bucket, NAME);
    expect(await loadHorses(bucket)).toEqual(['Ace', 'Bolt']);
  });

  it('opens nothing in the default bucket when there was no document there', async () => {
    const { env } = storage();
    await resolveDocFactory(env, NAME);
    expect(await env.origin.databases()).toEqual([]);
  });

  it('Clear Local Data deletes the bucket', async () => {
    const { env, buckets } = storage();
    await storeDocument(await resolveDocFactory(env, NAME), ['Ace']);
    await deleteDocBucket(env);
    expect(buckets.has(DOC_BUCKET)).toBe(false);
  });

  it('y-indexeddb opened in a factory leaves the global indexedDB as it was', async () => {
    const before = globalThis.indexedDB;
    const other = new IDBFactory();
    cleanups.push(() => expect(globalThis.indexedDB).toBe(before));
    await storeDocument(other, ['Ace']);
    expect(globalThis.indexedDB).toBe(before);
    expect((await other.databases()).map((db) => db.name)).toEqual([NAME]);
  });
});
