// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { renderScreen, rowOf, testUser, useTestData } from '../../../test/render-screen.tsx';
import { SuppliersScreen } from './SuppliersScreen.tsx';

let data: RanchData;
useTestData((opened) => (data = opened));

const show = (role: 'Staff' | 'Viewer' = 'Staff') => renderScreen(<SuppliersScreen />, { data, user: testUser(role) });

describe('Suppliers screen', () => {
  it('[C1] shows its texts and the empty state', async () => {
    show();
    expect(await screen.findByRole('heading', { name: 'Suppliers' })).toBeTruthy();
    expect(screen.getByText('Manage horse suppliers and their information')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' })).toBeTruthy();
    expect(await screen.findByText('No suppliers found')).toBeTruthy();
  });

  it('[C7] validates and creates a supplier in Add New Supplier', async () => {
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Add Supplier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Supplier' });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Supplier' }));
    for (const message of ['First name is required', 'Last name is required', 'Invalid email']) {
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    fireEvent.change(within(dialog).getByLabelText(/^First Name/), { target: { value: 'Sam' } });
    fireEvent.change(within(dialog).getByLabelText(/^Last Name/), { target: { value: 'Stone' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'sam@ranch.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Supplier' }));
    expect(await screen.findByText('Owner created successfully')).toBeTruthy();

    const cells = within(await rowOf('Sam Stone'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 6)).toEqual(['Sam Stone', 'N/A', 'sam@ranch.test', '0', '$0', new Date().toLocaleDateString()]);
    expect(screen.getByRole('link', { name: 'sam@ranch.test' }).getAttribute('href')).toBe('mailto:sam@ranch.test');
  });

  it('[C2] [C3] totals the horses and their prices; refuses deletion while it has horses', async () => {
    const owner = data.owners.create({ firstName: 'Sam', lastName: 'Stone', phone: '555-0100' });
    const refs = {
      breedId: data.lookups.create('breeds', { name: 'Arabian' }),
      colorId: data.lookups.create('colors', { name: 'Bay' }),
      genderId: data.lookups.create('genders', { name: 'Mare' }),
    };
    data.horses.create({ name: 'A', ...refs, ownerId: owner, priceUsd: '12500.10' });
    data.horses.create({ name: 'B', ...refs, ownerId: owner, priceUsd: '0.20' });
    data.horses.create({ name: 'C', ...refs });
    show();
    const row = await rowOf('Sam Stone');
    await waitFor(() => expect(within(row).getAllByRole('cell')[3]?.textContent).toBe('2'));
    expect(within(row).getAllByRole('cell')[4]?.textContent).toBe('$12,500.30');
    expect(within(row).getByRole('link', { name: '555-0100' }).getAttribute('href')).toBe('tel:5550100');

    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want to delete this supplier?' });
    expect(within(confirm).getByText(/still supplies 2 horses/)).toBeTruthy();
    expect((within(confirm).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('[C4] edits, views and deletes a supplier', async () => {
    data.owners.create({ firstName: 'Sam', lastName: 'Stone' });
    show();
    fireEvent.click(within(await rowOf('Sam Stone')).getByRole('button', { name: 'View Details' }));
    const details = await screen.findByRole('dialog', { name: 'Supplier Details' });
    expect(within(details).getByText('No horses found')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Close' }));

    fireEvent.click(within(await rowOf('Sam Stone')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Supplier' });
    fireEvent.change(within(dialog).getByLabelText(/^First Name/), { target: { value: 'Samuel' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Supplier updated successfully')).toBeTruthy();

    fireEvent.click(within(await rowOf('Samuel Stone')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want to delete this supplier?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Supplier deleted successfully')).toBeTruthy();
    expect(await screen.findByText('No suppliers found')).toBeTruthy();
  });

  it('[R1] a Viewer cannot add, edit or delete', async () => {
    data.owners.create({ firstName: 'Sam', lastName: 'Stone' });
    show('Viewer');
    const row = await rowOf('Sam Stone');
    expect(within(row).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Supplier' })).toBeNull();
  });
});
