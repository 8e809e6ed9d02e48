import * as Y from 'yjs';
import type { RanchDb } from './db.ts';

type StateVector = Map<number, number>;

const SERVER_VECTOR_KEY = 'sync.serverStateVector';
const AUTHORED_KEY = 'sync.authoredClients';
/** What the tracker keeps of one document: forgotten with it when the document is replaced (epoch-carry-over.ts). */
export const DOCUMENT_TRACKER_KEYS = [SERVER_VECTOR_KEY, AUTHORED_KEY];
/** Client ids of creates a page staged (staged-writes.ts) that no tracker has adopted yet. */
const STAGED_KEY = 'sync.stagedClients';

/**
 * Notes the client ids of creates a page staged, in the transaction of the drain that
 * deletes their rows (staged-updates.ts): the tracker of the next start adopts the ids from
 * here. The drain's tracker adopts them as well; the note covers a host that stopped after
 * deleting the rows but before its tracker stored the ids, so the records still count as
 * unsent. Call inside a transaction on `meta`.
 */
export async function noteStagedClients(db: RanchDb, clients: Iterable<number>): Promise<void> {
  const noted = new Set(asNumbers((await db.meta.get(STAGED_KEY))?.value));
  for (const client of clients) noted.add(client);
  await db.meta.put({ key: STAGED_KEY, value: [...noted] });
}

export type SaveTracker = {
  /** Resolves when what earlier sessions knew (acknowledgements, own client ids) is loaded. */
  loaded: Promise<void>;
  /** True when the server has made every change written on this device durable. */
  isSaved(): boolean;
  /** The server's state vector from an acknowledgement (MESSAGE_ACK). */
  acknowledge(serverVector: StateVector): void;
  /** For each client id this device wrote with, the clock the server has acknowledged. */
  acknowledgedClocks(): Map<number, number>;
  /**
   * Client ids this device wrote with in another document: creates a page made while the
   * host was loading (staged-writes.ts). Call before applying their update.
   */
  adopt(clients: Iterable<number>): void;
  /** Called with the new isSaved() whenever it may have changed. */
  onChange(listener: (saved: boolean) => void): () => void;
  destroy(): void;
};

/**
 * Decides "all changes saved" versus "changes waiting". Every Y.Doc session writes under
 * its own client id, so the tracker remembers the ids this device wrote with (across
 * reloads, in the meta table) and compares their local clocks with the clocks the server
 * acknowledged. Changes from other devices reached us through the server, so they never
 * count as waiting. An id whose changes are all acknowledged is forgotten.
 */
export function createSaveTracker(doc: Y.Doc, db: RanchDb): SaveTracker {
  const server: StateVector = new Map();
  const authored = new Set<number>();
  // Noted staged ids this tracker took over: they leave the note at the next persist, so an
  // id acknowledged and forgotten is not adopted again by a later start.
  const adoptedStaged = new Set<number>();
  const listeners = new Set<(saved: boolean) => void>();

  const localVector = () => Y.decodeStateVector(Y.encodeStateVector(doc));

  const isSaved = () => {
    const local = localVector();
    for (const client of authored) {
      if ((server.get(client) ?? 0) < (local.get(client) ?? 0)) return false;
    }
    return true;
  };

  const notify = () => {
    const saved = isSaved();
    listeners.forEach((listener) => listener(saved));
  };

  const persist = () =>
    db
      .transaction('rw', db.meta, async () => {
        await db.meta.bulkPut([
          // Only the own ids' clocks matter here; the full vector grows with every session of every device.
          { key: SERVER_VECTOR_KEY, value: [...authored].map((client) => [client, server.get(client) ?? 0]) },
          { key: AUTHORED_KEY, value: [...authored] },
        ]);
        if (adoptedStaged.size === 0) return;
        const noted = asNumbers((await db.meta.get(STAGED_KEY))?.value);
        await db.meta.put({ key: STAGED_KEY, value: noted.filter((client) => !adoptedStaged.has(client)) });
      })
      .catch((error: unknown) => console.error('Could not store the sync state', error));

  const adopt = (clients: Iterable<number>) => {
    for (const client of clients) {
      authored.add(client);
      adoptedStaged.add(client);
    }
  };

  const loaded = db.meta.bulkGet([SERVER_VECTOR_KEY, AUTHORED_KEY, STAGED_KEY]).then(([vector, clients, staged]) => {
    for (const [client, clock] of asPairs(vector?.value)) {
      server.set(client, Math.max(clock, server.get(client) ?? 0));
    }
    for (const client of asNumbers(clients?.value)) authored.add(client);
    const noted = asNumbers(staged?.value);
    adopt(noted);
    if (noted.length > 0) void persist();
    notify();
  });

  const onUpdate = () => {
    // Only local writes create structs under doc.clientID; remember the id before anything
    // else, so a reload while offline still knows these changes are waiting.
    if (!authored.has(doc.clientID) && (localVector().get(doc.clientID) ?? 0) > 0) {
      authored.add(doc.clientID);
      void loaded.then(persist);
    }
    notify();
  };
  doc.on('update', onUpdate);

  return {
    loaded,
    isSaved,
    acknowledge(serverVector) {
      for (const [client, clock] of serverVector) {
        if (clock > (server.get(client) ?? 0)) server.set(client, clock);
      }
      const local = localVector();
      for (const client of authored) {
        if (client !== doc.clientID && (server.get(client) ?? 0) >= (local.get(client) ?? 0)) authored.delete(client);
      }
      void loaded.then(persist);
      notify();
    },
    adopt(clients) {
      adopt(clients);
      void loaded.then(persist);
      notify();
    },
    acknowledgedClocks() {
      return new Map([...authored].map((client) => [client, server.get(client) ?? 0]));
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    destroy() {
      doc.off('update', onUpdate);
      listeners.clear();
    },
  };
}

function asPairs(value: unknown): [number, number][] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (pair): pair is [number, number] => Array.isArray(pair) && typeof pair[0] === 'number' && typeof pair[1] === 'number',
  );
}

function asNumbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
}
