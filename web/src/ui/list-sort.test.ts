import { describe, expect, it } from 'vitest';
import { compareSortValues, dateSortValue, moneySortValue, sortRows } from './list-sort.ts';

describe('[B7] list order', () => {
  it('puts "Horse 2" before "Horse 10", and ignores case and accents but for ties', () => {
    const names = ['Horse 10', 'horse 2', 'Apollo 1004', 'Apollo 104', 'Éclair', 'eclair 3', 'Horse 1'];
    expect(sortRows(names, (name) => name, 'asc')).toEqual([
      'Apollo 104',
      'Apollo 1004',
      'Éclair',
      'eclair 3',
      'Horse 1',
      'horse 2',
      'Horse 10',
    ]);
    expect(sortRows(names, (name) => name, 'desc')).toEqual([
      'Horse 10',
      'horse 2',
      'Horse 1',
      'eclair 3',
      'Éclair',
      'Apollo 1004',
      'Apollo 104',
    ]);
  });

  it('compares numbers as numbers and keeps rows with nothing in the column last, both ways', () => {
    const rows = [
      { id: 'a', price: moneySortValue('900') },
      { id: 'b', price: moneySortValue(null) },
      { id: 'c', price: moneySortValue('12500.10') },
      { id: 'd', price: moneySortValue('not money') },
      { id: 'e', price: moneySortValue('45') },
    ];
    expect(sortRows(rows, (row) => row.price, 'asc').map((row) => row.id)).toEqual(['e', 'a', 'c', 'b', 'd']);
    expect(sortRows(rows, (row) => row.price, 'desc').map((row) => row.id)).toEqual(['c', 'a', 'e', 'b', 'd']);
    expect(compareSortValues(9, 10)).toBeLessThan(0);
    expect(compareSortValues('', 'a')).toBeGreaterThan(0);
  });

  it('is stable: rows equal in the column keep the order they came in', () => {
    const rows = ['x1', 'x2', 'x3', 'x4'].map((id) => ({ id, status: 'Available' }));
    expect(sortRows(rows, (row) => row.status, 'desc').map((row) => row.id)).toEqual(['x1', 'x2', 'x3', 'x4']);
  });

  it('orders dates by time, a malformed one last', () => {
    const dates = ['2026-12-06', '2025-01-31', 'soon', '2026-02-01T10:00:00.000Z'];
    expect(sortRows(dates, dateSortValue, 'desc')).toEqual(['2026-12-06', '2026-02-01T10:00:00.000Z', '2025-01-31', 'soon']);
  });
});

describe('[B7] ties', () => {
  it('orders rows equal in the column by the list’s own order (a name), naturally', () => {
    const rows = [
      { name: 'Horse 10', breed: 'Arabian' },
      { name: 'Horse 2', breed: 'Arabian' },
      { name: 'Apollo', breed: 'Mustang' },
    ];
    expect(
      sortRows(
        rows,
        (row) => row.breed,
        'asc',
        (row) => row.name,
      ).map((row) => row.name),
    ).toEqual(['Horse 2', 'Horse 10', 'Apollo']);
  });
});
