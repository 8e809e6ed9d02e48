// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { openTestData } from '../../test/ranch-data.ts';
import type { RanchData } from './ranch-data.ts';
import { countUnsavedRecords } from './unsaved-changes.ts';

let data: RanchData;
afterEach(async () => {
  await data.persistence.clearData();
  await data.destroy();
});

describe('unsaved records', () => {
  it('[V7] [O5] counts each record written here once until the server acknowledges it', async () => {
    data = openTestData();
    await data.tracker.loaded;
    expect(countUnsavedRecords(data.doc, data.tracker)).toBe(0);

    const breedId = data.lookups.create('breeds', { name: 'Arabian' });
    const colorId = data.lookups.create('colors', { name: 'Bay' });
    const genderId = data.lookups.create('genders', { name: 'Mare' });
    const horseId = data.horses.create({ name: 'Star', breedId, colorId, genderId });
    expect(countUnsavedRecords(data.doc, data.tracker)).toBe(4);

    data.tracker.acknowledge(Y.decodeStateVector(Y.encodeStateVector(data.doc)));
    expect(countUnsavedRecords(data.doc, data.tracker)).toBe(0);

    data.horses.update(horseId, { name: 'Star', breedId, colorId, genderId, priceUsd: '100' });
    expect(countUnsavedRecords(data.doc, data.tracker)).toBe(1);
  });
});
