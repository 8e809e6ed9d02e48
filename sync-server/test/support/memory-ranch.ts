import * as Y from 'yjs';
import {
  COLLECTIONS,
  collectionMap,
  newId,
  observeEntities,
  writeEntity,
  type Collection,
  type EntityChanges,
} from '../../../shared/index.ts';
import { mergeEdits, observeEdits, type Edits } from '../../src/sync/edits.ts';
import { MemoryDocumentStore } from '../../src/sync/memory-document-store.ts';
import { ReferenceIndex } from '../../src/sync/references.ts';

export const RANCH = 'ranch';

export const CREATED_AT = '2026-01-02T03:04:05.678Z';

/**
 * A small valid ranch in a plain Y.Doc: one of each lookup, a supplier, a buyer, a horse and,
 * unless `sale` is false, its sale in the document — as a stored layout-2 document or an
 * old-layout write holds it, for the rules that judge one (a document host moves it to the
 * ledger: layout 3 holds none).
 */
export function seededDoc({ sale = true }: { sale?: boolean } = {}) {
  const ids = {
    breed: newId(),
    color: newId(),
    gender: newId(),
    status: newId(),
    owner: newId(),
    buyer: newId(),
    horse: newId(),
    sale: newId(),
  };
  const doc = new Y.Doc();
  doc.transact(() => {
    writeEntity(doc, 'breeds', ids.breed, { name: 'Arabian', isActive: true });
    writeEntity(doc, 'colors', ids.color, { name: 'Bay', isActive: true });
    writeEntity(doc, 'genders', ids.gender, { name: 'Mare', isActive: true });
    writeEntity(doc, 'statuses', ids.status, { name: 'For sale', isActive: true });
    writeEntity(doc, 'owners', ids.owner, { firstName: 'Ada', lastName: 'Lovelace', createdAt: CREATED_AT });
    writeEntity(doc, 'buyers', ids.buyer, { firstName: 'Bo', lastName: 'Buyer' });
    writeEntity(doc, 'horses', ids.horse, {
      name: 'Star',
      breedId: ids.breed,
      colorId: ids.color,
      genderId: ids.gender,
      ownerId: ids.owner,
      priceUsd: '5000.00',
    });
    if (sale)
      writeEntity(doc, 'sales', ids.sale, {
        horseId: ids.horse,
        buyerId: ids.buyer,
        salePrice: '5000.00',
        downPayment: '500.00',
        termsMonths: 0,
        createdAt: CREATED_AT,
      });
  });
  return { doc, ids };
}

/** Every entity of the document, as changes. */
export function everything(doc: Y.Doc): EntityChanges {
  return new Map(COLLECTIONS.map((collection) => [collection, new Set(collectionMap(doc, collection).keys())]));
}

/** The seeded ranch, stored (logged and projected) in a memory store, with its reference index. */
export async function storedRanch() {
  const { doc, ids } = seededDoc();
  const store = new MemoryDocumentStore();
  await store.load(RANCH);
  await store.append(RANCH, 0n, [{ update: Y.encodeStateAsUpdate(doc), userId: null }], { doc, changes: everything(doc) });
  return { doc, ids, store, references: new ReferenceIndex(doc) };
}

/**
 * Makes `edit` in one transaction and returns what the document host's observers would
 * report: the entities changed (and those a reference index revives), and the fields edited.
 */
export function observeChange(
  doc: Y.Doc,
  references: ReferenceIndex,
  edit: (doc: Y.Doc) => void,
): { changes: EntityChanges; edits: Edits } {
  const changes: EntityChanges = new Map();
  const edits: Edits = new Map();
  const add = (from: EntityChanges) => {
    for (const [collection, ids] of from) {
      const known = changes.get(collection) ?? new Set<string>();
      ids.forEach((id) => known.add(id));
      changes.set(collection, known);
    }
  };
  const stopEntities = observeEntities(doc, (changed) => {
    add(changed);
    add(references.update(changed));
  });
  const stopEdits = observeEdits(doc, (key, fields) => mergeEdits(edits, new Map([[key, new Set(fields)]])));
  try {
    doc.transact(() => edit(doc));
  } finally {
    stopEntities();
    stopEdits();
  }
  return { changes, edits };
}

export const only = (collection: Collection, ...ids: string[]): EntityChanges => new Map([[collection, new Set(ids)]]);
