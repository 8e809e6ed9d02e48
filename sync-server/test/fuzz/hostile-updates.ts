import * as Y from 'yjs';
import { collectionMap, COLLECTIONS, writeEntity, type Collection, type EntityFields, type JsonValue } from '../../../shared/index.ts';
import { isRef, type SymbolicFields } from '../support/ranch-arbitraries.ts';
import { POOL_SIZES, type FieldShape, type HostileUpdate, type Plain, type SharedType, type Target } from './update-arbitraries.ts';

/** The real UUIDs of one run's pool: fresh every run, so a replayed or shrunk run meets nothing of an earlier one. */
export type PoolIds = Record<Collection, string[]>;

export function freshPool(newId: () => string): PoolIds {
  return Object.fromEntries(COLLECTIONS.map((c) => [c, Array.from({ length: POOL_SIZES[c] }, newId)])) as PoolIds;
}

export const idOf = (ids: PoolIds, target: Target): string => ids[target.collection][target.index]!;

const STAMP = '2024-05-01T10:00:00.000Z';

/** A valid record of `collection` whose references name index 0 of the pool (which a run creates first). */
export function validFields(ids: PoolIds, collection: Collection): EntityFields {
  const first = (c: Collection) => ids[c][0]!;
  switch (collection) {
    case 'breeds':
    case 'colors':
    case 'genders':
    case 'statuses':
      return { name: `${collection} zero`, isActive: true };
    case 'owners':
      return { firstName: 'Olive', lastName: 'Supplier', phone: null, email: null, createdAt: STAMP };
    case 'buyers':
      return { firstName: 'Bea', lastName: 'Buyer', phone: null, email: null };
    case 'horses':
      return {
        name: 'Victim',
        breedId: first('breeds'),
        colorId: first('colors'),
        genderId: first('genders'),
        statusId: first('statuses'),
        ownerId: first('owners'),
        birthdate: '2019-04-01',
        ageYears: 5,
        priceUsd: '8000.00',
        photoUrl: null,
        notes: 'calm',
      };
    case 'sales':
      return {
        horseId: first('horses'),
        buyerId: first('buyers'),
        salePrice: '9000.00',
        downPayment: '1000.00',
        termsMonths: 6,
        interestApr: 5,
        scheduleStartDate: '2024-06-01',
        createdAt: STAMP,
      };
    case 'payments':
      return {
        saleId: first('sales'),
        installmentId: null,
        amount: '500.00',
        date: '2024-06-01',
        method: 'Cash',
        memo: null,
        createdAt: STAMP,
      };
    case 'careEntries':
      return {
        horseId: first('horses'),
        kind: 'coggins',
        doneOn: '2024-05-01',
        nextDueOn: '2025-05-01',
        notes: null,
        recordedBy: '0190a0a0-0000-7000-8000-0000000000ee',
        recordedByName: 'Ann Rider',
        createdAt: STAMP,
      };
    case 'corrections':
      return {
        kind: 'cancel',
        saleId: first('sales'),
        paymentId: null,
        amount: null,
        date: null,
        method: null,
        reason: 'Called off',
        createdAt: STAMP,
      };
  }
}

/** The valid ranch every run starts from: index 0 of every collection, and horse 1. */
export function writeStartingRanch(doc: Y.Doc, ids: PoolIds): void {
  for (const c of COLLECTIONS) writeEntity(doc, c, ids[c][0]!, validFields(ids, c));
  writeEntity(doc, 'horses', ids.horses[1]!, { ...validFields(ids, 'horses'), name: 'Second victim' });
}

/**
 * A generated value as a stock client would hand it to Yjs: fast-check's objects have no
 * prototype, which Y.Map.set refuses, so they become plain objects (deeply).
 */
function asSent(value: Plain): unknown {
  if (value instanceof Uint8Array || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(asSent);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asSent(inner)]));
}

function resolve(ids: PoolIds, fields: SymbolicFields): EntityFields {
  return Object.fromEntries(
    Object.entries(fields).map(([field, value]) => [field, isRef(value) ? ids[value.ref][value.index]! : (value as JsonValue)]),
  );
}

/** The entity's map, made (holding only its id) when the key holds none. */
function entityMap(doc: Y.Doc, collection: Collection, id: string): Y.Map<unknown> {
  const map = collectionMap(doc, collection) as unknown as Y.Map<unknown>;
  const current = map.get(id);
  if (current instanceof Y.Map) return current as Y.Map<unknown>;
  const entity = new Y.Map<unknown>();
  map.set(id, entity);
  entity.set('id', id);
  return entity;
}

function sharedValue(type: SharedType): unknown {
  switch (type) {
    case 'text':
      return new Y.Text('not a horse');
    case 'array': {
      const array = new Y.Array<unknown>();
      array.insert(0, ['a', 1, null]);
      return array;
    }
    case 'xml-fragment':
      return new Y.XmlFragment();
    case 'xml-element':
      return new Y.XmlElement('horse');
  }
}

function fieldValue(shape: FieldShape): unknown {
  switch (shape) {
    case 'object':
      return { nested: { deeper: true }, amount: '5' };
    case 'array':
      return ['Star', 1, null];
    case 'y-text':
      return new Y.Text('Star');
    case 'y-array':
      return Y.Array.from(['Star']);
    case 'y-map-with-scalars': {
      const map = new Y.Map<unknown>();
      map.set('name', 'Star');
      return map;
    }
  }
}

/** Maps nested `depth` levels below `field`, each integrated before the next is made (no recursion). */
function nest(entity: Y.Map<unknown>, field: string, depth: number): void {
  let current = new Y.Map<unknown>();
  entity.set(field, current);
  for (let level = 1; level < depth; level++) {
    const next = new Y.Map<unknown>();
    current.set('deeper', next);
    current = next;
  }
  current.set('bottom', 'here');
}

function writeTopLevel(doc: Y.Doc, name: string, type: 'text' | 'map' | 'array' | 'xml-fragment'): void {
  if (type === 'text') doc.getText(name).insert(0, 'junk');
  else if (type === 'map') doc.getMap(name).set('k', 'v');
  else if (type === 'array') doc.getArray(name).insert(0, ['junk']);
  else doc.getXmlFragment(name).insert(0, [new Y.XmlText('junk')]);
}

/**
 * Makes `update` as a change of `doc` (a replica of the server's document), inside the
 * caller's transaction. Returns an update made by another Y.Doc when the change cannot be
 * made on a replica (a collection's name used as another type), to be sent on its own.
 */
export function applyHostile(doc: Y.Doc, ids: PoolIds, update: HostileUpdate): Uint8Array | undefined {
  switch (update.kind) {
    case 'batch': {
      const extra = update.updates.map((part) => applyHostile(doc, ids, part)).filter((u) => u !== undefined);
      return extra.length > 0 ? Y.mergeUpdates(extra) : undefined;
    }
    case 'bad-key': {
      const map = collectionMap(doc, update.collection) as unknown as Y.Map<unknown>;
      if (!update.asMap) map.set(update.key, asSent(update.value));
      else {
        const entity = new Y.Map<unknown>();
        map.set(update.key, entity);
        entity.set('id', update.key);
        entity.set('name', 'Keyless');
      }
      return undefined;
    }
    case 'case-variant-key': {
      const id = idOf(ids, update.target).toUpperCase();
      writeEntity(doc, update.target.collection, id, { ...validFields(ids, update.target.collection), id });
      return undefined;
    }
    case 'plain-value':
      (collectionMap(doc, update.target.collection) as unknown as Y.Map<unknown>).set(idOf(ids, update.target), asSent(update.value));
      return undefined;
    case 'shared-type':
      (collectionMap(doc, update.target.collection) as unknown as Y.Map<unknown>).set(idOf(ids, update.target), sharedValue(update.type));
      return undefined;
    case 'no-id': {
      const entity = new Y.Map<unknown>();
      (collectionMap(doc, update.target.collection) as unknown as Y.Map<unknown>).set(idOf(ids, update.target), entity);
      for (const [field, value] of Object.entries(resolve(ids, update.fields))) entity.set(field, value);
      return undefined;
    }
    case 'foreign-id': {
      const other = typeof update.other === 'string' ? update.other : idOf(ids, update.other);
      entityMap(doc, update.target.collection, idOf(ids, update.target)).set('id', other);
      return undefined;
    }
    case 'unknown-field':
      entityMap(doc, update.target.collection, idOf(ids, update.target)).set(update.field, asSent(update.value));
      return undefined;
    case 'nested-map':
      nest(entityMap(doc, update.target.collection, idOf(ids, update.target)), update.field, update.depth);
      return undefined;
    case 'object-field':
      entityMap(doc, update.target.collection, idOf(ids, update.target)).set(update.field, fieldValue(update.shape));
      return undefined;
    case 'long-string':
      entityMap(doc, update.target.collection, idOf(ids, update.target)).set(update.field, 'ñ'.repeat(update.length));
      return undefined;
    case 'bad-value':
      entityMap(doc, update.target.collection, idOf(ids, update.target)).set(update.field, asSent(update.value));
      return undefined;
    case 'dangling-ref': {
      const id = idOf(ids, update.target);
      writeEntity(doc, update.target.collection, id, { ...validFields(ids, update.target.collection), [update.field]: update.missing });
      return undefined;
    }
    case 'delete':
      collectionMap(doc, update.target.collection).delete(idOf(ids, update.target));
      return undefined;
    case 'edit': {
      const id = idOf(ids, update.target);
      writeEntity(doc, update.target.collection, id, resolve(ids, update.fields));
      return undefined;
    }
    case 'valid-write': {
      const c = update.target.collection;
      const stamp: EntityFields = c === 'owners' || c === 'sales' || c === 'payments' ? { createdAt: STAMP } : {};
      writeEntity(doc, c, idOf(ids, update.target), { ...stamp, ...resolve(ids, update.fields) });
      return undefined;
    }
    case 'top-level': {
      // A name an earlier run defined as another type cannot be redefined on this replica.
      try {
        writeTopLevel(doc, update.name, update.type);
      } catch {
        writeTopLevel(doc, `${update.name}#${update.type}`, update.type);
      }
      return undefined;
    }
    case 'long-key': {
      const key = update.char.repeat(update.length);
      if (update.where === 'root') doc.getMap(key).set('a', 1);
      else if (update.where === 'collection')
        (collectionMap(doc, update.target.collection) as unknown as Y.Map<unknown>).set(key, new Y.Map());
      else entityMap(doc, update.target.collection, idOf(ids, update.target)).set(key, 'x');
      return undefined;
    }
    case 'many-keys': {
      if (update.where === 'collection') {
        const map = collectionMap(doc, update.target.collection) as unknown as Y.Map<unknown>;
        for (let i = 0; i < update.count; i++) map.set(`not-an-id-${i}`, new Y.Map());
      } else {
        const entity = entityMap(doc, update.target.collection, idOf(ids, update.target));
        for (let i = 0; i < update.count; i++) entity.set(`field${i}`, i);
      }
      return undefined;
    }
    case 'collection-as-other-type': {
      // A replica already has the collection as a map; another document writes it as a text or array.
      const other = new Y.Doc();
      other.clientID = update.clientID;
      if (update.type === 'text') other.getText(update.collection).insert(0, 'not a map');
      else other.getArray(update.collection).insert(0, ['not', 'a', 'map']);
      const bytes = Y.encodeStateAsUpdate(other);
      other.destroy();
      return bytes;
    }
  }
}
