import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { writeEntity } from './doc-layout.ts';
import { inUseMessage, referencesTo, referrersOf } from './references.ts';

const SUPPLIER = '00000000-0000-4000-8000-000000000001';
const HORSE_A = '00000000-0000-4000-8000-00000000000a';
const HORSE_B = '00000000-0000-4000-8000-00000000000b';

describe('references', () => {
  it('names who refers to each collection, from the one REFERENCES table', () => {
    expect(referrersOf('owners')).toEqual([['horses', 'ownerId']]);
    expect(referrersOf('horses')).toEqual([
      ['sales', 'horseId'],
      ['careEntries', 'horseId'],
    ]);
    expect(referrersOf('sales')).toEqual([
      ['payments', 'saleId'],
      ['corrections', 'saleId'],
    ]);
    expect(referrersOf('payments')).toEqual([['corrections', 'paymentId']]);
  });

  it('counts the entities of the document that name an entity, per referring collection', () => {
    const doc = new Y.Doc();
    doc.transact(() => {
      writeEntity(doc, 'owners', SUPPLIER, { firstName: 'Ann' });
      writeEntity(doc, 'horses', HORSE_A, { name: 'A', ownerId: SUPPLIER });
      writeEntity(doc, 'horses', HORSE_B, { name: 'B', ownerId: null });
    });
    expect(referencesTo(doc, 'owners', SUPPLIER)).toEqual([{ collection: 'horses', count: 1 }]);
    expect(referencesTo(doc, 'horses', HORSE_A)).toEqual([]);
    doc.transact(() => writeEntity(doc, 'horses', HORSE_B, { ownerId: SUPPLIER }));
    expect(referencesTo(doc, 'owners', SUPPLIER)).toEqual([{ collection: 'horses', count: 2 }]);
  });

  it('[H8] [C3] [C6] says why a delete is refused', () => {
    expect(inUseMessage('owners', { collection: 'horses', count: 1 })).toBe('This supplier cannot be deleted: 1 horse refers to it');
    expect(inUseMessage('horses', { collection: 'sales', count: 2 })).toBe('This horse cannot be deleted: 2 sales refer to it');
    expect(inUseMessage('statuses', { collection: 'horses', count: 3 })).toBe('This status cannot be deleted: 3 horses refer to it');
  });
});
