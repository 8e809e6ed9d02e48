// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { collectionMap, readEntity } from '../../../../shared/index.ts';
import type { RanchData } from '../ranch-data.ts';
import { isLocalOrigin } from '../origins.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { ValidationError } from './validate.ts';

let data: RanchData;
afterEach(async () => {
  await data.persistence.clearData();
  await data.destroy();
});

async function withLookups() {
  data = openTestData();
  await data.projection.ready;
  return {
    breedId: data.lookups.create('breeds', { name: 'Quarter Horse' }),
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Gelding' }),
  };
}

function messagesOf(action: () => unknown): string[] {
  try {
    action();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((issue) => issue.message);
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('horse repository', () => {
  it('[H5] rejects a horse without name, breed, color and gender with their messages and changes nothing', async () => {
    await withLookups();
    const messages = messagesOf(() => data.horses.create({ name: '  ', breedId: '', colorId: '', genderId: '' }));
    expect(messages).toEqual(['Name is required', 'Breed is required', 'Color is required', 'Gender is required']);
    expect(collectionMap(data.doc, 'horses').size).toBe(0);
  });

  it('[O2] stores a valid horse in one local transaction and the projection shows it', async () => {
    const refs = await withLookups();
    const origins: unknown[] = [];
    data.doc.on('afterTransaction', (transaction) => origins.push(transaction.origin));

    const id = data.horses.create({ name: ' Midnight ', ...refs, ageYears: '7', priceUsd: '$12,500.5', notes: '' });

    expect(origins).toHaveLength(1);
    expect(isLocalOrigin(origins[0])).toBe(true);
    const entity = collectionMap(data.doc, 'horses').get(id);
    expect(entity && readEntity(entity)).toEqual({
      id,
      name: 'Midnight',
      ...refs,
      statusId: null,
      ownerId: null,
      birthdate: null,
      ageYears: 7,
      priceUsd: '12500.50',
      photoUrl: null,
      notes: null,
      // [T5] the device's time of the change, for the history
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    await expect.poll(() => data.db.horses.get(id)).toMatchObject({ name: 'Midnight', priceUsd: '12500.50' });
  });

  it('[H5] updates only through valid input and removes horses', async () => {
    const refs = await withLookups();
    const id = data.horses.create({ name: 'Dusty', ...refs });

    expect(messagesOf(() => data.horses.update(id, { name: '', ...refs }))).toEqual(['Name is required']);
    data.horses.update(id, { name: 'Dusty Rose', ...refs, priceUsd: '9000' });
    await expect.poll(() => data.db.horses.get(id)).toMatchObject({ name: 'Dusty Rose', priceUsd: '9000.00' });

    expect(data.horses.remove(id)).toBe(true);
    await expect.poll(() => data.db.horses.count()).toBe(0);
    expect(() => data.horses.update(id, { name: 'Ghost', ...refs })).toThrow('Horse not found');
  });
});

describe('lookup repository', () => {
  it('[L3] [L4] creates active items and rejects a blank name', async () => {
    await withLookups();
    expect(messagesOf(() => data.lookups.create('statuses', { name: '   ' }))).toEqual(['Name is required']);
    const id = data.lookups.create('statuses', { name: 'For Sale' });
    await expect.poll(() => data.db.statuses.get(id)).toEqual({ id, name: 'For Sale', isActive: true });
    expect(await data.db.breeds.toArray()).toEqual([expect.objectContaining({ name: 'Quarter Horse', isActive: true })]);
  });
});
