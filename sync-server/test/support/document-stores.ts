import { openDatabase, type Database } from '../../src/db/client.ts';
import type { DocumentStore } from '../../src/sync/document-store.ts';
import { MemoryDatabase, MemoryDocumentStore } from '../../src/sync/memory-document-store.ts';
import { PostgresDocumentStore } from '../../src/sync/postgres-document-store.ts';
import { createTestDatabase, databaseKinds } from './databases.ts';

export type StoreKind = 'memory' | 'pglite' | 'postgres';

/** A document store to test, and a way to open another instance on the same storage. */
export type OpenedStore = {
  store: DocumentStore;
  /** Another instance sharing the storage (null for PGlite: one session, its NOTIFY does not reach a second). */
  another(): Promise<DocumentStore> | null;
  close(): Promise<void>;
};

/** Memory always, PGlite always, real Postgres when DATABASE_URL is set. */
export function storeKinds(): StoreKind[] {
  return ['memory', ...databaseKinds()];
}

export async function openStore(kind: StoreKind): Promise<OpenedStore> {
  if (kind === 'memory') {
    const database = new MemoryDatabase();
    return { store: new MemoryDocumentStore(database), another: async () => new MemoryDocumentStore(database), close: async () => {} };
  }
  const test = await createTestDatabase(kind);
  const opened: Database[] = [await openDatabase(test.options)];
  return {
    store: new PostgresDocumentStore(opened[0]!.sql),
    another:
      kind === 'pglite'
        ? () => null
        : async () => {
            const db = await openDatabase(test.options);
            opened.push(db);
            return new PostgresDocumentStore(db.sql);
          },
    async close() {
      for (const db of opened.reverse()) await db.close();
      await test.drop();
    },
  };
}
