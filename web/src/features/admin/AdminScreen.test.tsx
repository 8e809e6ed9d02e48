// @vitest-environment jsdom
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LookupKind } from '../../../../shared/index.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { renderScreen, testUser, useTestData } from '../../../test/render-screen.tsx';
import { AdminScreen } from './AdminScreen.tsx';

/** Administration as its route shows it: the item opened is the address's (/admin/<kind>/<id>). */
function Linked({ kind, id }: { kind: string; id: string | null }) {
  const [item, setItem] = useState<{ kind: string | null; id: string | null }>({ kind, id });
  return (
    <AdminScreen
      link={{ ...item, open: (chosen: LookupKind, opened) => setItem(opened ? { kind: chosen, id: opened } : { kind: null, id: null }) }}
    />
  );
}

const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
const count = () => screen.getByTestId('list-count').textContent;

let data: RanchData;
useTestData((opened) => (data = opened));

const show = (role: 'Staff' | 'Viewer' = 'Staff') => renderScreen(<AdminScreen />, { data, user: testUser(role) });

const TABS = [
  ['Breeds', 'Horse Breeds', 'Add Breed', 'Add New Breed', 'Enter breed name', 'No breeds found', 'Breed created successfully'],
  ['Colors', 'Horse Colors', 'Add Color', 'Add New Color', 'Enter color name', 'No colors found', 'Color created successfully'],
  ['Genders', 'Horse Genders', 'Add Gender', 'Add New Gender', 'Enter gender name', 'No genders found', 'Gender created successfully'],
  ['Statuses', 'Horse Statuses', 'Add Status', 'Add New Status', 'Enter status name', 'No statuses found', 'Status created successfully'],
] as const;

describe('Administration screen', () => {
  it('[L1] shows its texts with Breeds selected first', async () => {
    show();
    expect(await screen.findByRole('heading', { name: 'Administration' })).toBeTruthy();
    expect(screen.getByText('Manage system configuration and dropdown lists')).toBeTruthy();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Breeds', 'Colors', 'Genders', 'Statuses']);
    expect(screen.getByRole('tab', { name: 'Breeds' }).getAttribute('aria-selected')).toBe('true');
  });

  it.each(TABS)(
    '[L2] [L3] [L4] [L5] %s: empty text, Add dialog with Save disabled while blank, create toast and Active pill',
    async (tab, card, add, title, placeholder, empty, toast) => {
      show();
      fireEvent.click(await screen.findByRole('tab', { name: tab }));
      expect(await screen.findByRole('heading', { name: card })).toBeTruthy();
      expect(await screen.findByText(empty)).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: add }));
      const dialog = await screen.findByRole('dialog', { name: title });
      const input = within(dialog).getByPlaceholderText(placeholder);
      const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
      expect(save.disabled).toBe(true);
      fireEvent.change(input, { target: { value: '   ' } });
      expect(save.disabled).toBe(true);
      fireEvent.change(input, { target: { value: ' New item ' } });
      expect(save.disabled).toBe(false);
      fireEvent.click(save);
      expect(await screen.findByText(toast)).toBeTruthy();
      const row = (await screen.findByText('New item')).closest('tr') as HTMLElement;
      expect(within(row).getByText('Active')).toBeTruthy();
    },
  );

  it('[L6] renames, deactivates and activates an item', async () => {
    data.lookups.create('breeds', { name: 'Arabian' });
    show();
    let row = (await screen.findByText('Arabian')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Breed' });
    fireEvent.change(within(dialog).getByPlaceholderText('Enter breed name'), { target: { value: 'Arab' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Breed updated successfully')).toBeTruthy();

    row = (await screen.findByText('Arab')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Breed deactivated successfully')).toBeTruthy();
    expect(await within(row).findByText('Inactive')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Activate' }));
    expect(await within(row).findByText('Active')).toBeTruthy();
  });

  it('arrow keys move between tabs', async () => {
    show();
    fireEvent.keyDown(await screen.findByRole('tab', { name: 'Breeds' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Colors' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement?.textContent).toBe('Colors');
  });

  it('[R1] [R6] a Viewer sees the lists but cannot change them', async () => {
    data.lookups.create('breeds', { name: 'Arabian' });
    show('Viewer');
    const row = (await screen.findByText('Arabian')).closest('tr') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['View Details']);
    expect(screen.queryByRole('button', { name: 'Add Breed' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Breed' });
    expect(within(dialog).getByText('Arabian')).toBeTruthy();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('[B6] [B7] a list searches by name, sorts in natural order by name or status, and counts', async () => {
    for (const name of ['Paint 10', 'Paint 2', 'Arabian']) data.lookups.create('breeds', { name });
    const old = data.lookups.create('breeds', { name: 'Paint 1' });
    data.lookups.setActive('breeds', old, false);
    show();
    await waitFor(() => expect(names()).toEqual(['Arabian', 'Paint 1', 'Paint 2', 'Paint 10']));
    expect(count()).toBe('4 breeds');
    fireEvent.change(screen.getByLabelText('Search breeds'), { target: { value: 'PAINT' } });
    expect(names()).toEqual(['Paint 1', 'Paint 2', 'Paint 10']);
    expect(count()).toBe('3 of 4 breeds');
    fireEvent.change(screen.getByLabelText('Search breeds'), { target: { value: 'nothing' } });
    expect(screen.getByText('No breeds found')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search breeds'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: /^Name/ }));
    expect(names()).toEqual(['Paint 10', 'Paint 2', 'Paint 1', 'Arabian']);
    fireEvent.click(screen.getByRole('button', { name: /^Status/ }));
    expect(names()).toEqual(['Arabian', 'Paint 2', 'Paint 10', 'Paint 1']);
    const choice = screen.getByLabelText('Sort by');
    fireEvent.change(choice, {
      target: { value: within(choice).getByRole('option', { name: 'Status (inactive first)' }).getAttribute('value') },
    });
    expect(names()).toEqual(['Paint 1', 'Arabian', 'Paint 2', 'Paint 10']);
  });

  it('[B10] an item’s link opens its tab and its Edit dialog; closing keeps the tab; Edit on a row opens the link', async () => {
    const bay = data.lookups.create('colors', { name: 'Bay' });
    data.lookups.create('colors', { name: 'Dun' });
    renderScreen(<Linked kind="colors" id={bay} />, { data, user: testUser('Staff') });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Color' });
    expect((within(dialog).getByPlaceholderText('Enter color name') as HTMLInputElement).value).toBe('Bay');
    expect(screen.getByRole('tab', { name: 'Colors' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Color' })).toBeNull());
    expect(screen.getByRole('tab', { name: 'Colors' }).getAttribute('aria-selected')).toBe('true');
    const row = screen.getByText('Dun').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const again = await screen.findByRole('dialog', { name: 'Edit Color' });
    expect((within(again).getByPlaceholderText('Enter color name') as HTMLInputElement).value).toBe('Dun');
  });

  it('[B10] a link to an item this device does not have says so, and Show all goes back to the list', async () => {
    renderScreen(<Linked kind="statuses" id="gone" />, { data, user: testUser('Staff') });
    await screen.findByText(/This status is not on this device/);
    expect(screen.getByRole('tab', { name: 'Statuses' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(screen.queryByText(/not on this device/)).toBeNull());
  });
});
