import { DOC_DB_NAME } from './doc-db-name.ts';

/**
 * The storage bucket the document's database lives in where the browser has Storage Buckets
 * (Chromium 122 and later, Android's included; docs/web.md "The document in a bucket of its
 * own"). Chromium runs the IndexedDB requests of one bucket one after another: in the
 * origin's default bucket, every read of the read database (the list's pages, a staged
 * write, the row an edit starts from) waited behind the data worker's reads of the stored
 * document, 80–160 ms each on a phone. A bucket of its own has its own queue.
 */
export const DOC_BUCKET = 'ranch-doc';

/** y-indexeddb's object stores (node_modules/y-indexeddb/src/y-indexeddb.js). */
export const UPDATES = 'updates';
const CUSTOM = 'custom';

/** What is used of `navigator.storageBuckets` (StorageBucketManager). */
export type BucketManager = {
  open(name: string, options?: { persisted?: boolean }): Promise<{ indexedDB: IDBFactory }>;
  delete(name: string): Promise<void>;
};

/** Where this thread keeps its IndexedDB databases: the origin's factory and its bucket manager, if any. */
export type StorageEnvironment = {
  origin: IDBFactory;
  buckets?: BucketManager;
  /** Whether the origin's storage is persistent (navigator.storage.persisted). */
  persisted?: () => Promise<boolean>;
};

export function browserStorage(): StorageEnvironment {
  const navigator = globalThis.navigator as (Navigator & { storageBuckets?: BucketManager }) | undefined;
  return {
    origin: globalThis.indexedDB,
    buckets: navigator?.storageBuckets,
    persisted: navigator?.storage?.persisted ? () => navigator.storage.persisted() : undefined,
  };
}

/**
 * The IndexedDB factory that holds the document's database (`name`): its bucket's where
 * there are buckets, else the origin's. The bucket is as persistent as the origin's own
 * storage (after sign-in the app asks for persistence, lib/persist-storage.ts), so the
 * browser never evicts the document while it keeps the read database, or the other way
 * round, for want of it.
 *
 * A document stored before there was a bucket (in the origin's default bucket) is moved into
 * it first (moveDocument), so the load finds every change the device has kept.
 */
export async function resolveDocFactory(env: StorageEnvironment, name: string = DOC_DB_NAME): Promise<IDBFactory> {
  if (!env.buckets) return env.origin;
  const persisted = (await env.persisted?.().catch(() => false)) ?? false;
  const bucket = await env.buckets.open(DOC_BUCKET, persisted ? { persisted: true } : {});
  await moveDocument(env.origin, bucket.indexedDB, name);
  return bucket.indexedDB;
}

const resolved = new Map<string, Promise<IDBFactory>>();

/**
 * This thread's factory for the document's database `name` (resolveDocFactory with the
 * browser's storage), resolved once. A bucket that cannot be opened (a browser that refuses
 * it) leaves the document where it was, in the origin's default bucket: the next start moves
 * what was written there meanwhile, and Yjs merges the two.
 */
export function documentFactory(name: string = DOC_DB_NAME): Promise<IDBFactory> {
  const env = browserStorage();
  // Looked up at each call where there are no buckets: the tests' fake IndexedDB is replaced.
  if (!env.buckets) return Promise.resolve(env.origin);
  let factory = resolved.get(name);
  if (!factory) {
    factory = resolveDocFactory(env, name).catch((error: unknown) => {
      console.warn('The document stays in the default storage bucket', error);
      return env.origin;
    });
    resolved.set(name, factory);
  }
  return factory;
}

/**
 * Copies the Yjs updates stored for `name` in `from` into the same database in `to`, then
 * deletes from `from` the updates it copied. y-indexeddb's updates are Yjs updates: applying
 * one twice changes nothing, so a move cut short (the tab closed between the copy and the
 * delete) is made again at the next start with no harm. The database in `from` is emptied,
 * not deleted: a tab still running an earlier build of the app may hold it open and append
 * to it, and a deletion would wait for it to close and then take what it wrote since; what it
 * appends is moved at the next start. (y-indexeddb's `custom` store, which the app does not
 * use, is not moved.)
 */
export async function moveDocument(from: IDBFactory, to: IDBFactory, name: string): Promise<void> {
  if (!(await hasDatabase(from, name))) return;
  const source = await openExisting(from, name);
  try {
    if (!source.objectStoreNames.contains(UPDATES)) return;
    const { keys, updates } = await readUpdates(source);
    if (keys.length === 0) return;
    const target = await openStoredDocument(to, name);
    try {
      await finished(target.transaction(UPDATES, 'readwrite'), (store) => {
        for (const update of updates) store.add(update);
      });
    } finally {
      target.close();
    }
    const last = keys[keys.length - 1] as IDBValidKey;
    await finished(source.transaction(UPDATES, 'readwrite'), (store) => {
      store.delete(IDBKeyRange.upperBound(last));
    });
  } finally {
    source.close();
  }
}

/** Whether `factory` holds a database named `name`, without creating one. */
async function hasDatabase(factory: IDBFactory, name: string): Promise<boolean> {
  const databases = await factory.databases();
  return databases.some((database) => database.name === name);
}

/** Opens `name`, which exists, at its version. Closed when another connection asks to change or delete it. */
function openExisting(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name);
    open.onerror = () => reject(open.error ?? new Error(`Could not open ${name}`));
    open.onsuccess = () => {
      open.result.onversionchange = () => open.result.close();
      resolve(open.result);
    };
  });
}

function readUpdates(db: IDBDatabase): Promise<{ keys: IDBValidKey[]; updates: unknown[] }> {
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(UPDATES, 'readonly');
    const store = transaction.objectStore(UPDATES);
    const keys = store.getAllKeys();
    const updates = store.getAll();
    transaction.oncomplete = () => resolve({ keys: keys.result, updates: updates.result });
    transaction.onabort = () => reject(transaction.error ?? new Error('Could not read the stored document'));
  });
}

/** Runs `write` on the transaction's updates store; resolves once the transaction has committed. */
function finished(transaction: IDBTransaction, write: (store: IDBObjectStore) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? new Error('Could not move the stored document'));
    write(transaction.objectStore(UPDATES));
  });
}

/**
 * Runs `open` with the global `indexedDB` set to `factory`. y-indexeddb (through lib0) opens
 * and deletes its database with the global `indexedDB`, and takes no factory; it opens in
 * the constructor's synchronous part, and nothing else runs meanwhile, so nothing else sees
 * the change. Its later requests go through the connection it opened.
 */
export function withIndexedDB<T>(factory: IDBFactory, open: () => T): T {
  if (factory === globalThis.indexedDB) return open();
  const own = Object.getOwnPropertyDescriptor(globalThis, 'indexedDB');
  Object.defineProperty(globalThis, 'indexedDB', { value: factory, configurable: true, writable: true });
  try {
    return open();
  } finally {
    if (own) Object.defineProperty(globalThis, 'indexedDB', own);
    else delete (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  }
}

/** Deletes the document's storage bucket, where there are buckets (Clear Local Data and sign-out). */
export async function deleteDocBucket(env: StorageEnvironment = browserStorage()): Promise<void> {
  await env.buckets?.delete(DOC_BUCKET).catch((error: unknown) => console.warn('Could not delete the document bucket', error));
  resolved.clear();
}

/** Deletes `name` from `factory`; resolves when it is gone (or could not be, which the next clear retries). */
export function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
    request.onblocked = () => resolve();
  });
}

/**
 * Opens the document's database `name` in `factory` at its version, making y-indexeddb's
 * stores as y-indexeddb does when the database is new. The connection closes itself when
 * another asks to change or delete the database.
 */
export function openStoredDocument(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(UPDATES, { autoIncrement: true });
      open.result.createObjectStore(CUSTOM);
    };
    open.onerror = () => reject(open.error ?? new Error(`Could not open ${name}`));
    open.onsuccess = () => {
      open.result.onversionchange = () => open.result.close();
      resolve(open.result);
    };
  });
}
