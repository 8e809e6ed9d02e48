// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { inRouter, renderScreen } from '../../../test/render-screen.tsx';
import { DashboardScreen } from './DashboardScreen.tsx';
import { KpiCards } from './KpiCards.tsx';

let data: RanchData;

beforeEach(async () => {
  data = openTestData();
  await data.projection.ready;
});

afterEach(async () => {
  cleanup();
  await data.persistence.clearData();
  await data.destroy();
});

const kpi = (title: string) => within(screen.getByRole('listitem', { name: title }));

describe('Dashboard', () => {
  it('[D1] shows 4 KPI skeleton cards while loading', () => {
    render(<KpiCards metrics={undefined} />);
    expect(screen.getAllByTestId('kpi-skeleton')).toHaveLength(4);
  });

  it('[D2] [D8] [D11] with no data: zeros, the captions with their real (zero) figures, the static activity', async () => {
    renderScreen(inRouter(<DashboardScreen />), { data });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByText('Welcome back, Ada Rider! Here is what is happening at your ranch.')).toBeTruthy();
    await screen.findByRole('list', { name: 'Key figures' });
    const card = (title: string) => [kpi(title).getByTestId('kpi-value').textContent, kpi(title).getByTestId('kpi-caption').textContent];
    expect(card('Total Horses')).toEqual(['0', '+0 this month']);
    expect(card('Inventory Value')).toEqual(['$0', '+0.0% from last month']);
    expect(card('Active Sales')).toEqual(['0', '$0 pending']);
    expect(card('Past Due')).toEqual(['$0', '0 accounts']);
    const ageing = within(screen.getByRole('table', { name: 'Receivables Ageing' }));
    expect(ageing.getAllByRole('row').map((row) => row.textContent)).toEqual([
      'Current$0',
      '1–30 days$0',
      '31–60 days$0',
      '61–90 days$0',
      '90+ days$0',
      'Total owed$0',
    ]);
    expect(screen.getByRole('heading', { name: 'Horse Status Distribution' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Recent Activity' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View All' }).getAttribute('href')).toBe('/activity');
    expect(screen.getByText('System initialized')).toBeTruthy();
    expect(screen.getByText('Just now')).toBeTruthy();
  });

  it('[D9] [D2] [D11] computes the figures from local data and follows new payments live', async () => {
    const breedId = data.lookups.create('breeds', { name: 'Arabian' });
    const colorId = data.lookups.create('colors', { name: 'Bay' });
    const genderId = data.lookups.create('genders', { name: 'Mare' });
    const forSale = data.lookups.create('statuses', { name: 'For Sale' });
    const sold = data.lookups.create('statuses', { name: 'Sold' });
    const refs = { breedId, colorId, genderId };
    data.horses.create({ name: 'A', ...refs, statusId: forSale, priceUsd: '1200000' });
    data.horses.create({ name: 'B', ...refs, statusId: forSale, priceUsd: '250000' });
    const soldHorse = data.horses.create({ name: 'C', ...refs, statusId: sold, priceUsd: '30000' });
    const buyerId = data.buyers.create({ firstName: 'Bo', lastName: 'Buyer' });
    const saleId = await data.writes.sales.create({
      horseId: soldHorse,
      buyerId,
      salePrice: '30000',
      downPayment: '0',
      termsMonths: 3,
      scheduleStartDate: '2020-01-01',
    });

    renderScreen(inRouter(<DashboardScreen />), { data });
    await waitFor(() => expect(kpi('Total Horses').getByTestId('kpi-value').textContent).toBe('3'));
    expect(kpi('Inventory Value').getByTestId('kpi-value').textContent).toBe('$1.5M');
    expect(kpi('Active Sales').getByTestId('kpi-value').textContent).toBe('1');
    expect(kpi('Past Due').getByTestId('kpi-value').textContent).toBe('$30K');
    // [D2] [D12] Every horse was added this month, so the month started with no inventory.
    const caption = (title: string) => kpi(title).getByTestId('kpi-caption').textContent;
    expect([caption('Total Horses'), caption('Inventory Value'), caption('Active Sales'), caption('Past Due')]).toEqual([
      '+3 this month',
      '+$1.5M from last month',
      '$30K pending',
      '1 account',
    ]);
    const ageing = within(screen.getByRole('table', { name: 'Receivables Ageing' }));
    expect(ageing.getByRole('row', { name: /90\+ days/ }).textContent).toBe('90+ days$30,000');
    expect(ageing.getByRole('row', { name: /Current/ }).textContent).toBe('Current$0');
    const forSaleRow = within(screen.getByRole('listitem', { name: 'For Sale' }));
    expect(forSaleRow.getByTestId('status-count').textContent).toBe('2');
    expect(forSaleRow.getByTestId('status-percent').textContent).toBe('67%');
    expect(within(screen.getByRole('listitem', { name: 'Sold' })).getByTestId('status-percent').textContent).toBe('33%');

    await data.writes.payments.create({ saleId, amount: '30000', date: '2020-04-01', method: 'Cash' });
    await waitFor(() => expect(kpi('Active Sales').getByTestId('kpi-value').textContent).toBe('0'));
    expect(kpi('Past Due').getByTestId('kpi-value').textContent).toBe('$0');
    expect(caption('Active Sales')).toBe('$0 pending');
    expect(caption('Past Due')).toBe('0 accounts');
  });
});
