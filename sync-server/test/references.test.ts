import { describe, expect, it } from 'vitest';
import { collectionMap, deleteEntity, newId, writeEntity, type EntityChanges } from '../../shared/index.ts';
import { ReferenceIndex } from '../src/sync/references.ts';
import { observeChange, seededDoc } from './support/memory-ranch.ts';

/** The reference index (references.ts) on a plain Y.Doc, fed the changes as the document host feeds it. */
describe('reference index', () => {
  it('knows from the document who refers to whom', () => {
    const { doc, ids } = seededDoc();
    const index = new ReferenceIndex(doc);
    expect(index.isReferenced('breeds', ids.breed)).toBe(true);
    expect(index.referrersOf('breeds', ids.breed)).toEqual([['horses', ids.horse]]);
    expect(index.referrersOf('horses', ids.horse)).toEqual([['sales', ids.sale]]);
    expect(index.isReferenced('statuses', ids.status)).toBe(false);
    expect(index.isReferenced('sales', ids.sale)).toBe(false);
  });

  it('follows a reference that changes, and forgets the references of a deleted referrer', () => {
    const { doc, ids } = seededDoc();
    const index = new ReferenceIndex(doc);
    const otherBreed = newId();
    observeChange(doc, index, (d) => {
      writeEntity(d, 'breeds', otherBreed, { name: 'Friesian', isActive: true });
      collectionMap(d, 'horses').get(ids.horse)!.set('breedId', otherBreed);
    });
    expect(index.isReferenced('breeds', ids.breed)).toBe(false);
    expect(index.referrersOf('breeds', otherBreed)).toEqual([['horses', ids.horse]]);
    observeChange(doc, index, (d) => deleteEntity(d, 'sales', ids.sale));
    expect(index.isReferenced('horses', ids.horse)).toBe(false);
  });

  it('returns the referrers of an entity that was missing and has come back', () => {
    const { doc, ids } = seededDoc();
    const index = new ReferenceIndex(doc);
    // A horse names a status this replica does not hold yet (another device's change, not yet arrived).
    const status = newId();
    const named = observeChange(doc, index, (d) => collectionMap(d, 'horses').get(ids.horse)!.set('statusId', status));
    expect(named.changes).toEqual(new Map([['horses', new Set([ids.horse])]]));
    expect(index.isReferenced('statuses', status)).toBe(true);
    const arrived = observeChange(doc, index, (d) => writeEntity(d, 'statuses', status, { name: 'Sold', isActive: true }));
    // The horse did not change, yet may be valid now: it is reported with the status.
    expect(arrived.changes).toEqual(
      new Map([
        ['statuses', new Set([status])],
        ['horses', new Set([ids.horse])],
      ]),
    );
    // Once present, a status changing again revives no one.
    const renamed = observeChange(doc, index, (d) => collectionMap(d, 'statuses').get(status)!.set('name', 'Sold!'));
    expect(renamed.changes).toEqual(new Map([['statuses', new Set([status])]]));
  });

  it('reports a referrer again when what it names is deleted and comes back', () => {
    const { doc, ids } = seededDoc();
    const index = new ReferenceIndex(doc);
    const gone: EntityChanges = new Map([['owners', new Set([ids.owner])]]);
    doc.transact(() => deleteEntity(doc, 'owners', ids.owner));
    expect(index.update(gone)).toEqual(new Map());
    doc.transact(() =>
      writeEntity(doc, 'owners', ids.owner, { firstName: 'Ada', lastName: 'Lovelace', createdAt: '2026-01-02T03:04:05.678Z' }),
    );
    expect(index.update(gone)).toEqual(new Map([['horses', new Set([ids.horse])]]));
  });

  it('indexes only entities under entity ids', () => {
    const { doc, ids } = seededDoc();
    const index = new ReferenceIndex(doc);
    observeChange(doc, index, (d) => writeEntity(d, 'horses', 'not-an-id', { name: 'Ghost', breedId: ids.status }));
    expect(index.isReferenced('breeds', ids.status)).toBe(false);
  });
});
