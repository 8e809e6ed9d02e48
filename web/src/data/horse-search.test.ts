import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { deleteEntity, writeEntity } from '../../../shared/index.ts';
import { openRanchDb } from './db.ts';
import { nameSearchKeys, searchHorseIds, SEARCH_KEY_LENGTH } from './horse-search.ts';
import { startProjection } from './projection.ts';

const horse = (name: string) => ({
  name,
  breedId: null,
  colorId: null,
  genderId: null,
  statusId: null,
  ownerId: null,
  birthdate: null,
  ageYears: null,
  priceUsd: null,
  photoUrl: null,
  notes: null,
});
const id = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`;

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  vi.restoreAllMocks();
});

let seq = 0;
async function projected(names: string[]) {
  const doc = new Y.Doc();
  const db = openRanchDb(`horse-search-${++seq}`);
  cleanups.push(() => db.delete());
  doc.transact(() => names.forEach((name, i) => writeEntity(doc, 'horses', id(i), horse(name))));
  const projection = startProjection(doc, db, Promise.resolve());
  cleanups.push(() => projection.stop());
  await projection.ready;
  return { doc, db, projection };
}

describe('horse name search index', () => {
  it('keys every suffix of the lower-cased name, cut to the key length', () => {
    expect(nameSearchKeys('Star Dust')).toEqual(['star dust', 'tar dust', 'ar dust', 'r dust', 'dust', 'ust', 'st', 't']);
    expect(nameSearchKeys('A'.repeat(30)).every((key) => key.length <= SEARCH_KEY_LENGTH)).toBe(true);
  });

  it('the projection keeps it equal to the horses: anywhere in the name, any case', async () => {
    const { doc, db, projection } = await projected(['Silver Star', 'Night Owl', 'Stardust', 'Comet']);
    expect(await searchHorseIds(db, 'st')).toEqual(new Set([id(0), id(2)]));
    expect(await searchHorseIds(db, 'owl')).toEqual(new Set([id(1)]));
    expect(await searchHorseIds(db, 'r s')).toEqual(new Set([id(0)]));
    expect(await searchHorseIds(db, 'zebra')).toEqual(new Set());

    doc.transact(() => writeEntity(doc, 'horses', id(3), { name: 'Storm' }));
    doc.transact(() => deleteEntity(doc, 'horses', id(2)));
    await projection.idle();
    expect(await searchHorseIds(db, 'st')).toEqual(new Set([id(0), id(3)]));
    expect(await searchHorseIds(db, 'comet')).toEqual(new Set());
  });

  it('answers from the index, not by reading the horses', async () => {
    const { db } = await projected(['Silver Star', 'Night Owl']);
    const read = vi.spyOn(db.horses, 'toArray');
    const scan = vi.spyOn(db.horses, 'filter');
    expect(await searchHorseIds(db, 'night')).toEqual(new Set([id(1)]));
    expect(read).not.toHaveBeenCalled();
    expect(scan).not.toHaveBeenCalled();
  });

  it('is filled at start for tables projected before the index existed', async () => {
    const { doc, db, projection } = await projected(['Silver Star']);
    projection.stop();
    await db.horseSearch.clear();
    const again = startProjection(doc, db, Promise.resolve());
    cleanups.push(() => again.stop());
    await again.ready;
    expect(await searchHorseIds(db, 'silver')).toEqual(new Set([id(0)]));
  });
});

describe('start-up reconcile', () => {
  it('writes nothing when the tables already match the document', async () => {
    const { doc, db, projection } = await projected(['Silver Star', 'Night Owl']);
    projection.stop();
    const put = vi.spyOn(db.horses, 'bulkPut');
    const again = startProjection(doc, db, Promise.resolve());
    cleanups.push(() => again.stop());
    await again.ready;
    expect(put).not.toHaveBeenCalled();
  });
});
