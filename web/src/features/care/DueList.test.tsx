// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { DueList } from './DueList.tsx';
import { openRanchDb } from '../../data/db.ts';
import { dueMarks, markDueSeen } from './due-marks.ts';
import { keyHash } from './due-seen.ts';
import type { DueRow } from './use-due.ts';

afterEach(cleanup);

const U1 = { id: 'u1', notify: false, maintenanceAlerts: true };

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

  it('[K4] given the first 50 of 10,000 (what the host sends), it shows them and counts the rest', () => {
    render(<DueList rows={Array.from({ length: 50 }, (_, i) => row(i))} total={10_000} onOpen={() => {}} limit={50} />);
    const list = screen.getByRole('list', { name: 'Due' });
    expect(within(list).getAllByRole('button')).toHaveLength(50);
    expect(within(list).getByText('and 9950 more')).toBeTruthy();
  });

  it('[K4] what was seen is kept as short hashes per user: 10,000 keys take well under 100 kB', async () => {
    const db = openRanchDb(`due-seen-${Date.now()}`);
    const rows = Array.from({ length: 10_000 }, (_, i) => row(i));
    const first = await dueMarks(db, rows, U1);
    expect(first.newDue).toBe(true);
    expect(first.hashes.length).toBeLessThan(100_000);
    await markDueSeen(db, 'u1', first.hashes);
    expect((await dueMarks(db, rows, U1)).newDue).toBe(false);
    expect((await dueMarks(db, [row(10_001)], U1)).newDue).toBe(true);
    expect((await dueMarks(db, rows, { ...U1, id: 'u2' })).newDue).toBe(true);
    expect(keyHash('a')).not.toBe(keyHash('b'));
    await db.delete();
  });

  it('[K4] a hash the data layer computed is the one the page would: rows read with or without it agree', async () => {
    const db = openRanchDb(`due-seen-${Date.now()}`);
    const rows = Array.from({ length: 100 }, (_, i) => row(i));
    await markDueSeen(db, 'u1', (await dueMarks(db, rows, U1)).hashes);
    const hashed = rows.map((r) => ({ ...r, hash: keyHash(r.key) }));
    expect((await dueMarks(db, hashed, U1)).newDue).toBe(false);
    // The hash is what is compared: a row whose hash was not seen is new, whatever its key.
    expect((await dueMarks(db, [{ ...row(1), hash: keyHash('something else') }], U1)).newDue).toBe(true);
    await db.delete();
  });
});
