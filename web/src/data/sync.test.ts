// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import {
  CloseCode,
  MESSAGE_ACCESS,
  MESSAGE_ACK,
  MESSAGE_COMPENSATED,
  MESSAGE_EPOCH,
  writeEntity,
  type CompensationNotice,
} from '../../../shared/index.ts';
import { createNoticeStore } from './compensation-notices.ts';
import { openRanchDb } from './db.ts';
import { createSaveTracker } from './save-tracker.ts';
import { createSyncStatus, type EpochWatch, startSync, syncServerUrl } from './sync.ts';

/** Stands in for the browser WebSocket: records the URL and lets the test play the server. */
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
  sent: Uint8Array[] = [];

  constructor(readonly url: string) {
    super();
    FakeSocket.instances.push(this);
  }
  send(data: Uint8Array) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: Uint8Array) {
    this.onmessage?.({ data: message.slice().buffer });
  }
}

const message = (write: (encoder: encoding.Encoder) => void) => {
  const encoder = encoding.createEncoder();
  write(encoder);
  return encoding.toUint8Array(encoder);
};

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
  FakeSocket.instances = [];
});

function connect(isOnline?: () => boolean, senderId?: string, epoch?: EpochWatch) {
  const doc = new Y.Doc();
  const db = openRanchDb(`sync-${Date.now()}-${Math.random()}`);
  const tracker = createSaveTracker(doc, db);
  const { status, destroy } = createSyncStatus(tracker);
  const notices = createNoticeStore();
  const sync = startSync(doc, tracker, status, notices, {
    serverUrl: 'ws://ranch.test/api/sync',
    WebSocketPolyfill: FakeSocket as unknown as typeof WebSocket,
    isOnline,
    senderId,
    ...(epoch ? { epoch } : {}),
  });
  cleanups.push(
    () => sync.destroy(),
    destroy,
    () => tracker.destroy(),
    () => db.delete(),
  );
  const socket = FakeSocket.instances.at(-1);
  socket?.open();
  return { doc, tracker, status, notices, socket: socket!, provider: sync.provider, sync };
}

describe('sync connection', () => {
  it('derives the sync URL from the page and asks for acknowledgements and ledger notices', () => {
    expect(syncServerUrl({ protocol: 'https:', host: 'ranch.example' } as Location)).toBe('wss://ranch.example/api/sync');
    expect(syncServerUrl({ protocol: 'http:', host: 'localhost:5173' } as Location)).toBe('ws://localhost:5173/api/sync');
    const { socket, status } = connect();
    expect(socket.url).toBe('ws://ranch.test/api/sync/ranch?ack=1&ledger=1');
    expect(status.get().connection).toBe('connected');
  });

  it('[A12] names the user whose changes it sends, so a session of another user is refused', () => {
    const { socket } = connect(undefined, 'user-ann');
    expect(socket.url).toBe('ws://ranch.test/api/sync/ranch?ack=1&ledger=1&user=user-ann');
  });

  it('[O5] shows changes waiting until the server acknowledges its state vector', async () => {
    const { doc, tracker, status, socket } = connect();
    await tracker.loaded;
    doc.transact(() => writeEntity(doc, 'horses', '0190a000-0000-7000-8000-0000000000aa', { name: 'Comet' }));
    expect(status.get().saved).toBe(false);

    socket.receive(
      message((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_ACK);
        encoding.writeVarUint8Array(encoder, Y.encodeStateVector(doc));
      }),
    );
    expect(status.get().saved).toBe(true);
  });

  it('[Y8] reconnects at once when the server closes with 1012 (restarting), and stays signed in', async () => {
    const { socket, status, provider } = connect();
    // A history of failed attempts would otherwise stretch the first retry to 2.5 s.
    provider.wsUnsuccessfulReconnects = 10;
    socket.readyState = 3;
    socket.onclose?.({ code: 1012, reason: 'Server restarting, reconnect now' });
    expect(status.get()).toMatchObject({ connection: 'disconnected', sessionExpired: false });
    const before = FakeSocket.instances.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(FakeSocket.instances.length).toBe(before + 1);
  });

  it('[O1] opens no socket while the page says offline, not even to reconnect; opens one once it says online', () => {
    let online = false;
    const { sync } = connect(() => online);
    expect(FakeSocket.instances).toHaveLength(0);
    sync.reconnect();
    globalThis.dispatchEvent(new Event('online'));
    expect(FakeSocket.instances).toHaveLength(0);
    online = true;
    sync.reconnect();
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it('[Y7] [R1] turns read-only when the server says so', () => {
    const { status, socket } = connect();
    socket.receive(
      message((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_ACCESS);
        encoding.writeVarUint(encoder, 1);
      }),
    );
    expect(status.get().readOnly).toBe(true);
    socket.receive(
      message((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_ACCESS);
        encoding.writeVarUint(encoder, 0);
      }),
    );
    expect(status.get().readOnly).toBe(false);
  });

  it('[O7] puts what the server compensated into the notice store, and ignores malformed frames without throwing', () => {
    const { notices, socket, status } = connect();
    const notice: CompensationNotice = {
      collection: 'sales',
      id: '0190a000-0000-7000-8000-0000000000bb',
      action: 'reverted',
      fields: { salePrice: '8000.00' },
      dropped: [],
      reason: 'A sale cannot be changed once recorded',
    };
    const compensated = (payload: string) =>
      message((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_COMPENSATED);
        encoding.writeVarString(encoder, payload);
      });
    const malformed = [
      compensated('not json'),
      compensated('{"collection":"sales"}'),
      compensated(JSON.stringify([{ ...notice, collection: 'unicorns' }])),
      compensated(JSON.stringify([{ ...notice, fields: { salePrice: { nested: true } } }])),
      compensated('[]'),
      message((encoder) => encoding.writeVarUint(encoder, MESSAGE_COMPENSATED)), // no payload at all
      message((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_COMPENSATED);
        encoding.writeVarUint(encoder, 500); // a string length with no string after it
      }),
    ];
    for (const frame of malformed) expect(() => socket.receive(frame)).not.toThrow();
    expect(notices.get().batches).toEqual([]);

    socket.receive(compensated(JSON.stringify([notice])));
    expect(notices.get().batches.map((batch) => batch.notices)).toEqual([[notice]]);
    // The socket still works after the bad frames: later messages are handled.
    socket.receive(
      message((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_ACCESS);
        encoding.writeVarUint(encoder, 1);
      }),
    );
    expect(status.get().readOnly).toBe(true);
  });

  describe('[Y10] the document epoch', () => {
    const epochFrame = (epoch: string) =>
      message((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_EPOCH);
        encoding.writeVarString(encoder, epoch);
      });
    /** A sync step 2 from the server holding one horse the device lacks. */
    const serverState = () => {
      const server = new Y.Doc();
      server.transact(() => writeEntity(server, 'horses', '0190a000-0000-7000-8000-0000000000bb', { name: 'Rebuilt' }));
      return message((encoder) => {
        encoding.writeVarUint(encoder, 0);
        encoding.writeVarUint(encoder, 1);
        encoding.writeVarUint8Array(encoder, Y.encodeStateAsUpdate(server));
      });
    };
    const watch = (held: string | null) => {
      const seen = { adopted: [] as string[], changed: [] as (string | null)[] };
      const epoch: EpochWatch = { held, adopt: (named) => seen.adopted.push(named), changed: (named) => seen.changed.push(named) };
      return { epoch, seen };
    };

    it('sets its document aside, unchanged, when the server names another epoch', () => {
      const { epoch, seen } = watch('');
      const { doc, socket, provider } = connect(undefined, undefined, epoch);
      const before = Y.encodeStateAsUpdate(doc);
      socket.receive(epochFrame('epoch-2'));
      socket.receive(serverState());
      expect(seen).toEqual({ adopted: [], changed: ['epoch-2'] });
      expect(Y.encodeStateAsUpdate(doc)).toEqual(before);
      expect(provider.shouldConnect).toBe(false);
    });

    it("takes the server's epoch into an empty document and syncs on", () => {
      const { epoch, seen } = watch(null);
      const { doc, socket, provider } = connect(undefined, undefined, epoch);
      socket.receive(epochFrame('epoch-2'));
      socket.receive(serverState());
      expect(seen).toEqual({ adopted: ['epoch-2'], changed: [] });
      expect(doc.getMap('horses').size).toBe(1);
      expect(provider.shouldConnect).toBe(true);
    });

    it('goes on when the server names the epoch it holds', () => {
      const { epoch, seen } = watch('epoch-2');
      const { socket } = connect(undefined, undefined, epoch);
      socket.receive(epochFrame('epoch-2'));
      expect(seen).toEqual({ adopted: [], changed: [] });
    });

    it('sets its document aside when the server refuses its state with 4409', () => {
      const { epoch, seen } = watch('');
      const { socket } = connect(undefined, undefined, epoch);
      socket.readyState = 3;
      socket.onclose?.({ code: CloseCode.EpochChanged, reason: 'Document rebuilt: start again from an empty document' });
      expect(seen.changed).toEqual([null]);
    });
  });
});
