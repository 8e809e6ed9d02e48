import { describe, expect, it } from 'vitest';
import { compareSortValues, createKeptOrder, dateSortValue, moneySortValue, sortRows } from './list-sort.ts';

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

describe('[B7] a long list kept in order as it changes', () => {
  type Row = { id: string; name: string; price: number | null };
  const byPrice = (row: Row) => row.price;
  const byName = (row: Row) => row.name;
  const names = (rows: Row[]) => rows.map((row) => row.name);

  it('puts changed rows in their places, as a whole sort would, both ways', () => {
    for (const direction of ['asc', 'desc'] as const) {
      const order = createKeptOrder<Row>();
      let rows: Row[] = Array.from({ length: 500 }, (_, i) => ({
        id: `h${i}`,
        name: `Horse ${i}`,
        price: i % 7 === 0 ? null : (i * 37) % 1000,
      }));
      expect(names(order(rows, byPrice, direction, byName))).toEqual(names(sortRows(rows, byPrice, direction, byName)));
      // One horse edited, one added, one deleted, as another device's change arrives.
      rows = rows.map((row) => (row.id === 'h10' ? { ...row, price: 999 } : row)).filter((row) => row.id !== 'h20');
      rows.push({ id: 'h900', name: 'Horse 900', price: 5 });
      expect(names(order(rows, byPrice, direction, byName))).toEqual(names(sortRows(rows, byPrice, direction, byName)));
      // Many changed at once: sorted anew, the same.
      rows = rows.map((row) => ({ ...row, price: row.price === null ? 1 : 1000 - row.price }));
      expect(names(order(rows, byPrice, direction, byName))).toEqual(names(sortRows(rows, byPrice, direction, byName)));
    }
  });
});
