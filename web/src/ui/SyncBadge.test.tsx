// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { DataProvider } from '../data/context.tsx';
import type { RanchData } from '../data/ranch-data.ts';
import { closeTestData, openTestData } from '../../test/ranch-data.ts';
import { SyncBadge } from './SyncBadge.tsx';

let data: RanchData;
beforeEach(() => {
  data = openTestData();
});
afterEach(async () => {
  cleanup();
  await closeTestData(data);
});

describe('the sync status', () => {
  it('[O5] counts a sale and a payment recorded on this device as waiting until the server has them', async () => {
    const horseId = data.horses.create({
      name: 'Comet',
      breedId: data.lookups.create('breeds', { name: 'Arabian' }),
      colorId: data.lookups.create('colors', { name: 'Bay' }),
      genderId: data.lookups.create('genders', { name: 'Mare' }),
    });
    const buyerId = data.buyers.create({ firstName: 'Bo', lastName: 'Hart' });
    render(
      <DataProvider data={data}>
        <SyncBadge />
      </DataProvider>,
    );
    expect(await screen.findByText('5 changes waiting')).toBeTruthy();
    const saleId = await data.writes.sales.create({ horseId, buyerId, salePrice: '900', downPayment: '0', termsMonths: 3 });
    // The sale (a ledger entry) and the Sold status it gave the horse (a statuses item made for it).
    expect(await screen.findByText('7 changes waiting')).toBeTruthy();
    await data.writes.payments.create({ saleId, amount: '100', date: '2026-12-02', method: 'Cash' });
    expect(await screen.findByText('8 changes waiting')).toBeTruthy();
  });
});
