// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import * as syncProtocol from 'y-protocols/sync';
import { IndexeddbPersistence } from 'y-indexeddb';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { collectionMap, writeEntity } from '../../../shared/index.ts';
import { applyAsReceived, applyLargeUpdatesAsReceived, LARGE_UPDATE_BYTES } from './large-updates.ts';

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  vi.restoreAllMocks();
});

/** The server's document: `horses` horses with a long note each (about 1 KB a horse); `early`: its state after the first `earlyHorses`. */
function serverUpdates(horses: number, earlyHorses = 0): { whole: Uint8Array; early: Uint8Array } {
  const doc = new Y.Doc();
  let early = Y.encodeStateAsUpdate(doc);
  for (let i = 0; i < horses; i++) {
    if (i === earlyHorses) early = Y.encodeStateAsUpdate(doc);
    writeEntity(doc, 'horses', `horse-${i}`, { name: `Horse ${i}`, notes: `Shod in spring, ${'good with children; '.repeat(50)}${i}` });
  }
  return { whole: Y.encodeStateAsUpdate(doc), early };
}
const serverUpdate = (horses: number) => serverUpdates(horses).whole;

/** A y-websocket sync message as the server sends it. */
function syncMessage(type: number, update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 0); // y-websocket's messageSync
  encoding.writeVarUint(encoder, type);
  encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}

/** A provider that never connects; the test delivers the server's messages to its handlers. */
function device(minBytes?: number) {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider('ws://127.0.0.1:9', 'ranch', doc, { connect: false });
  cleanups.push(() => provider.destroy());
  applyLargeUpdatesAsReceived(provider, minBytes);
  const seen: { update: Uint8Array; origin: unknown }[] = [];
  doc.on('update', (update: Uint8Array, origin: unknown) => seen.push({ update, origin }));
  const receive = (message: Uint8Array) => {
    const encoder = encoding.createEncoder();
    const decoder = decoding.createDecoder(message);
    const messageType = decoding.readVarUint(decoder);
    provider.messageHandlers[messageType]!(encoder, decoder, provider, true, messageType);
    return encoding.toUint8Array(encoder);
  };
  return { doc, provider, seen, receive };
}

const horseCount = (doc: Y.Doc) => collectionMap(doc, 'horses').size;

/** Byte for byte (toEqual walks a megabyte too slowly). */
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

describe('large updates from the server', () => {
  it('a sync step 2 of over a megabyte reaches the update listeners as received, and the device stores it', async () => {
    const { whole, early } = serverUpdates(1200, 10);
    expect(whole.length).toBeGreaterThan(LARGE_UPDATE_BYTES);
    const { doc, provider, seen, receive } = device();
    const name = `large-updates-${Math.random()}`;
    const stored = new IndexeddbPersistence(name, doc);
    await stored.whenSynced;
    Y.applyUpdate(doc, early, 'earlier');

    const reply = receive(syncMessage(syncProtocol.messageYjsSyncStep2, whole));

    expect(reply.length).toBe(0);
    expect(provider.synced).toBe(true);
    expect(horseCount(doc)).toBe(1200);
    expect(seen.map(({ origin }) => origin)).toEqual(['earlier', provider]);
    // The bytes as received, the 10 horses the device had included: Yjs would have encoded
    // again only the 1,190 it did not have, at the cost of a second pass over all of them.
    expect(sameBytes(seen[1]!.update, whole)).toBe(true);
    // What y-indexeddb stored opens on a reload with every horse.
    await stored.destroy();
    const reloaded = new Y.Doc();
    const again = new IndexeddbPersistence(name, reloaded);
    cleanups.push(() => again.clearData());
    await again.whenSynced;
    expect(horseCount(reloaded)).toBe(1200);
    expect(collectionMap(reloaded, 'horses').get('horse-1199')?.get('name')).toBe('Horse 1199');
  });

  it('a small update is handled by y-websocket as before: the listeners get the change Yjs encodes', () => {
    const update = serverUpdate(3);
    const { doc, provider, seen, receive } = device();
    receive(syncMessage(syncProtocol.messageYjsUpdate, update));
    expect(horseCount(doc)).toBe(3);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.origin).toBe(provider);
    // Encoded again from the transaction, so a new array; it holds the same three horses.
    expect(seen[0]!.update).not.toBe(update);
    const replayed = new Y.Doc();
    Y.applyUpdate(replayed, seen[0]!.update);
    expect(horseCount(replayed)).toBe(3);
    expect(provider.synced).toBe(false);
  });

  it('an update above the threshold that is not a step 2 does not mark the device synced', () => {
    const { doc, provider, seen, receive } = device(10);
    receive(syncMessage(syncProtocol.messageYjsUpdate, serverUpdate(2)));
    expect(horseCount(doc)).toBe(2);
    expect(seen).toHaveLength(1);
    expect(provider.synced).toBe(false);
  });

  it('a step 1 from the server is still answered with what the device has', () => {
    const { doc, receive } = device(10);
    writeEntity(doc, 'horses', 'mine', { name: 'Mine' });
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, 0);
    syncProtocol.writeSyncStep1(encoder, new Y.Doc());
    const reply = receive(encoding.toUint8Array(encoder));
    const decoder = decoding.createDecoder(reply);
    expect(decoding.readVarUint(decoder)).toBe(0);
    expect(decoding.readVarUint(decoder)).toBe(syncProtocol.messageYjsSyncStep2);
    const server = new Y.Doc();
    Y.applyUpdate(server, decoding.readVarUint8Array(decoder));
    expect(collectionMap(server, 'horses').get('mine')?.get('name')).toBe('Mine');
  });

  it('a broken large update is reported, not stored, and the device keeps syncing its own changes', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { doc, provider, seen, receive } = device(10);
    const whole = serverUpdate(5);
    receive(syncMessage(syncProtocol.messageYjsSyncStep2, whole.subarray(0, whole.length - 40)));
    expect(error).toHaveBeenCalledWith('Caught error while handling a Yjs update', expect.anything());
    // Nothing of the broken bytes reached the listeners: only what Yjs integrated, encoded by Yjs.
    for (const { update } of seen) expect(update.length).toBeLessThan(whole.length - 40);
    // The listeners are back: a change made on the device reaches them.
    const before = seen.length;
    doc.transact(() => writeEntity(doc, 'horses', 'mine', { name: 'Mine' }));
    expect(seen.length).toBe(before + 1);
    expect(seen.at(-1)!.origin).not.toBe(provider);
    // And the whole update still applies afterwards.
    receive(syncMessage(syncProtocol.messageYjsSyncStep2, whole));
    expect(horseCount(doc)).toBe(6);
  });
});

describe('applyAsReceived', () => {
  it('keeps a listener added while the update is applied, and every listener there was', () => {
    const doc = new Y.Doc();
    const first: unknown[] = [];
    const added: unknown[] = [];
    doc.on('update', (_update: Uint8Array, origin: unknown) => first.push(origin));
    collectionMap(doc, 'horses').observe(() => {
      if (added.length === 0) doc.on('update', (_update: Uint8Array, origin: unknown) => added.push(origin));
      added.push('observed');
    });
    applyAsReceived(doc, serverUpdate(2), 'server');
    expect(first).toEqual(['server']);
    doc.transact(() => writeEntity(doc, 'horses', 'mine', { name: 'Mine' }));
    expect(first).toEqual(['server', null]);
    expect(added).toContain(null);
  });

  it('a change an observer makes while the update is applied reaches the listeners (stored and sent)', () => {
    const doc = new Y.Doc();
    const seen: { update: Uint8Array; origin: unknown }[] = [];
    doc.on('update', (update: Uint8Array, origin: unknown) => seen.push({ update, origin }));
    const horses = collectionMap(doc, 'horses');
    horses.observe((_event, transaction) => {
      if (transaction.origin === 'server' && !horses.has('seen-here'))
        doc.transact(() => writeEntity(doc, 'horses', 'seen-here', { name: 'Local' }), 'device');
    });
    const received = serverUpdate(2);
    applyAsReceived(doc, received, 'server');
    expect(seen.map(({ origin }) => origin).sort()).toEqual(['device', 'server']);
    expect(seen.find(({ origin }) => origin === 'server')!.update).toBe(received);
    // What the listeners got is the whole document: replayed elsewhere, the local change is there.
    const replayed = new Y.Doc();
    for (const { update } of seen) Y.applyUpdate(replayed, update);
    expect(collectionMap(replayed, 'horses').get('seen-here')?.get('name')).toBe('Local');
    expect(horseCount(replayed)).toBe(3);
  });

  it('with nothing listening, applies the update as Yjs does', () => {
    const doc = new Y.Doc();
    applyAsReceived(doc, serverUpdate(4), 'server');
    expect(horseCount(doc)).toBe(4);
  });
});
