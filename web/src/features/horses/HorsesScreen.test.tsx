import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { DataProvider } from '../../data/context.tsx';
import type { RanchData } from '../../data/ranch-data.ts';
import { ToastProvider } from '../../ui/Toast.tsx';
import { openTestData } from '../../../test/ranch-data.ts';
import { HorsesScreen } from './HorsesScreen.tsx';

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

function renderScreen() {
  render(
    <ToastProvider>
      <DataProvider data={data}>
        <HorsesScreen />
      </DataProvider>
    </ToastProvider>,
  );
}

async function openAddDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Add Horse' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add New Horse' });
  await within(dialog).findByLabelText(/^Name/);
  return dialog;
}

const choose = (dialog: HTMLElement, label: RegExp, option: string) => {
  const select = within(dialog).getByLabelText(label);
  fireEvent.change(select, { target: { value: within(select).getByRole('option', { name: option }).getAttribute('value') } });
};

describe('Horse Inventory screen', () => {
  it('shows the empty inventory', async () => {
    renderScreen();
    expect(screen.getByRole('heading', { name: 'Horse Inventory' })).toBeTruthy();
    expect(screen.getByText('Manage your horse database')).toBeTruthy();
    expect(await screen.findByText('No horses found')).toBeTruthy();
  });

  it('submitting the empty form shows the four required-field messages and creates nothing', async () => {
    renderScreen();
    const dialog = await openAddDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Horse' }));

    for (const message of ['Name is required', 'Breed is required', 'Color is required', 'Gender is required']) {
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    expect(within(dialog).getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
    expect(await data.db.horses.count()).toBe(0);
  });

  it('a filled form creates a horse that appears in the table', async () => {
    data.lookups.create('breeds', { name: 'Arabian' });
    data.lookups.create('colors', { name: 'Chestnut' });
    data.lookups.create('genders', { name: 'Mare' });
    data.lookups.create('statuses', { name: 'For Sale' });
    renderScreen();
    const dialog = await openAddDialog();
    await within(dialog).findByRole('option', { name: 'Arabian' });

    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Desert Rose' } });
    choose(dialog, /^Breed/, 'Arabian');
    choose(dialog, /^Color/, 'Chestnut');
    choose(dialog, /^Gender/, 'Mare');
    choose(dialog, /^Status/, 'For Sale');
    fireEvent.change(within(dialog).getByLabelText(/^Age/), { target: { value: '6' } });
    const price = within(dialog).getByLabelText(/^Price/) as HTMLInputElement;
    fireEvent.change(price, { target: { value: '18500.5' } });
    expect(price.value).toBe('$18,500.5');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Horse' }));

    expect(await screen.findByText('Horse created successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add New Horse' })).toBeNull());
    const row = (await screen.findByText('Desert Rose')).closest('tr');
    expect(row).not.toBeNull();
    const cells = within(row!).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual([expect.stringContaining('Chestnut'), 'Arabian', '6 years', 'Mare', 'For Sale', '$18,500.50', 'Ranch']);
  });

  it('search filters horses by name, ignoring case', async () => {
    const refs = {
      breedId: data.lookups.create('breeds', { name: 'Mustang' }),
      colorId: data.lookups.create('colors', { name: 'Gray' }),
      genderId: data.lookups.create('genders', { name: 'Stallion' }),
    };
    data.horses.create({ name: 'Silver Arrow', ...refs });
    data.horses.create({ name: 'Night Owl', ...refs });
    renderScreen();
    expect(await screen.findByText('Silver Arrow')).toBeTruthy();
    expect(screen.getAllByText('Unknown', { selector: 'td' })).toHaveLength(2);

    fireEvent.change(screen.getByPlaceholderText('Search horses...'), { target: { value: 'NIGHT' } });
    await waitFor(() => expect(screen.queryByText('Silver Arrow')).toBeNull());
    expect(screen.getByText('Night Owl')).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('Search horses...'), { target: { value: 'zebra' } });
    expect(await screen.findByText('No horses found')).toBeTruthy();
  });
});
