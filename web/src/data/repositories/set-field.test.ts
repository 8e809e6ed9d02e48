// @vitest-environment jsdom
import type * as Y from 'yjs';
import { afterEach, describe, expect, it } from 'vitest';
import { collectionMap, DEVICE_TIME_FIELD, type JsonValue } from '../../../../shared/index.ts';
import type { RanchData } from '../ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { NotFoundError } from './references.ts';
import { ValidationError } from './validate.ts';

let data: RanchData;
afterEach(async () => {
  await data.persistence.clearData();
  await data.destroy();
});

async function withHorse() {
  data = openTestData();
  await data.projection.ready;
  const refs = {
    breedId: data.lookups.create('breeds', { name: 'Shire' }),
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
  };
  return { refs, id: data.horses.create({ name: 'Dusty', ...refs, priceUsd: '9500' }) };
}

/** The Yjs item holding the field's value now (what a conflict is told by: its origin). */
const itemOf = (map: Y.Map<JsonValue>, field: string) => (map as unknown as { _map: Map<string, Y.Item> })._map.get(field)!;

describe('setting one field ([T6] answering a conflict)', () => {
  it('writes the value again even when unchanged, as a write that had seen the value there', async () => {
    const { id } = await withHorse();
    const horse = collectionMap(data.doc, 'horses').get(id)!;
    const before = itemOf(horse, 'priceUsd');
    let updates = 0;
    data.doc.on('update', () => (updates += 1));

    await data.writes.horses.setField(id, 'priceUsd', '9,500');

    expect(updates).toBe(1);
    const after = itemOf(horse, 'priceUsd');
    expect(after).not.toBe(before);
    expect(after.origin).toEqual(before.lastId);
    expect(horse.get('priceUsd')).toBe('9500.00');
    expect(typeof horse.get(DEVICE_TIME_FIELD)).toBe('string');
  });

  it('sets another value through the writes, normalized by the field schema, and leaves the other fields', async () => {
    const { id, refs } = await withHorse();
    await data.writes.horses.setField(id, 'priceUsd', '$9,200');
    await data.projection.idle();
    expect(await data.db.horses.get(id)).toMatchObject({ name: 'Dusty', ...refs, priceUsd: '9200.00' });
  });

  it('refuses fields that are not the record’s own, invalid values and missing records, changing nothing', async () => {
    const { id } = await withHorse();
    let updates = 0;
    data.doc.on('update', () => (updates += 1));
    for (const field of ['id', 'createdAt', DEVICE_TIME_FIELD, 'constructor']) {
      expect(() => data.horses.setField(id, field, 'x')).toThrow(ValidationError);
    }
    expect(() => data.horses.setField(id, 'priceUsd', 'a lot')).toThrow(ValidationError);
    expect(() => data.horses.setField(id, 'name', '  ')).toThrow('Name is required');
    expect(() => data.horses.setField('01900000-0000-7000-8000-00000000dead', 'priceUsd', '1')).toThrow(NotFoundError);
    expect(updates).toBe(0);
  });

  it('sets a supplier’s, a buyer’s and a list item’s field the same way', async () => {
    await withHorse();
    const owner = data.owners.create({ firstName: 'Sam', lastName: 'Hill' });
    const buyer = data.buyers.create({ firstName: 'Bea', lastName: 'Buyer' });
    const breed = data.lookups.create('breeds', { name: 'Arab' });
    await data.writes.owners.setField(owner, 'phone', '555 0100');
    await data.writes.buyers.setField(buyer, 'lastName', 'Byers');
    await data.writes.lookups.setField('breeds', breed, 'name', 'Arabian');
    expect(collectionMap(data.doc, 'owners').get(owner)?.get('phone')).toBe('555 0100');
    expect(collectionMap(data.doc, 'buyers').get(buyer)?.get('lastName')).toBe('Byers');
    expect(collectionMap(data.doc, 'breeds').get(breed)?.get('name')).toBe('Arabian');
    await expect(data.writes.lookups.setField('breeds', breed, 'isActive', 'maybe')).rejects.toThrow(ValidationError);
  });
});
