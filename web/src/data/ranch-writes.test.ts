// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectionMap } from '../../../shared/index.ts';
import { openTestData } from '../../test/ranch-data.ts';
import type { RanchData } from './ranch-data.ts';
import { runWrite, WRITE_METHODS, writesThrough } from './ranch-writes.ts';
import { InUseError } from './repositories/references.ts';
import { ValidationError } from './repositories/validate.ts';

let data: RanchData;

beforeEach(async () => {
  data = openTestData();
  await data.projection.ready;
});

afterEach(async () => {
  await data.persistence.clearData();
  await data.destroy();
});

describe('RanchWrites on the document of this thread', () => {
  it('[O2] answers with the repository result once the document has the change, through the outbox', async () => {
    const pending = data.writes.lookups.create('breeds', { name: 'Arabian' });
    const id = await pending;
    expect(collectionMap(data.doc, 'breeds').get(id)?.get('name')).toBe('Arabian');
    expect(await data.db.outbox.count()).toBe(0);
    await expect.poll(() => data.db.breeds.get(id)).toEqual({ id, name: 'Arabian', isActive: true });
  });

  it('[H5] a refusal is a rejection with the error the repository threw, never a throw', async () => {
    let pending: Promise<string> | undefined;
    expect(() => {
      pending = data.writes.horses.create({ name: ' ', breedId: '', colorId: '', genderId: '' });
    }).not.toThrow();
    await expect(pending).rejects.toBeInstanceOf(ValidationError);
    const ownerId = await data.writes.owners.create({ firstName: 'Ann', lastName: 'Lee' });
    const refs = {
      breedId: await data.writes.lookups.create('breeds', { name: 'Arabian' }),
      colorId: await data.writes.lookups.create('colors', { name: 'Bay' }),
      genderId: await data.writes.lookups.create('genders', { name: 'Mare' }),
    };
    await data.writes.horses.create({ name: 'Comet', ...refs, ownerId });
    await expect(data.writes.owners.remove(ownerId)).rejects.toBeInstanceOf(InUseError);
  });

  it('offers exactly the listed methods and refuses any other name', async () => {
    const calls: string[] = [];
    const writes = writesThrough(async (repository, method) => calls.push(`${repository}.${method}`));
    for (const [repository, methods] of Object.entries(WRITE_METHODS)) {
      expect(Object.keys(writes[repository as keyof typeof writes]).sort()).toEqual([...methods].sort());
    }
    await writes.payments.create({ saleId: 'x', amount: '1', date: '2024-05-01', method: 'Cash' });
    expect(calls).toEqual(['payments.create']);
    expect(() => runWrite(data as never, 'horses', 'replacePhoto', ['a', 'b'])).toThrow('No such write: horses.replacePhoto');
    expect(() => runWrite(data as never, 'constructor', 'name', [])).toThrow('No such write');
  });
});
