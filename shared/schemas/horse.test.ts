import { describe, expect, it } from 'vitest';
import { horseInput } from './horse.ts';
import { MONEY_MESSAGES } from '../money.ts';

const BREED = '0190a0a0-0000-7000-8000-000000000001';
const COLOR = '0190a0a0-0000-7000-8000-000000000002';
const GENDER = '0190a0a0-0000-7000-8000-000000000003';

function messages(input: unknown): string[] {
  const result = horseInput.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('horse schema (form, REST and synced data alike)', () => {
  it('[H5] gives the message for each missing required field', () => {
    expect(messages({ name: '', breedId: '', colorId: '', genderId: '' })).toEqual([
      'Name is required',
      'Breed is required',
      'Color is required',
      'Gender is required',
    ]);
    expect(messages({})).toEqual(['Name is required', 'Breed is required', 'Color is required', 'Gender is required']);
  });

  it('[H4] [Y4] normalises what a form sends: blanks to null, price to a decimal string, age to a number', () => {
    const horse = horseInput.parse({
      name: '  Star ',
      breedId: BREED,
      colorId: COLOR,
      genderId: GENDER,
      statusId: '',
      ownerId: '',
      birthdate: '',
      ageYears: '7',
      priceUsd: '$12,500.5',
      photoUrl: '',
      notes: '  ',
    });
    expect(horse).toEqual({
      name: 'Star',
      breedId: BREED,
      colorId: COLOR,
      genderId: GENDER,
      statusId: null,
      ownerId: null,
      birthdate: null,
      ageYears: 7,
      priceUsd: '12500.50',
      photoUrl: null,
      notes: null,
    });
  });

  it('[H5] refuses malformed values with a message', () => {
    const base = { name: 'A', breedId: BREED, colorId: COLOR, genderId: GENDER };
    expect(messages({ ...base, breedId: 'not-an-id' })).toEqual(['Must be a valid id']);
    expect(messages({ ...base, ageYears: -1 })).toEqual(['Age cannot be negative']);
    expect(messages({ ...base, ageYears: 'x' })).toEqual(['Age must be a whole number']);
    // [S14]: refused, never cut to 12.34.
    expect(messages({ ...base, priceUsd: '12.345' })).toEqual([MONEY_MESSAGES.decimals]);
    expect(messages({ ...base, priceUsd: '1e30' })).toEqual([MONEY_MESSAGES.notAnAmount]);
    expect(messages({ ...base, priceUsd: '-50' })).toEqual([MONEY_MESSAGES.negative]);
    expect(messages({ ...base, priceUsd: 'free' })).toEqual([MONEY_MESSAGES.notAnAmount]);
    expect(messages({ ...base, priceUsd: { cents: 5 } })).toEqual([MONEY_MESSAGES.notAnAmount]);
    expect(messages({ ...base, birthdate: '2023-13-01' })).toEqual(['Must be a date']);
    expect(messages({ ...base, notes: 'x'.repeat(5001) })).toEqual(['Must be at most 5000 characters']);
  });

  it('[H4] accepts an ISO timestamp as a birthdate and keeps the calendar date', () => {
    const base = { name: 'A', breedId: BREED, colorId: COLOR, genderId: GENDER };
    expect(horseInput.parse({ ...base, birthdate: '2020-02-29T00:00:00.000Z' }).birthdate).toBe('2020-02-29');
  });

  it('[H10] refuses a birth date after today, wherever on Earth it is already today', () => {
    const base = { name: 'A', breedId: BREED, colorId: COLOR, genderId: GENDER };
    expect(messages({ ...base, birthdate: '2030-01-01' })).toEqual(['Birth date cannot be in the future']);
    expect(messages({ ...base, birthdate: '2030-01-01T00:00:00.000Z' })).toEqual(['Birth date cannot be in the future']);
    const tomorrowEverywhere = new Date(Date.now() + 40 * 3600_000).toISOString().slice(0, 10);
    expect(messages({ ...base, birthdate: tomorrowEverywhere })).toEqual(['Birth date cannot be in the future']);
    const todayInUtc = new Date().toISOString().slice(0, 10);
    expect(messages({ ...base, birthdate: todayInUtc })).toEqual([]);
    expect(messages({ ...base, birthdate: '2019-04-02' })).toEqual([]);
  });
});
