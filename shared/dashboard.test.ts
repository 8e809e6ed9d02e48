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
    });
  });
});
