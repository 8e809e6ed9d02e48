// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { renderScreen, rowOf, testUser, useTestData } from '../../../test/render-screen.tsx';
import { BuyersScreen } from './BuyersScreen.tsx';

let data: RanchData;
useTestData((opened) => (data = opened));

const show = (role: 'Staff' | 'Viewer' = 'Staff') => renderScreen(<BuyersScreen />, { data, user: testUser(role) });

describe('Buyers screen', () => {
  it('[C5] shows its texts and the empty state', async () => {
    show();
    expect(await screen.findByRole('heading', { name: 'Buyers' })).toBeTruthy();
    expect(screen.getByText('Manage buyer contacts and information')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'All Buyers' })).toBeTruthy();
    expect(await screen.findByText('No buyers found')).toBeTruthy();
  });

  it('[C7] labels have no required mark, phone and email read (Optional); the contact messages', async () => {
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Add Buyer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Buyer' });
    const labels = [...dialog.querySelectorAll('label')].map((label) => label.textContent);
    expect(labels).toEqual(['First Name', 'Last Name', 'Phone (Optional)', 'Email (Optional)']);
    fireEvent.change(within(dialog).getByLabelText('Email (Optional)'), { target: { value: 'x@' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Buyer' }));
    for (const message of ['First name is required', 'Last name is required', 'Invalid email']) {
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    fireEvent.change(within(dialog).getByLabelText('First Name'), { target: { value: 'Bo' } });
    fireEvent.change(within(dialog).getByLabelText('Last Name'), { target: { value: 'Hart' } });
    fireEvent.change(within(dialog).getByLabelText('Email (Optional)'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Buyer' }));
    expect(await screen.findByText('Buyer created successfully')).toBeTruthy();
    const cells = within(await rowOf('Bo Hart'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 3)).toEqual(['Bo Hart', 'N/A', 'N/A']);
  });

  it('[C5] [C6] edits in Edit Buyer and deletes without confirmation', async () => {
    data.buyers.create({ firstName: 'Bo', lastName: 'Hart' });
    show();
    fireEvent.click(within(await rowOf('Bo Hart')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Buyer' });
    fireEvent.change(within(dialog).getByLabelText('Phone (Optional)'), { target: { value: '555 0101' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Buyer' }));
    expect(await screen.findByText('Buyer updated successfully')).toBeTruthy();
    expect(await screen.findByRole('link', { name: '555 0101' })).toBeTruthy();

    fireEvent.click(within(await rowOf('Bo Hart')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Buyer deleted successfully')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: /Are you sure/ })).toBeNull();
    expect(await screen.findByText('No buyers found')).toBeTruthy();
  });

  it('[C6] a buyer with a sale is kept: Failed to delete buyer', async () => {
    const buyerId = data.buyers.create({ firstName: 'Bo', lastName: 'Hart' });
    const horseId = data.horses.create({
      name: 'Comet',
      breedId: data.lookups.create('breeds', { name: 'Arabian' }),
      colorId: data.lookups.create('colors', { name: 'Bay' }),
      genderId: data.lookups.create('genders', { name: 'Mare' }),
    });
    await data.writes.sales.create({ horseId, buyerId, salePrice: '100', downPayment: '100', termsMonths: 0 });
    show();
    fireEvent.click(within(await rowOf('Bo Hart')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete buyer')).toBeTruthy();
    expect(await data.db.buyers.count()).toBe(1);
  });

  it('[R1] a Viewer sees no write actions', async () => {
    data.buyers.create({ firstName: 'Bo', lastName: 'Hart' });
    show('Viewer');
    const row = await rowOf('Bo Hart');
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label') ?? button.textContent),
    ).toEqual(['View Details']);
    expect(screen.queryByRole('button', { name: 'Add Buyer' })).toBeNull();
  });

  it('[C10] Buyer Details shows what the buyer owes, what is past due, and each purchase', async () => {
    const buyerId = data.buyers.create({ firstName: 'Bo', lastName: 'Hart', phone: '(555) 201-3344' });
    const other = data.buyers.create({ firstName: 'Al', lastName: 'Other' });
    const refs = {
      breedId: data.lookups.create('breeds', { name: 'Arabian' }),
      colorId: data.lookups.create('colors', { name: 'Bay' }),
      genderId: data.lookups.create('genders', { name: 'Mare' }),
    };
    const horse = (name: string) => data.horses.create({ name, ...refs });
    // Late: 3 × $1,000 from 2020, $1,000 paid; current: 3 × $300 from 2099; paid in full.
    const late = await data.writes.sales.create({
      horseId: horse('Comet'),
      buyerId,
      salePrice: '3000',
      termsMonths: 3,
      scheduleStartDate: '2020-01-31',
    });
    await data.writes.payments.create({ saleId: late, amount: '1000', date: '2020-02-01', method: 'Cash' });
    await data.writes.sales.create({ horseId: horse('Star'), buyerId, salePrice: '900', termsMonths: 3, scheduleStartDate: '2099-01-01' });
    await data.writes.sales.create({ horseId: horse('Dusty'), buyerId, salePrice: '500', downPayment: '500', termsMonths: 0 });
    await data.writes.sales.create({
      horseId: horse('Elsewhere'),
      buyerId: other,
      salePrice: '700',
      termsMonths: 3,
      scheduleStartDate: '2020-01-01',
    });
    show('Viewer');
    fireEvent.click(within(await rowOf('Bo Hart')).getByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buyer Details' });
    await waitFor(() => expect(within(dialog).getByTestId('buyer-owes').textContent).toBe('$2,900'));
    expect(within(dialog).getByTestId('buyer-past-due').textContent).toBe('$2,000');
    expect(within(dialog).getByRole('link', { name: '(555) 201-3344' })).toBeTruthy();
    const purchases = within(within(dialog).getByRole('table', { name: 'Purchases' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 5)
          .map((cell) => cell.textContent),
      );
    expect(purchases.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['Comet', '$3,000', 'Past due', '$2,000', '$2,000'],
      ['Dusty', '$500', 'Paid', '$0', '$0'],
      ['Star', '$900', 'Open', '$900', '$0'],
    ]);
  });
});
