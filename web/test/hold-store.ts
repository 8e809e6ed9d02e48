/**
 * Holds a readwrite transaction on `store` of the IndexedDB database `dbName` open until
 * released, as y-indexeddb's load does through its apply: nothing else can read or write
 * the store meanwhile (each request's success issues the next, which keeps it alive).
 */
export function holdStore(dbName: string, store: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const objects = db.transaction(store, 'readwrite').objectStore(store);
      let held = true;
      const spin = () => {
        if (held) objects.count().onsuccess = spin;
      };
      spin();
      resolve(() => {
        held = false;
        db.close();
      });
    };
  });
}
