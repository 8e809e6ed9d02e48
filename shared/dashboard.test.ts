import { describe, expect, it } from 'vitest';
import { NO_STATUS, paidCentsBySale, ranchFigures, type RanchFiguresInput } from './dashboard.ts';
import type { StoredSale } from './schemas/sale.ts';

const sale = (patch: Partial<StoredSale>): StoredSale => ({
  id: 's',
  horseId: 'h',
  buyerId: 'b',
  salePrice: '12000.00',
  downPayment: '0.00',
  termsMonths: 12,
  interestApr: null,
  previousStatusId: null,
  scheduleStartDate: '2026-01-01',
  createdAt: '2025-12-20T10:00:00.000Z',
  ...patch,
});

type Rows = Omit<RanchFiguresInput, 'paidCents'> & { payments: { saleId: string; amount: string }[] };
const figures = ({ payments, ...rows }: Rows, today: string) => ranchFigures({ ...rows, paidCents: paidCentsBySale(payments) }, today);

describe('ranch figures (dashboard metrics, device and REST)', () => {
  it('[D4] [D5] [D6] [D7] counts horses, values the unsold ones, and finds open sales and what is past due', () => {
    const metrics = figures(
      {
        horses: [
          { id: 'h1', statusId: 'st-sale', priceUsd: '1500000.00' },
          { id: 'h2', statusId: 'st-sale', priceUsd: '250000.50' },
          { id: 'h3', statusId: 'st-sold', priceUsd: '12000.00' },
          { id: 'h4', statusId: null, priceUsd: null },
          { id: 'h5', statusId: 'st-sold', priceUsd: '9000.00' },
        ],
        statuses: [
          { id: 'st-sold', name: 'Sold' },
          { id: 'st-sale', name: 'For Sale' },
          { id: 'st-none', name: 'Retired' },
        ],
        sales: [sale({ id: 's1', horseId: 'h3' }), sale({ id: 's2', horseId: 'h5', salePrice: '9000.00', downPayment: '9000.00' })],
        payments: [{ saleId: 's1', amount: '500.00' }],
      },
      '2026-03-15',
    );
    expect(metrics.totalHorses).toBe(5);
    expect(metrics.inventoryValueCents).toBe(175_000_050);
    expect(metrics.activeSales).toBe(1);
    // Three installments of 1 000 fell due (Jan, Feb, Mar 1); 500 was paid.
    expect(metrics.pastDueCents).toBe(250_000);
    expect(metrics.statusDistribution).toEqual([
      { name: 'For Sale', count: 2 },
      { name: 'Retired', count: 0 },
      { name: 'Sold', count: 2 },
      { name: NO_STATUS, count: 1 },
    ]);
  });

  it('[D9] is all zero without data', () => {
    expect(figures({ horses: [], statuses: [], sales: [], payments: [] }, '2026-01-01')).toEqual({
      totalHorses: 0,
      inventoryValueCents: 0,
      activeSales: 0,
      pastDueCents: 0,
      statusDistribution: [],
      horsesAddedThisMonth: 0,
      inventoryValueLastMonthCents: 0,
      pendingCents: 0,
      accountsPastDue: 0,
      ageing: { current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0 },
    });
  });

  it("[D2] [D12] counts the horses added this month and last month's inventory, by the time in their ids", () => {
    // UUID v7: the first 48 bits are the creation time in ms.
    const v7 = (iso: string, n: number) => {
      const hex = Date.parse(iso).toString(16).padStart(12, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-${String(n).padStart(12, '0')}`;
    };
    const old = v7('2026-02-20T12:00:00Z', 1);
    const soldThisMonth = v7('2026-01-05T12:00:00Z', 2);
    const soldLastMonth = v7('2026-01-06T12:00:00Z', 3);
    const fresh = v7('2026-03-02T08:00:00Z', 4);
    const randomId = '3b241101-e2bb-4255-8caf-4136c566a962'; // v4: time unknown, counted as older
    const metrics = figures(
      {
        horses: [
          { id: old, statusId: null, priceUsd: '10000.00' },
          { id: soldThisMonth, statusId: null, priceUsd: '5000.00' },
          { id: soldLastMonth, statusId: null, priceUsd: '7000.00' },
          { id: fresh, statusId: null, priceUsd: '2000.00' },
          { id: randomId, statusId: null, priceUsd: '1000.00' },
        ],
        statuses: [],
        sales: [
          sale({
            id: 's1',
            horseId: soldThisMonth,
            buyerId: 'b1',
            createdAt: '2026-03-03T10:00:00.000Z',
            termsMonths: 0,
            downPayment: '12000.00',
          }),
          sale({
            id: 's2',
            horseId: soldLastMonth,
            buyerId: 'b2',
            createdAt: '2026-02-27T10:00:00.000Z',
            termsMonths: 0,
            downPayment: '12000.00',
          }),
        ],
        payments: [],
      },
      '2026-03-15',
    );
    expect(metrics.horsesAddedThisMonth).toBe(1);
    // Now: old, fresh and the random-id horse (13 000). At March 1: old, the horse sold on
    // March 3 and the random-id horse, at today's prices (16 000).
    expect(metrics.inventoryValueCents).toBe(1_300_000);
    expect(metrics.inventoryValueLastMonthCents).toBe(1_600_000);
  });

  it('[D2] [D11] sums what open sales owe, counts the buyers with something late, and ages it', () => {
    const metrics = figures(
      {
        horses: [],
        statuses: [],
        sales: [
          // b1: 3 × 1 000 from Jan 1; on Mar 15 Jan and Feb are late (Mar 1 too), 500 paid.
          sale({ id: 's1', horseId: 'h1', buyerId: 'b1', salePrice: '3000.00', termsMonths: 3 }),
          // b1 again: nothing due yet.
          sale({ id: 's2', horseId: 'h2', buyerId: 'b1', salePrice: '1200.00', termsMonths: 12, scheduleStartDate: '2026-04-01' }),
          // b2: nothing late (first installment due today).
          sale({ id: 's3', horseId: 'h3', buyerId: 'b2', salePrice: '600.00', termsMonths: 3, scheduleStartDate: '2026-03-15' }),
          // b3: late but paid off.
          sale({ id: 's4', horseId: 'h4', buyerId: 'b3', salePrice: '300.00', termsMonths: 3 }),
        ],
        payments: [
          { saleId: 's1', amount: '500.00' },
          { saleId: 's4', amount: '300.00' },
        ],
      },
      '2026-03-15',
    );
    expect(metrics.accountsPastDue).toBe(1);
    expect(metrics.pendingCents).toBe(250_000 + 120_000 + 60_000);
    expect(metrics.pastDueCents).toBe(250_000);
    expect(metrics.ageing).toEqual({
      current: 120_000 + 60_000,
      days1to30: 100_000, // Mar 1
      days31to60: 100_000, // Feb 1
      days61to90: 50_000, // Jan 1, half paid
      over90: 0,
    });
  });
});
