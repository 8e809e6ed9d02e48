import { describe, expect, it } from 'vitest';
import { horsesCsv } from './export-horses.ts';
import type { HorseRow } from './horse-names.ts';

const row: HorseRow = {
  id: '1',
  name: 'Comet, Jr.',
  breedId: 'b',
  colorId: 'c',
  genderId: 'g',
  statusId: null,
  ownerId: null,
  birthdate: null,
  ageYears: 4,
  priceUsd: '12500.00',
  photoUrl: null,
  notes: 'Says "hi"',
  breedName: 'Arabian',
  colorName: 'Bay',
  genderName: 'Mare',
  statusName: null,
  supplierName: null,
};

describe('horse export', () => {
  it('[H9] [B5] writes the shown rows as CSV with a header', () => {
    expect(horsesCsv([row]).split('\r\n')).toEqual([
      'Name,Breed,Color,Gender,Status,Age,Birth Date,Price (USD),Supplier,Notes',
      '"Comet, Jr.",Arabian,Bay,Mare,,4 years,,12500.00,Ranch,"Says ""hi"""',
      '',
    ]);
  });
});
