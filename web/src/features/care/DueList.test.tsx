import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { DueList } from './DueList.tsx';
import { hasNewDue, keyHash, readDueSeen, writeDueSeen } from './due-seen.ts';
import type { DueRow } from './use-due.ts';

afterEach(cleanup);

const row = (i: number): DueRow => ({
  type: 'care',
  key: `care:h${i}:farrier:2026-01-01:overdue`,
  horseId: `h${i}`,
  kind: 'farrier',
  dueOn: '2026-01-01',
  overdue: true,
  title: `Farrier overdue: Horse ${i}`,
  detail: 'Was due 1/1/2026',
});

describe('what is due, at ranch scale', () => {
  it('[K4] the bell shows the first 50 lines and counts the rest', () => {
    render(<DueList rows={Array.from({ length: 60 }, (_, i) => row(i))} onOpen={() => {}} limit={50} />);
    const list = screen.getByRole('list', { name: 'Due' });
    expect(within(list).getAllByRole('button')).toHaveLength(50);
    expect(within(list).getByText('and 10 more')).toBeTruthy();
  });

  it('[K4] what was seen is kept as short hashes per user: 10,000 keys take well under 100 kB', () => {
    localStorage.clear();
    const rows = Array.from({ length: 10_000 }, (_, i) => row(i));
    writeDueSeen('u1', rows);
    expect(localStorage.getItem('ranch.dueSeen.u1')!.length).toBeLessThan(100_000);
    expect(hasNewDue(rows, readDueSeen('u1'))).toBe(false);
    expect(hasNewDue([row(10_001)], readDueSeen('u1'))).toBe(true);
    expect(hasNewDue(rows, readDueSeen('u2'))).toBe(true);
    expect(keyHash('a')).not.toBe(keyHash('b'));
  });

  it('[K4] a hash the data layer computed is the one the page would: rows read with or without it agree', () => {
    localStorage.clear();
    const rows = Array.from({ length: 100 }, (_, i) => row(i));
    writeDueSeen('u1', rows);
    const hashed = rows.map((r) => ({ ...r, hash: keyHash(r.key) }));
    expect(hasNewDue(hashed, readDueSeen('u1'))).toBe(false);
    // The hash is what is compared: a row whose hash was not seen is new, whatever its key.
    expect(hasNewDue([{ ...row(1), hash: keyHash('something else') }], readDueSeen('u1'))).toBe(true);
  });
});
