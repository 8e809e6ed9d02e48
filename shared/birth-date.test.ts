import { describe, expect, it } from 'vitest';
import { horseAge, isPastOrToday, latestToday, yearsSince } from './birth-date.ts';

describe('birth dates and ages (device and server alike)', () => {
  it('[H10] today is the latest date on Earth: UTC+14', () => {
    expect(latestToday(new Date('2026-12-07T09:59:59Z'))).toBe('2026-12-07');
    expect(latestToday(new Date('2026-12-07T10:00:00Z'))).toBe('2026-12-08');
    expect(isPastOrToday('2026-12-08', new Date('2026-12-07T10:00:00Z'))).toBe(true);
    expect(isPastOrToday('2026-12-08', new Date('2026-12-07T09:00:00Z'))).toBe(false);
    expect(isPastOrToday('2026-12-09', new Date('2026-12-07T23:59:59Z'))).toBe(false);
  });

  it('[H3] counts whole years, a birthday counting on its day', () => {
    expect(yearsSince('2020-06-15', '2026-06-14')).toBe(5);
    expect(yearsSince('2020-06-15', '2026-06-15')).toBe(6);
    expect(yearsSince('2020-02-29', '2026-02-28')).toBe(5);
    expect(yearsSince('2020-02-29', '2026-03-01')).toBe(6);
    expect(yearsSince('2026-12-08', '2026-12-07')).toBeNull();
    expect(yearsSince(null, '2026-12-07')).toBeNull();
  });

  it('[H10] the age follows the birth date when both are given; the entered age stands alone', () => {
    expect(horseAge({ birthdate: '2020-01-01', ageYears: 15 }, '2026-12-07')).toBe(6);
    expect(horseAge({ birthdate: null, ageYears: 15 }, '2026-12-07')).toBe(15);
    expect(horseAge({ birthdate: null, ageYears: null }, '2026-12-07')).toBeNull();
  });
});
