import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openRanchDb, type RanchDb } from './db.ts';
import { sealWrites } from './sealed-writes.ts';

const opened: RanchDb[] = [];
const open = (name: string) => {
  const db = openRanchDb(name);
  opened.push(db);
  return db;
};
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

describe('a read database sealed when the device is cleared', () => {
  it('[A11] [V7] stores nothing more, whoever writes, while its screens still read', async () => {
    const db = open('sealed-read');
    await db.breeds.put({ id: 'b1', name: 'Arabian', isActive: true });
    sealWrites(db);

    await expect(db.breeds.put({ id: 'b2', name: 'Morgan', isActive: true })).rejects.toMatchObject({ name: 'DatabaseClosedError' });
    await expect(db.meta.put({ key: 'device.owner', value: { userId: 'u1', name: 'Bo Hart' } })).rejects.toMatchObject({
      name: 'DatabaseClosedError',
    });
    await expect(db.transaction('rw', db.breeds, () => db.breeds.bulkDelete(['b1']))).rejects.toMatchObject({
      name: 'DatabaseClosedError',
    });
    expect((await db.breeds.toArray()).map((row) => row.name)).toEqual(['Arabian']);
    expect(await db.meta.count()).toBe(0);

    // Deleted and opened again for reading (clear-local-data.ts): still nothing is written.
    await db.delete({ disableAutoOpen: false });
    await expect(db.horses.put({ id: 'h1', name: 'Comet' } as never)).rejects.toMatchObject({ name: 'DatabaseClosedError' });
    expect(await db.horses.count()).toBe(0);
  });

  it('leaves every other database writable', async () => {
    sealWrites(open('sealed-other'));
    const db = open('not-sealed');
    await db.breeds.put({ id: 'b1', name: 'Arabian', isActive: true });
    expect(await db.breeds.count()).toBe(1);
  });
});
