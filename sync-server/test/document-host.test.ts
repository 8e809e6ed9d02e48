import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, getEntity, newId, writeEntity, type CompensationNotice } from '../../shared/index.ts';
import { DocumentHost, DocumentUnavailableError, SYNC_RULES_VERSION, type Subscriber } from '../src/sync/document-host.ts';
import type { LoggedUpdate, Projection } from '../src/sync/document-store.ts';
import { MemoryDatabase, MemoryDocumentStore } from '../src/sync/memory-document-store.ts';
import type { OldLayout } from '../src/ledger/old-layout.ts';
import type { ChangeOrigin } from '../src/sync/origin.ts';
import { everything, RANCH, seededDoc } from './support/memory-ranch.ts';

/**
 * The document host on a memory store: group commit, the durability contract (nothing is
 * broadcast or acknowledged before the store's append resolves), failures, other instances.
 */

/** A memory store whose appends can be held, made to fail, and are counted. */
class TestStore extends MemoryDocumentStore {
  appends: number[] = [];
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;
  failNext: Error | null = null;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = null;
  }

  override async append(name: string, expectedSeq: bigint, updates: LoggedUpdate[], projection: Projection): Promise<bigint | null> {
    this.appends.push(updates.length);
    await this.gate;
    const failure = this.failNext;
    this.failNext = null;
    if (failure) throw failure;
    return super.append(name, expectedSeq, updates, projection);
  }
}

type Received = ['update', Uint8Array] | ['notices', CompensationNotice[]] | ['unavailable'] | ['ack'];

function subscriber(id: number): Subscriber & { received: Received[] } {
  const received: Received[] = [];
  return {
    id,
    userId: newId(),
    sessionId: newId(),
    received,
    sendUpdate: (update) => received.push(['update', update]),
    sendNotices: (notices) => received.push(['notices', notices]),
    sendAwareness: () => {},
    setCanWrite: () => {},
    closeUnavailable: () => received.push(['unavailable']),
    closeSignedOut: () => {},
    stopReading: () => {},
    closeRestarting: () => {},
  };
}

/**
 * A memory store has no ledger: these tests write no sale, payment or correction into the
 * document (old-layout.test.ts does, against a real database), so reaching it is a failure.
 */
const NO_LEDGER: OldLayout = {
  record: () => Promise.reject(new Error('This test has no ledger')),
  move: () => Promise.reject(new Error('This test has no ledger')),
  done: () => Promise.reject(new Error('This test has no ledger')),
};

const hosts: DocumentHost[] = [];
afterEach(() => hosts.splice(0).forEach((host) => host.destroy()));

async function loadHost(store: MemoryDocumentStore, options: { compactEvery?: number } = {}) {
  const broken: DocumentHost[] = [];
  const positions: bigint[] = [];
  const host = await DocumentHost.load(
    store,
    RANCH,
    { onBroken: (host) => broken.push(host), onPosition: (_name, seq) => positions.push(seq) },
    { ...options, oldLayout: NO_LEDGER },
  );
  hosts.push(host);
  return { host, broken, positions };
}

/** A device's change as the update it sends, committed as the server commits a connection's update. */
function send(host: DocumentHost, connection: Subscriber, device: Y.Doc, edit: (doc: Y.Doc) => void): Promise<Uint8Array | null> {
  const before = Y.encodeStateVector(device);
  device.transact(() => edit(device));
  const update = Y.encodeStateAsUpdate(device, before);
  const origin: ChangeOrigin = { kind: 'connection', connectionId: connection.id, userId: connection.userId };
  return host.commit((doc) => Y.applyUpdate(doc, update, origin), origin);
}

/** A device holding the host's document. */
function deviceOf(host: DocumentHost): Y.Doc {
  const device = new Y.Doc();
  Y.applyUpdate(device, Y.encodeStateAsUpdate(host.doc));
  return device;
}

/** The seeded ranch, stored, with a host on it, a sending connection and an observing one. */
async function ranchHost(store = new TestStore()) {
  const { doc, ids } = seededDoc({ sale: false });
  await store.load(RANCH);
  await store.append(RANCH, 0n, [{ update: Y.encodeStateAsUpdate(doc), userId: null }], { doc, changes: everything(doc) });
  store.appends = [];
  const loaded = await loadHost(store);
  const sender = subscriber(1);
  const observer = subscriber(2);
  loaded.host.subscribers.add(sender).add(observer);
  return { ...loaded, store, ids, sender, observer, device: deviceOf(loaded.host) };
}

const horseNamed = (ids: ReturnType<typeof seededDoc>['ids'], name: string) => ({
  name,
  breedId: ids.breed,
  colorId: ids.color,
  genderId: ids.gender,
});

describe('document host on a memory store', () => {
  it('commits updates that arrive together in one append', async () => {
    const { host, store, ids, sender, device } = await ranchHost();
    const names = ['One', 'Two', 'Three', 'Four'];
    const commits = names.map((name) => send(host, sender, device, (doc) => writeEntity(doc, 'horses', newId(), horseNamed(ids, name))));
    await Promise.all(commits);
    expect(store.appends).toEqual([4]);
    expect((await store.load(RANCH)).lastSeq).toBe(5n);
  });

  it('acknowledges and broadcasts nothing before the append resolves; the next ones wait and go together', async () => {
    const { host, store, ids, sender, observer, device } = await ranchHost();
    store.hold();
    const settled: string[] = [];
    const first = send(host, sender, device, (doc) => writeEntity(doc, 'horses', newId(), horseNamed(ids, 'First'))).then(() =>
      settled.push('first'),
    );
    await expect.poll(() => store.appends).toEqual([1]);
    const later = ['Second', 'Third'].map((name) =>
      send(host, sender, device, (doc) => writeEntity(doc, 'horses', newId(), horseNamed(ids, name))).then(() => settled.push(name)),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toEqual([]);
    expect(observer.received).toEqual([]);
    store.release();
    await Promise.all([first, ...later]);
    expect(store.appends).toEqual([1, 2]);
    expect(settled).toEqual(['first', 'Second', 'Third']);
    expect(observer.received.map(([kind]) => kind)).toEqual(['update', 'update', 'update']);
    expect(sender.received).toEqual([]); // a device's own updates are not echoed to it
  });

  it('acknowledges none of a batch whose append fails, and the devices keep their changes to send again', async () => {
    const { host, store, ids, sender, observer, device, broken } = await ranchHost();
    store.failNext = new Error('disk full');
    const horses = [newId(), newId()];
    const commits = horses.map((id) => send(host, sender, device, (doc) => writeEntity(doc, 'horses', id, horseNamed(ids, 'Lost?'))));
    for (const commit of commits) await expect(commit).rejects.toBeInstanceOf(DocumentUnavailableError);
    expect(broken).toEqual([host]);
    expect(sender.received).toEqual([['unavailable']]);
    expect(observer.received).toEqual([['unavailable']]);
    await expect(host.run(() => 'anything')).rejects.toBeInstanceOf(DocumentUnavailableError);
    expect((await store.load(RANCH)).lastSeq).toBe(1n); // nothing of the batch was stored

    // The device reconnects to a fresh host and sends what the server lacks: nothing is lost.
    const { host: fresh } = await loadHost(store);
    const missing = Y.encodeStateAsUpdate(device, Y.encodeStateVector(fresh.doc));
    await fresh.commit((doc) => Y.applyUpdate(doc, missing), { kind: 'connection', connectionId: 1, userId: sender.userId });
    for (const id of horses) expect(getEntity(fresh.doc, 'horses', id)?.name).toBe('Lost?');
    expect((await store.lastValid('horses', horses)).size).toBe(2);
  });

  it('logs the compensation of an invalid change in the same append, and tells its sender before acknowledging', async () => {
    const { host, store, ids, sender, observer, device } = await ranchHost();
    const commit = send(host, sender, device, (doc) => collectionMap(doc, 'horses').get(ids.horse)!.set('name', ''));
    await commit.then(() => sender.received.push(['ack']));
    expect(store.appends).toEqual([2]);
    expect(sender.received.map(([kind]) => kind)).toEqual(['update', 'notices', 'ack']);
    expect(observer.received.map(([kind]) => kind)).toEqual(['update', 'update']);
    expect(getEntity(host.doc, 'horses', ids.horse)?.name).toBe('Star');
    expect((await store.lastValid('horses', [ids.horse])).get(ids.horse)?.name).toBe('Star');
  });

  it('refuses a change that throws before writing, and goes on with the rest of the batch', async () => {
    const { host, store, ids, sender, device } = await ranchHost();
    const refused = host.commit(
      () => {
        throw new Error('refused');
      },
      { kind: 'rest', userId: sender.userId },
    );
    const kept = send(host, sender, device, (doc) => writeEntity(doc, 'horses', newId(), horseNamed(ids, 'Kept')));
    await expect(refused).rejects.toThrow('refused');
    await expect(kept).resolves.toBeInstanceOf(Uint8Array);
    expect(store.appends).toEqual([1]);
  });

  it('catches up with another instance, and commits after it under the lock when it was behind', async () => {
    const database = new MemoryDatabase();
    const { host: one, ids, sender } = await ranchHost(new TestStore(database));
    const { host: two } = await loadHost(new TestStore(database));
    const watcher = subscriber(3);
    two.subscribers.add(watcher);
    const first = newId();
    await send(one, sender, deviceOf(one), (doc) => writeEntity(doc, 'horses', first, horseNamed(ids, 'Via one')));
    // Two has not heard of it yet: its commit finds the log moved on and takes it in first.
    const second = newId();
    await send(two, subscriber(4), deviceOf(two), (doc) => writeEntity(doc, 'horses', second, horseNamed(ids, 'Via two')));
    expect(getEntity(two.doc, 'horses', first)?.name).toBe('Via one');
    expect(watcher.received.map(([kind]) => kind)).toEqual(['update', 'update']); // one's change, then its own
    one.catchUp(3n);
    await one.run(() => {});
    expect(getEntity(one.doc, 'horses', second)?.name).toBe('Via two');
    expect((await new MemoryDocumentStore(database).load(RANCH)).lastSeq).toBe(3n);
  });

  it('checks a stored document once under new rules, and compensates what they refuse', async () => {
    const store = new TestStore();
    const { doc, ids } = seededDoc({ sale: false });
    const invalid = newId();
    doc.transact(() => writeEntity(doc, 'horses', invalid, { name: 'No breed' }));
    await store.load(RANCH);
    await store.append(RANCH, 0n, [{ update: Y.encodeStateAsUpdate(doc), userId: null }], { doc, changes: everything(doc) });
    const { host } = await loadHost(store);
    expect(collectionMap(host.doc, 'horses').has(invalid)).toBe(false);
    expect(collectionMap(host.doc, 'horses').has(ids.horse)).toBe(true);
    await store.locked(RANCH, async (locked) => {
      expect(locked.checkedRules).toBe(SYNC_RULES_VERSION);
      expect(locked.position).toBe(2n);
    });
  });

  it("[I6] clears, once on load, horse photos that are not this ranch's, written under the older rules; the horses stay", async () => {
    const store = new TestStore();
    const { doc, ids } = seededDoc({ sale: false });
    const horse = (photoUrl: string) => {
      const id = newId();
      doc.transact(() =>
        writeEntity(doc, 'horses', id, { name: photoUrl, breedId: ids.breed, colorId: ids.color, genderId: ids.gender, photoUrl }),
      );
      return id;
    };
    const tracker = horse('https://tracker.example/pixel.gif?who=office');
    const logout = horse('/api/logout');
    const ours = horse(`/api/objects/${newId()}`);
    const pending = horse(`outbox:${newId()}`);
    await store.load(RANCH);
    await store.append(RANCH, 0n, [{ update: Y.encodeStateAsUpdate(doc), userId: null }], { doc, changes: everything(doc) });
    await store.locked(RANCH, (locked) => locked.setCheckedRules(1));
    const { host } = await loadHost(store);
    const photo = (id: string) => getEntity(host.doc, 'horses', id)?.photoUrl;
    expect([photo(tracker), photo(logout)]).toEqual([null, null]);
    expect(photo(ours)).toMatch(/^\/api\/objects\//);
    expect(photo(pending)).toMatch(/^outbox:/);
    expect([tracker, logout, ours, pending].every((id) => collectionMap(host.doc, 'horses').has(id))).toBe(true);
    await store.locked(RANCH, async (locked) => expect(locked.checkedRules).toBe(SYNC_RULES_VERSION));
  });

  it('[H10] clears, once on load, birth dates after today written under the older rules; the horses and ages stay', async () => {
    const store = new TestStore();
    const { doc, ids } = seededDoc({ sale: false });
    const horse = (birthdate: string) => {
      const id = newId();
      doc.transact(() =>
        writeEntity(doc, 'horses', id, {
          name: birthdate,
          breedId: ids.breed,
          colorId: ids.color,
          genderId: ids.gender,
          birthdate,
          ageYears: 4,
        }),
      );
      return id;
    };
    const future = horse('2030-01-01');
    const past = horse('2019-04-02');
    await store.load(RANCH);
    await store.append(RANCH, 0n, [{ update: Y.encodeStateAsUpdate(doc), userId: null }], { doc, changes: everything(doc) });
    await store.locked(RANCH, (locked) => locked.setCheckedRules(3));
    const { host } = await loadHost(store);
    expect(getEntity(host.doc, 'horses', future)).toMatchObject({ birthdate: null, ageYears: 4, name: '2030-01-01' });
    expect(getEntity(host.doc, 'horses', past)).toMatchObject({ birthdate: '2019-04-02', ageYears: 4 });
    await store.locked(RANCH, async (locked) => expect(locked.checkedRules).toBe(SYNC_RULES_VERSION));
  });

  it('compacts the log into a snapshot once enough updates are logged', async () => {
    const store = new TestStore();
    await store.load(RANCH);
    const { host } = await loadHost(store, { compactEvery: 2 });
    const connection = subscriber(1);
    const device = deviceOf(host);
    const { ids } = seededDoc({ sale: false });
    await send(host, connection, device, (doc) => writeEntity(doc, 'breeds', ids.breed, { name: 'Arabian', isActive: true }));
    await send(host, connection, device, (doc) => writeEntity(doc, 'colors', ids.color, { name: 'Bay', isActive: true }));
    // The snapshot is written outside the document's queue; settled() waits for it too.
    await host.settled();
    const stored = await store.load(RANCH);
    expect(stored).toMatchObject({ updates: [], snapshotSeq: 2n, lastSeq: 2n });
  });
});
