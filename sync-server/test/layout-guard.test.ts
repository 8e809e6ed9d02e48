import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { newId } from '../../shared/index.ts';
import { MAX_KEY_BYTES, refuseOutsideLayout } from '../src/sync/layout-guard.ts';
import { waitsForMissing } from '../src/sync/update-completeness.ts';
import { RefusedUpdateError } from '../src/sync/update-guard.ts';

/** A server document holding one horse, and a device holding a copy of it. */
function setup() {
  const server = new Y.Doc();
  const horseId = newId();
  const device = new Y.Doc();
  const horse = new Y.Map<unknown>();
  device.getMap('horses').set(horseId, horse);
  horse.set('id', horseId);
  horse.set('name', 'Trigger');
  Y.applyUpdate(server, Y.encodeStateAsUpdate(device));
  return { server, device, horseId };
}

/**
 * What `change` sends from a device holding `device`'s state (the server's own by default),
 * as the server's state lacks it, decoded as the server decodes it.
 */
function sent(server: Y.Doc, device: Y.Doc | null, change: (doc: Y.Doc) => void) {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(device ?? server));
  change(copy);
  const update = Y.encodeStateAsUpdate(copy, Y.encodeStateVector(server));
  return { update, ...Y.decodeUpdate(update) };
}

const horses = (doc: Y.Doc) => doc.getMap<Y.Map<unknown>>('horses');

function judge(server: Y.Doc, decoded: { structs: ReturnType<typeof Y.decodeUpdate>['structs'] }) {
  return () => refuseOutsideLayout(decoded.structs, server);
}

describe('names the document layout has no place for are refused before Yjs keeps them', () => {
  it('takes what honest devices write: new records with their fields, edits, new fields, deletions, the device time', () => {
    const { server, horseId } = setup();
    const changes: ((doc: Y.Doc) => void)[] = [
      (doc) => {
        const buyer = new Y.Map<unknown>();
        const id = newId();
        buyer.set('id', id);
        buyer.set('firstName', 'Ann');
        buyer.set('email', null);
        doc.getMap('buyers').set(id, buyer);
      },
      (doc) => {
        const id = newId();
        doc.getMap('breeds').set(id, new Y.Map());
        const breed = doc.getMap<Y.Map<unknown>>('breeds').get(id)!;
        breed.set('id', id);
        breed.set('name', 'Arabian');
        breed.set('isActive', true);
      },
      (doc) => horses(doc).get(horseId)!.set('name', 'Silver'),
      (doc) => horses(doc).get(horseId)!.set('notes', 'new field of an existing record'),
      (doc) => horses(doc).get(horseId)!.set('updatedAt', new Date().toISOString()),
      (doc) => horses(doc).get(horseId)!.delete('notes'),
      (doc) => horses(doc).delete(horseId),
    ];
    for (const change of changes) {
      const decoded = sent(server, null, change);
      expect(judge(server, decoded)).not.toThrow();
      expect(waitsForMissing(decoded.structs, decoded.ds, server)).toBe(false);
      Y.applyUpdate(server, decoded.update);
    }
    expect(server.store.pendingStructs).toBeNull();
  });

  it('refuses a top-level type outside the layout, whatever its size', () => {
    const { server } = setup();
    for (const name of ['R'.repeat(100_000), 'junk']) {
      const decoded = sent(server, null, (doc) => doc.getMap(name).set('a', 1));
      expect(judge(server, decoded)).toThrow(RefusedUpdateError);
    }
    const text = sent(server, null, (doc) => doc.getText('notes').insert(0, 'x'));
    expect(judge(server, text)).toThrow('"notes" is not a collection');
  });

  it('refuses a collection key that is not a record id, and list content in a collection', () => {
    const { server } = setup();
    const long = sent(server, null, (doc) => horses(doc).set('k'.repeat(1 << 20), new Y.Map()));
    expect(judge(server, long)).toThrow(`a key longer than ${MAX_KEY_BYTES} bytes`);
    const short = sent(new Y.Doc(), null, (doc) => doc.getMap('buyers').set('not-an-id', new Y.Map()));
    expect(judge(new Y.Doc(), short)).toThrow('"not-an-id" in buyers is not a record id');
    const upper = sent(new Y.Doc(), null, (doc) => doc.getMap('buyers').set(newId().toUpperCase(), new Y.Map()));
    expect(judge(new Y.Doc(), upper)).toThrow(RefusedUpdateError);
    const list = sent(new Y.Doc(), null, (doc) => doc.getArray('payments').insert(0, ['p']));
    expect(judge(new Y.Doc(), list)).toThrow('list content in payments');
  });

  it('refuses a field a record does not have, on an existing record (parent in the document) and a new one (parent in the update)', () => {
    const { server, horseId } = setup();
    const existing = sent(server, null, (doc) => horses(doc).get(horseId)!.set('f'.repeat(40), 'x'));
    expect(judge(server, existing)).toThrow('is not a field of a horse');
    const other = sent(server, null, (doc) => horses(doc).get(horseId)!.set('createdAt', new Date().toISOString()));
    expect(judge(server, other)).toThrow('"createdAt" is not a field of a horse');
    const fresh = sent(server, null, (doc) => {
      const buyer = new Y.Map<unknown>();
      buyer.set('firstName', 'Ann');
      buyer.set('wallet', 'x');
      doc.getMap('buyers').set(newId(), buyer);
    });
    expect(judge(server, fresh)).toThrow('"wallet" is not a field of a buyer');
  });

  it('refuses keys inside a type held by a field and list content in a record', () => {
    const { server, horseId } = setup();
    const nested = sent(server, null, (doc) => {
      const inner = new Y.Map<unknown>();
      inner.set('k', 1);
      horses(doc).get(horseId)!.set('notes', inner);
    });
    expect(judge(server, nested)).toThrow(`a key ("k") inside a record's field`);
    // A type in a field with no keys is left to the compensation (it is written back).
    const text = sent(server, null, (doc) => horses(doc).get(horseId)!.set('notes', new Y.Text('x')));
    expect(judge(server, text)).not.toThrow();
    // List content straight in a record map: invisible to Y.Map, never removed.
    const holder = Y.decodeUpdate(Y.encodeStateAsUpdate(server)).structs.find((s) => s instanceof Y.Item && s.parentSub === horseId)!;
    const forged = new Y.Item(Y.createID(4242, 0), null, null, null, null, holder.id, null, new Y.ContentString('x'.repeat(1000)));
    expect(() => refuseOutsideLayout([forged], server)).toThrow('list content in a record of horses');
  });

  it('judges a key under a record that is gone against every record field', () => {
    const { server, device, horseId } = setup();
    const stale = new Y.Doc();
    Y.applyUpdate(stale, Y.encodeStateAsUpdate(device));
    Y.applyUpdate(server, sent(server, null, (doc) => horses(doc).delete(horseId)).update);
    const field = sent(server, stale, (doc) => horses(doc).get(horseId)!.set('notes', 'offline'));
    expect(judge(server, field)).not.toThrow();
    const junk = sent(server, stale, (doc) => horses(doc).get(horseId)!.set('junk', 'x'));
    expect(judge(server, junk)).toThrow('"junk" is not a field of any record');
  });
});

describe('an update that builds on what the server lacks waits (Yjs would keep it pending and send it to every device)', () => {
  it('finds a gap in a client’s clocks, a parent or neighbour nobody has, and a deletion of the unknown', () => {
    const { server, device, horseId } = setup();
    const start = Y.encodeStateVector(device);
    horses(device).get(horseId)!.set('name', 'A');
    const first = { update: Y.encodeStateAsUpdate(device, start) };
    const before = Y.encodeStateVector(device);
    horses(device).get(horseId)!.set('name', 'B');
    const second = Y.decodeUpdate(Y.encodeStateAsUpdate(device, before));
    expect(waitsForMissing(second.structs, second.ds, server)).toBe(true);
    // Both together, in either order, are whole.
    const both = Y.mergeUpdates([Y.encodeStateAsUpdate(device, before), first.update]);
    const merged = Y.decodeUpdate(both);
    expect(waitsForMissing(merged.structs, merged.ds, server)).toBe(false);

    // Another client's item that names an item nobody has as its parent.
    const orphan = new Y.Item(Y.createID(7, 0), null, null, null, null, Y.createID(8, 5), 'name', new Y.ContentAny(['x']));
    expect(waitsForMissing([orphan], { clients: new Map() } as never, server)).toBe(true);
    expect(() => refuseOutsideLayout([orphan], server)).not.toThrow(); // not placed: judged when it is
    // Two items of two clients, each to the right of the other: a forged cycle.
    const a = new Y.Item(Y.createID(7, 0), null, Y.createID(8, 0), null, null, null, null, new Y.ContentAny(['x']));
    const b = new Y.Item(Y.createID(8, 0), null, Y.createID(7, 0), null, null, null, null, new Y.ContentAny(['x']));
    expect(waitsForMissing([a, b], { clients: new Map() } as never, server)).toBe(true);

    const plain = Y.decodeUpdate(first.update);
    expect(waitsForMissing(plain.structs, { clients: new Map([[99, [{ clock: 0, len: 5 }]]]) } as never, server)).toBe(true);
    expect(waitsForMissing(plain.structs, plain.ds, server)).toBe(false);
  });

  it('what waits would otherwise be kept by Yjs and sent in the full state', () => {
    const { server, device, horseId } = setup();
    horses(device).get(horseId)!.set('name', 'A');
    const before = Y.encodeStateVector(device);
    horses(device).get(horseId)!.set('notes', 'n'.repeat(10_000));
    const later = Y.encodeStateAsUpdate(device, before);
    const size = Y.encodeStateAsUpdate(server).byteLength;
    Y.applyUpdate(server, later);
    expect(server.store.pendingStructs).not.toBeNull();
    expect(Y.encodeStateAsUpdate(server).byteLength).toBeGreaterThan(size + 10_000);
  });
});
