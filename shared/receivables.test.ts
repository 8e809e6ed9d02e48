import { describe, expect, it } from 'vitest';
import { addReceivables, daysBetween, emptyReceivables, saleStandingLabel, scheduleRows } from './receivables.ts';
import { balanceCents, pastDueCents } from './sales.ts';

// 12 000 over 12 months, no interest: 1 000 on the 31st (clamped) of each month from Jan 31.
const sale = {
  salePrice: '12000.00',
  downPayment: '0.00',
  termsMonths: 12,
  interestApr: null,
  scheduleStartDate: '2026-01-31',
  createdAt: '2026-01-10T10:00:00.000Z',
};

describe('receivables: late installments, standing and ageing', () => {
  it('[S16] counts days between calendar dates', () => {
    expect(daysBetween('2026-01-31', '2026-03-01')).toBe(29);
    expect(daysBetween('2026-03-01', '2026-03-01')).toBe(0);
  });

  it('[S12] [S16] covers installments in order and marks the late ones on a day', () => {
    const rows = scheduleRows(sale, 150_000, '2026-03-31');
    expect(rows.slice(0, 4).map(({ dueDate, owedCents, paid, late, daysLate }) => ({ dueDate, owedCents, paid, late, daysLate }))).toEqual([
      { dueDate: '2026-01-31', owedCents: 0, paid: true, late: false, daysLate: 0 },
      { dueDate: '2026-02-28', owedCents: 50_000, paid: false, late: true, daysLate: 31 },
      // Due today: not late yet.
      { dueDate: '2026-03-31', owedCents: 100_000, paid: false, late: false, daysLate: 0 },
      { dueDate: '2026-04-30', owedCents: 100_000, paid: false, late: false, daysLate: 0 },
    ]);
  });

  it('[S16] Open, Past due the day after an unpaid due date, Paid once all is paid', () => {
    expect(saleStandingLabel(sale, 0, '2026-01-31')).toBe('Open');
    expect(saleStandingLabel(sale, 0, '2026-02-01')).toBe('Past due');
    expect(saleStandingLabel(sale, 100_000, '2026-02-01')).toBe('Open');
    expect(saleStandingLabel(sale, 100_000, '2026-03-01')).toBe('Past due');
    expect(saleStandingLabel(sale, 1_200_000, '2030-01-01')).toBe('Paid');
    // A paid-off sale is never past due, whatever the day.
    expect(saleStandingLabel({ ...sale, downPayment: '12000.00' }, 0, '2030-01-01')).toBe('Paid');
  });

  it('[D11] ages what open sales owe into current, 1–30, 31–60, 61–90 and 90+ days', () => {
    const today = '2026-06-15';
    const receivables = addReceivables(emptyReceivables(), sale, 50_000, today);
    // Jan 31 (half paid, 135 days), Feb 28 (107), Mar 31 (76), Apr 30 (46), May 31 (15), then current.
    expect(receivables.ageing).toEqual({
      over90: 150_000,
      days61to90: 100_000,
      days31to60: 100_000,
      days1to30: 100_000,
      current: 700_000,
    });
    expect(receivables.owedCents).toBe(balanceCents(sale, 50_000));
    expect(receivables.lateCents).toBe(pastDueCents(sale, 50_000, today));
    // Bucket edges: 30 days late is 1–30, 31 is 31–60, 90 is 61–90, 91 is 90+.
    const edge = (today: string) => addReceivables(emptyReceivables(), { ...sale, termsMonths: 3, salePrice: '3000.00' }, 0, today).ageing;
    expect(edge('2026-03-02')).toMatchObject({ days1to30: 200_000, days31to60: 0 }); // Jan 31 + 30, Feb 28 + 2
    expect(edge('2026-03-03')).toMatchObject({ days31to60: 100_000 });
    expect(edge('2026-05-01')).toMatchObject({ days61to90: 200_000, days31to60: 100_000, over90: 0 }); // Jan 31 + 90, Feb 28 + 62, Mar 31 + 31
    expect(edge('2026-05-02')).toMatchObject({ over90: 100_000 });
  });

  it('[D11] a paid sale adds nothing', () => {
    expect(addReceivables(emptyReceivables(), sale, 1_200_000, '2027-01-01')).toEqual(emptyReceivables());
  });
});
