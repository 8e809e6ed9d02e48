// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { renderScreen, testUser, useTestData } from '../../../test/render-screen.tsx';
import { AdminScreen } from './AdminScreen.tsx';

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
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Breed' })).toBeNull();
  });
});
