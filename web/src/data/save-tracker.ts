import * as Y from 'yjs';
import type { RanchDb } from './db.ts';

type StateVector = Map<number, number>;

const SERVER_VECTOR_KEY = 'sync.serverStateVector';
const AUTHORED_KEY = 'sync.authoredClients';
/** What the tracker keeps of one document: forgotten with it when the document is replaced (epoch-carry-over.ts). */
export const DOCUMENT_TRACKER_KEYS = [SERVER_VECTOR_KEY, AUTHORED_KEY];
export type SaveTracker = {
  /** Resolves when what earlier sessions knew (acknowledgements, own client ids) is loaded. */
  loaded: Promise<void>;
  /** True when the server has made every change written on this device durable. */
  isSaved(): boolean;
  /** The server's state vector from an acknowledgement (MESSAGE_ACK). */
  acknowledge(serverVector: StateVector): void;
  /** For each client id this device wrote with, the clock the server has acknowledged. */
  acknowledgedClocks(): Map<number, number>;
  /** Client ids this device wrote with in another document (creates an earlier app staged: outbox/legacy-creates.ts). Call before applying their update. */
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
    db.meta
      .bulkPut([
        // Only the own ids' clocks matter here; the full vector grows with every session of every device.
        { key: SERVER_VECTOR_KEY, value: [...authored].map((client) => [client, server.get(client) ?? 0]) },
        { key: AUTHORED_KEY, value: [...authored] },
      ])
      .catch((error: unknown) => console.error('Could not store the sync state', error));

  const loaded = db.meta.bulkGet([SERVER_VECTOR_KEY, AUTHORED_KEY]).then(([vector, clients]) => {
    for (const [client, clock] of asPairs(vector?.value)) {
      server.set(client, Math.max(clock, server.get(client) ?? 0));
    }
    for (const client of asNumbers(clients?.value)) authored.add(client);
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
      for (const client of clients) authored.add(client);
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
