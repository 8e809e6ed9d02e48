// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import { MESSAGE_ACK, writeEntity, type Conflict } from '../../../shared/index.ts';
import { createNoticeStore } from './compensation-notices.ts';
import { startConflictRefresh } from './conflict-cache.ts';
import { openRanchDb, type RanchDb } from './db.ts';
import { createSaveTracker } from './save-tracker.ts';
import { createSyncStatus, startSync } from './sync.ts';

/** Stands in for the browser WebSocket (as in sync.test.ts): the test plays the server. */
class FakeSocket extends EventTarget {
  static instances: FakeSocket[] = [];
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly OPEN = 1;
  readyState = 0;
  binaryType = 'arraybuffer';
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: ArrayBuffer }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(readonly url: string) {
    super();
    FakeSocket.instances.push(this);
  }
  send() {}
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(write: (encoder: encoding.Encoder) => void) {
    const encoder = encoding.createEncoder();
    write(encoder);
    this.onmessage?.({ data: encoding.toUint8Array(encoder).slice().buffer });
  }
}

const HORSE = '0190a000-0000-7000-8000-0000000000aa';
const CONFLICT: Conflict = {
  id: '3',
  collection: 'horses',
  entityId: HORSE,
  field: 'priceUsd',
  kept: { value: '9200.00', userId: 'u-bob', userName: 'Bob Jones', serverTime: '2026-03-01T10:00:05.000Z' },
  other: { value: '9500.00', userId: 'u-alice', userName: 'Alice Smith', serverTime: '2026-03-01T10:00:01.000Z' },
  money: true,
  detectedAt: '2026-03-01T10:00:05.000Z',
};

const fetchMock = vi.fn<typeof fetch>();
let listed: Conflict[];
let cleanups: (() => unknown)[] = [];

beforeEach(() => {
  listed = [CONFLICT];
  fetchMock.mockImplementation(async () => Response.json({ conflicts: listed }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  FakeSocket.instances = [];
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function connect() {
  const doc = new Y.Doc();
  const db: RanchDb = openRanchDb(`conflicts-${Date.now()}-${Math.random()}`);
  const tracker = createSaveTracker(doc, db);
  const { status, destroy } = createSyncStatus(tracker);
  const sync = startSync(doc, tracker, status, createNoticeStore(), {
    serverUrl: 'ws://ranch.test/api/sync',
    WebSocketPolyfill: FakeSocket as unknown as typeof WebSocket,
  });
  const stop = startConflictRefresh(doc, sync, db, 20);
  cleanups.push(
    () => db.delete(),
    () => tracker.destroy(),
    destroy,
    () => sync.destroy(),
    stop,
  );
  const socket = FakeSocket.instances.at(-1)!;
  socket.open();
  return { doc, db, socket, stop };
}

/** Another device's change, as the server relays it. */
function remoteChange(socket: FakeSocket, price: string) {
  const other = new Y.Doc();
  other.transact(() => writeEntity(other, 'horses', HORSE, { name: 'Dusty', priceUsd: price }));
  socket.receive((encoder) => {
    encoding.writeVarUint(encoder, 0);
    syncProtocol.writeUpdate(encoder, Y.encodeStateAsUpdate(other));
  });
}

const calls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/conflicts').length;

describe('[T6] the device keeps the open conflicts current while it syncs', () => {
  it('fetches once the socket has synced, into the table the screens read', async () => {
    const { db, socket } = connect();
    expect(calls()).toBe(0);
    socket.receive((encoder) => {
      encoding.writeVarUint(encoder, 0);
      syncProtocol.writeSyncStep2(encoder, new Y.Doc());
    });
    await expect.poll(() => db.conflicts.toArray()).toEqual([{ ...CONFLICT, answeredAt: null }]);
    expect(calls()).toBe(1);
  });

  it('fetches again once after a burst of other devices’ changes, and after the server acknowledges this device’s', async () => {
    const { doc, db, socket } = connect();
    remoteChange(socket, '9200.00');
    remoteChange(socket, '9300.00');
    remoteChange(socket, '9400.00');
    await expect.poll(() => db.conflicts.count()).toBe(1);
    expect(calls()).toBe(1);
    // An answer sent from here: the server acknowledges it, having closed the conflict.
    doc.transact(() => writeEntity(doc, 'horses', HORSE, { priceUsd: '9500.00' }));
    listed = [];
    socket.receive((encoder) => {
      encoding.writeVarUint(encoder, MESSAGE_ACK);
      encoding.writeVarUint8Array(encoder, Y.encodeStateVector(doc));
    });
    await expect.poll(() => db.conflicts.count()).toBe(0);
    expect(calls()).toBe(2);
  });
});
