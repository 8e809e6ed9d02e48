// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { collectionMap } from '../../../../shared/index.ts';
import type { RanchData } from '../ranch-data.ts';
import { flattenCare } from '../horse-care-row.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { NotFoundError } from './references.ts';
import { ValidationError } from './validate.ts';

let data: RanchData;
afterEach(async () => {
  await data.persistence.clearData();
  await data.destroy();
});

const ANN = { userId: '0190a0a0-0000-7000-8000-0000000000ee', name: 'Ann Rider' };

async function withHorses(...names: string[]): Promise<string[]> {
  data = openTestData();
  await data.projection.ready;
  const refs = {
    breedId: data.lookups.create('breeds', { name: 'Quarter Horse' }),
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Gelding' }),
  };
  return names.map((name) => data.horses.create({ name, ...refs }));
}

describe('care repository', () => {
  it('[K2] one farrier visit for three horses is one transaction with an entry per horse, each projected as its own row', async () => {
    const horses = await withHorses('Dusty', 'Star', 'Goliath');
    let transactions = 0;
    data.doc.on('afterTransaction', () => (transactions += 1));
    const ids = data.careEntries.create(
      { horseIds: horses, kind: 'farrier', doneOn: '2026-06-01', nextDueOn: '2026-07-27', notes: 'Reset' },
      ANN,
    );
    expect(transactions).toBe(1);
    expect(ids).toHaveLength(3);
    await data.projection.idle();
    const rows = flattenCare(await data.db.horseCare.toArray());
    expect(rows.map((row) => row.horseId).sort()).toEqual([...horses].sort());
    expect(rows[0]).toMatchObject({
      kind: 'farrier',
      doneOn: '2026-06-01',
      nextDueOn: '2026-07-27',
      notes: 'Reset',
      recordedBy: ANN.userId,
      recordedByName: 'Ann Rider',
    });
  });

  it('[K2] refuses a visit without horses or naming a horse that is gone, and writes nothing', async () => {
    const [horse] = await withHorses('Dusty');
    expect(() => data.careEntries.create({ horseIds: [], kind: 'farrier', doneOn: '2026-06-01' }, ANN)).toThrow(ValidationError);
    data.horses.remove(horse!);
    expect(() => data.careEntries.create({ horseIds: [horse!], kind: 'farrier', doneOn: '2026-06-01' }, ANN)).toThrow(NotFoundError);
    expect(collectionMap(data.doc, 'careEntries').size).toBe(0);
  });

  it('[K8] corrects an entry’s care, dates and notes, keeping who recorded it and when; refuses a bad one', async () => {
    const [dusty] = await withHorses('Dusty');
    const [id] = data.careEntries.create({ horseIds: [dusty!], kind: 'farrier', doneOn: '2026-06-01', notes: 'Reset' }, ANN);
    const before = collectionMap(data.doc, 'careEntries').get(id!)?.toJSON();
    data.careEntries.update(id!, { horseId: dusty!, kind: 'dental', doneOn: '2026-06-02', nextDueOn: '2026-12-02', notes: 'Floated' });
    await data.projection.idle();
    const [entry] = flattenCare(await data.db.horseCare.toArray());
    expect(entry).toMatchObject({
      id,
      kind: 'dental',
      doneOn: '2026-06-02',
      nextDueOn: '2026-12-02',
      notes: 'Floated',
      recordedBy: ANN.userId,
      recordedByName: 'Ann Rider',
      createdAt: before?.createdAt,
    });
    expect(() => data.careEntries.update(id!, { horseId: dusty!, kind: 'dental', doneOn: '2026-06-02', nextDueOn: '2026-01-01' })).toThrow(
      ValidationError,
    );
    expect(() => data.careEntries.update('gone', { horseId: dusty!, kind: 'dental', doneOn: '2026-06-02' })).toThrow(
      'Care entry not found',
    );
  });

  it('[K6] deleting a horse deletes its care entries; a single entry can be deleted', async () => {
    const [dusty, star] = await withHorses('Dusty', 'Star');
    const [first, second] = data.careEntries.create({ horseIds: [dusty!, star!], kind: 'coggins', doneOn: '2026-06-01' }, ANN);
    data.horses.remove(dusty!);
    expect([...collectionMap(data.doc, 'careEntries').keys()]).toEqual([second]);
    data.careEntries.remove(second!);
    expect(collectionMap(data.doc, 'careEntries').size).toBe(0);
    expect(() => data.careEntries.remove(first!)).toThrow('Care entry not found');
    await data.projection.idle();
    expect(await data.db.horseCare.count()).toBe(0);
  });
});
