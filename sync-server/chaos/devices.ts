import 'fake-indexeddb/auto';
import WebSocket from 'ws';
import type * as Y from 'yjs';
import { newId, writeEntity } from '../../shared/index.ts';
import { SYNC_PATH } from '../../shared/index.ts';
import { createNoticeStore } from '../../web/src/data/compensation-notices.ts';
import { openRanchDb, type RanchDb } from '../../web/src/data/db.ts';
import { createSaveTracker, type SaveTracker } from '../../web/src/data/save-tracker.ts';
import { createStore } from '../../web/src/data/store.ts';
import { startSync, type SyncConnection, type SyncStatus } from '../../web/src/data/sync.ts';
import { connectAckedDevice } from '../test/support/sync-client.ts';

/** One write a device made: a new record, and the device's own clock once it was written. */
export type Write = { collection: 'breeds' | 'colors'; id: string; clock: number };

/**
 * A device of the fault suite: its document, the writes it made, the highest clock of its
 * own the server acknowledged (after the Postgres commit, docs/architecture.md "Sync
 * protocol"), and whether it holds a working connection.
 */
export type ChaosDevice = {
  name: string;
  kind: 'y-websocket' | 'app';
  doc: Y.Doc;
  writes: Write[];
  ackedClock(): number;
  localClock(): number;
  connected(): boolean;
  destroy(): Promise<void>;
};

const ownClock = (doc: Y.Doc) => {
  let clock = 0;
  for (const struct of doc.store.clients.get(doc.clientID) ?? []) clock = Math.max(clock, struct.id.clock + struct.length);
  return clock;
};

/** Writes one new record (a breed or a colour: valid on its own, [O1]) and logs it. */
export function writeOne(device: ChaosDevice, random: () => number): void {
  const collection = random() < 0.5 ? 'breeds' : 'colors';
  const id = newId();
  device.doc.transact(() => writeEntity(device.doc, collection, id, { name: `${device.name} ${device.writes.length}`, isActive: true }));
  device.writes.push({ collection, id, clock: device.localClock() });
}

/** The stock y-websocket client (`ack=1`), as sync-server/test/support/sync-client.ts has it. */
export function stockDevice(name: string, baseUrl: string, cookie: string): ChaosDevice {
  const device = connectAckedDevice(baseUrl, cookie);
  return {
    name,
    kind: 'y-websocket',
    doc: device.doc,
    writes: [],
    ackedClock: device.ackedClock,
    localClock: device.localClock,
    connected: () => device.provider.wsconnected && device.provider.synced,
    async destroy() {
      device.destroy();
    },
  };
}

function cookieSocket(cookie: string): typeof globalThis.WebSocket {
  return class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie } });
    }
  } as unknown as typeof globalThis.WebSocket;
}

let appDevices = 0;

/**
 * The PWA's own data layer in Node: web/src/data/sync.ts (its provider, the 1012 handling,
 * the acknowledgement handler) and save-tracker.ts (what counts as saved, kept in the Dexie
 * meta table on fake-indexeddb). The browser events it listens to never fire here.
 */
export function appDevice(name: string, baseUrl: string, cookie: string, doc: Y.Doc): ChaosDevice {
  // The page's events (online, pageshow, visibilitychange), which never fire here.
  if (typeof globalThis.addEventListener !== 'function') {
    const events = new EventTarget();
    Reflect.set(globalThis, 'addEventListener', events.addEventListener.bind(events));
    Reflect.set(globalThis, 'removeEventListener', events.removeEventListener.bind(events));
  }
  if (typeof globalThis.window === 'undefined') Reflect.set(globalThis, 'window', globalThis);
  if (typeof globalThis.document === 'undefined')
    Reflect.set(globalThis, 'document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  const db: RanchDb = openRanchDb(`chaos-app-${process.pid}-${++appDevices}`);
  const tracker: SaveTracker = createSaveTracker(doc, db);
  const status = createStore<SyncStatus>({
    online: true,
    connection: 'disconnected',
    readOnly: false,
    saved: true,
    sessionExpired: false,
    documentReplaced: false,
    synced: false,
    lastSyncedAt: null,
  });
  const sync: SyncConnection = startSync(doc, tracker, status, createNoticeStore(), {
    serverUrl: baseUrl.replace(/^http/, 'ws') + SYNC_PATH,
    WebSocketPolyfill: cookieSocket(cookie),
  });
  return {
    name,
    kind: 'app',
    doc,
    writes: [],
    ackedClock: () => tracker.acknowledgedClocks().get(doc.clientID) ?? (tracker.isSaved() ? ownClock(doc) : 0),
    localClock: () => ownClock(doc),
    connected: () => sync.provider.wsconnected && sync.provider.synced,
    async destroy() {
      sync.destroy();
      tracker.destroy();
      doc.destroy();
      db.close();
      await db.delete();
    },
  };
}
