// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
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
    data.sales.create({ horseId, buyerId, salePrice: '100', downPayment: '100', termsMonths: 0 });
    show();
    fireEvent.click(within(await rowOf('Bo Hart')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete buyer')).toBeTruthy();
    expect(await data.db.buyers.count()).toBe(1);
  });

  it('[R1] a Viewer sees no write actions', async () => {
    data.buyers.create({ firstName: 'Bo', lastName: 'Hart' });
    show('Viewer');
    const row = await rowOf('Bo Hart');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Buyer' })).toBeNull();
  });
});
