// @vitest-environment jsdom
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../data/ranch-data.ts';
import { renderScreen, testUser, useTestData } from '../../test/render-screen.tsx';
import { BuyersScreen } from '../features/buyers/BuyersScreen.tsx';
import { CareTimeline } from '../features/care/CareTimeline.tsx';
import { HorsesScreen } from '../features/horses/HorsesScreen.tsx';
import { SalesScreen } from '../features/sales/SalesScreen.tsx';
import { SuppliersScreen } from '../features/suppliers/SuppliersScreen.tsx';

let data: RanchData;
useTestData((opened) => (data = opened));

/** The first cell's text of each row the table lists, top to bottom. */
const firstCells = (table: string) =>
  within(screen.getByRole('table', { name: table }))
    .queryAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryAllByRole('cell')[0]?.textContent ?? '');

const count = () => screen.getByTestId('list-count').textContent;
const search = (noun: string, text: string) => fireEvent.change(screen.getByLabelText(`Search ${noun}`), { target: { value: text } });
const sortBy = (header: string) => fireEvent.click(screen.getByRole('button', { name: new RegExp(`^${header}`) }));
const choose = (label: string, option: string) => {
  const select = screen.getByLabelText(label);
  fireEvent.change(select, { target: { value: within(select).getByRole('option', { name: option }).getAttribute('value') } });
};

function refs() {
  return {
    breedId: data.lookups.create('breeds', { name: 'Arabian' }),
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
  };
}

// A list's first render loads the screen's modules: slow on a busy machine.
describe('[B6] [B7] finding things in every list', { timeout: 20_000 }, () => {
  it('Suppliers: searches name, phone and e-mail, counts, and sorts by any column', async () => {
    for (const [firstName, phone, email] of [
      ['Horse 10', '555-0110', 'ten@ranch.test'],
      ['Horse 2', '555-0102', 'two@ranch.test'],
      ['Horse 1', '555-0101', null],
    ] as const)
      data.owners.create({ firstName, lastName: 'Co', phone, email });
    const owner = data.owners.create({ firstName: 'Ann', lastName: 'Lee' });
    const r = refs();
    data.horses.create({ name: 'A', ...r, ownerId: owner, priceUsd: '100' });
    data.horses.create({ name: 'B', ...r, ownerId: owner });
    renderScreen(<SuppliersScreen />, { data, user: testUser('Staff') });
    await waitFor(() => expect(firstCells('Suppliers')).toEqual(['Ann Lee', 'Horse 1 Co', 'Horse 2 Co', 'Horse 10 Co']), { timeout: 5000 });
    expect(count()).toBe('4 suppliers');
    expect(screen.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('ascending');

    search('suppliers', '0102');
    expect(firstCells('Suppliers')).toEqual(['Horse 2 Co']);
    expect(count()).toBe('1 of 4 suppliers');
    search('suppliers', 'TEN@');
    expect(firstCells('Suppliers')).toEqual(['Horse 10 Co']);
    search('suppliers', 'nobody');
    expect(screen.getByText('No suppliers found')).toBeTruthy();
    expect(count()).toBe('0 of 4 suppliers');
    search('suppliers', '');

    sortBy('Name');
    expect(firstCells('Suppliers')).toEqual(['Horse 10 Co', 'Horse 2 Co', 'Horse 1 Co', 'Ann Lee']);
    expect(screen.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('descending');
    sortBy('Total Horses');
    expect(firstCells('Suppliers')).toEqual(['Horse 1 Co', 'Horse 2 Co', 'Horse 10 Co', 'Ann Lee']);
    sortBy('Total Horses');
    expect(firstCells('Suppliers')).toEqual(['Ann Lee', 'Horse 1 Co', 'Horse 2 Co', 'Horse 10 Co']);
    // The phone's choice orders the same list: by e-mail, those without one last (by name among themselves).
    choose('Sort by', 'Email (A–Z)');
    expect(firstCells('Suppliers')).toEqual(['Horse 10 Co', 'Horse 2 Co', 'Ann Lee', 'Horse 1 Co']);
  });

  it('Buyers: search narrows by name and phone; the count follows', async () => {
    for (const [firstName, lastName, phone] of [
      ['Jake', 'Turner 10', '555-0199'],
      ['Jake', 'Turner 9', null],
      ['Mia', 'Stone', '555-0042'],
    ] as const)
      data.buyers.create({ firstName, lastName, phone });
    renderScreen(<BuyersScreen />, { data, user: testUser('Staff') });
    await waitFor(() => expect(firstCells('All Buyers')).toEqual(['Jake Turner 9', 'Jake Turner 10', 'Mia Stone']), { timeout: 5000 });
    expect(count()).toBe('3 buyers');
    search('buyers', 'jake');
    expect(firstCells('All Buyers')).toEqual(['Jake Turner 9', 'Jake Turner 10']);
    expect(count()).toBe('2 of 3 buyers');
    search('buyers', '0042');
    expect(firstCells('All Buyers')).toEqual(['Mia Stone']);
    search('buyers', '');
    sortBy('Name');
    expect(firstCells('All Buyers')).toEqual(['Mia Stone', 'Jake Turner 10', 'Jake Turner 9']);
  });

  it('Sales and Payments: search by horse or buyer, sort by price or amount, each tab counted', async () => {
    const r = refs();
    const statusId = data.lookups.create('statuses', { name: 'For Sale' });
    const bo = data.buyers.create({ firstName: 'Bo', lastName: 'Buyer' });
    const cy = data.buyers.create({ firstName: 'Cy', lastName: 'Cash' });
    const sale = async (name: string, buyerId: string, salePrice: string) =>
      data.writes.sales.create({
        horseId: data.horses.create({ name, ...r, statusId }),
        buyerId,
        salePrice,
        downPayment: '0',
        termsMonths: 3,
      });
    const s10 = await sale('Star 10', bo, '900');
    const s2 = await sale('Star 2', cy, '12000');
    await sale('Dusty', bo, '5000');
    await data.writes.payments.create({ saleId: s10, amount: '300', date: '2026-02-01', method: 'Check', memo: 'first' });
    await data.writes.payments.create({ saleId: s2, amount: '4000', date: '2026-01-15', method: 'Card' });
    renderScreen(<SalesScreen />, { data, user: testUser('Staff') });
    await waitFor(() => expect(count()).toBe('3 sales'), { timeout: 5000 });
    search('sales', 'cy cash');
    expect(firstCells('Sales')).toEqual(['Star 2']);
    expect(count()).toBe('1 of 3 sales');
    search('sales', 'star');
    sortBy('Horse');
    expect(firstCells('Sales')).toEqual(['Star 2', 'Star 10']);
    search('sales', '');
    sortBy('Sale Price');
    expect(firstCells('Sales')).toEqual(['Star 10', 'Dusty', 'Star 2']);
    sortBy('Sale Price');
    expect(firstCells('Sales')).toEqual(['Star 2', 'Dusty', 'Star 10']);

    fireEvent.click(screen.getByRole('tab', { name: 'Payments' }));
    await waitFor(() => expect(count()).toBe('2 payments'));
    // Most recent first until another order is chosen.
    expect(firstCells('Payments')).toEqual(['Star 10', 'Star 2']);
    sortBy('Amount');
    expect(firstCells('Payments')).toEqual(['Star 10', 'Star 2']);
    sortBy('Amount');
    expect(firstCells('Payments')).toEqual(['Star 2', 'Star 10']);
    search('payments', 'FIRST');
    expect(firstCells('Payments')).toEqual(['Star 10']);
    expect(count()).toBe('1 of 2 payments');
    search('payments', 'bo buyer');
    expect(firstCells('Payments')).toEqual(['Star 10']);
  });

  it('Horses: natural order by name, sorting by a column, and the count with a search', async () => {
    const r = refs();
    const other = { ...r, breedId: data.lookups.create('breeds', { name: 'Mustang' }) };
    data.horses.create({ name: 'Horse 10', ...r, priceUsd: '500' });
    data.horses.create({ name: 'Horse 2', ...other, priceUsd: '9000' });
    data.horses.create({ name: 'Horse 1', ...other });
    data.horses.create({ name: 'Apollo', ...r, priceUsd: '700' });
    renderScreen(<HorsesScreen />, { data, user: testUser('Staff') });
    const names = () => firstCells('Horses').map((cell) => cell.replace(/(Bay)$/, ''));
    await waitFor(() => expect(names()).toEqual(['Apollo', 'Horse 1', 'Horse 2', 'Horse 10']), { timeout: 5000 });
    expect(count()).toBe('4 horses');
    fireEvent.change(screen.getByLabelText('Search horses'), { target: { value: 'horse' } });
    expect(names()).toEqual(['Horse 1', 'Horse 2', 'Horse 10']);
    expect(count()).toBe('3 of 4 horses');
    sortBy('Price');
    // Horse 1 has no price: last either way.
    expect(names()).toEqual(['Horse 10', 'Horse 2', 'Horse 1']);
    sortBy('Price');
    expect(names()).toEqual(['Horse 2', 'Horse 10', 'Horse 1']);
    fireEvent.change(screen.getByLabelText('Search horses'), { target: { value: '' } });
    // Horses of one breed by name among themselves.
    choose('Sort by', 'Breed (Z–A)');
    expect(names()).toEqual(['Horse 1', 'Horse 2', 'Apollo', 'Horse 10']);
    expect(count()).toBe('4 horses');
  });
});

describe('[B6] a horse’s care', { timeout: 20_000 }, () => {
  it('searches by care, notes or who recorded it, counts, and orders by any of its dates or the care', async () => {
    const horse = data.horses.create({ name: 'Dusty', ...refs() });
    const by = (name: string) => ({ userId: crypto.randomUUID(), name });
    data.careEntries.create({ horseIds: [horse], kind: 'farrier', doneOn: '2025-03-01', notes: 'Front shoes' }, by('Fay Farrier'));
    data.careEntries.create({ horseIds: [horse], kind: 'coggins', doneOn: '2025-06-01', nextDueOn: '2026-06-01' }, by('Val Vet'));
    data.careEntries.create({ horseIds: [horse], kind: 'dental', doneOn: '2024-11-20', nextDueOn: '2025-11-20' }, by('Val Vet'));
    renderScreen(<CareTimeline horseId={horse} />, { data, user: testUser('Staff') });
    // The care's name; the notes are under it.
    const kinds = () =>
      within(screen.getByRole('table', { name: 'Care timeline' }))
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('td .font-medium')?.textContent);
    await waitFor(() => expect(count()).toBe('3 care entries'), { timeout: 5000 });
    expect(kinds()).toEqual(['Coggins test', 'Farrier', 'Dental']);
    search('care entries', 'val vet');
    expect(count()).toBe('2 of 3 care entries');
    expect(kinds()).toEqual(['Coggins test', 'Dental']);
    search('care entries', 'shoes');
    expect(kinds()).toEqual(['Farrier']);
    search('care entries', '');
    choose('Sort by', 'Next Due (oldest first)');
    expect(kinds()).toEqual(['Dental', 'Coggins test', 'Farrier']);
    // At a desk the headers sort too: the care's name in natural order.
    sortBy('Care');
    expect(kinds()).toEqual(['Coggins test', 'Dental', 'Farrier']);
  });
});

/** The Suppliers screen as its route shows it: the record opened is the address's. */
function Linked({ opened }: { opened: string | null }) {
  const [id, open] = useState(opened);
  return <SuppliersScreen link={{ id, open }} />;
}

describe('[B10] [B11] a record’s details', () => {
  it('Buyers: Edit in the details opens the form over them, and the details show the change', async () => {
    data.buyers.create({ firstName: 'Jake', lastName: 'Turner' });
    renderScreen(<BuyersScreen />, { data, user: testUser('Staff') });
    await waitFor(() => expect(firstCells('All Buyers')).toEqual(['Jake Turner']), { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'View Details' }));
    const details = await screen.findByRole('dialog', { name: 'Buyer Details' });
    fireEvent.click(within(details).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('dialog', { name: 'Edit Buyer' });
    fireEvent.change(within(form).getByLabelText(/^Last Name/), { target: { value: 'Turner 2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Update Buyer' }));
    await waitFor(() => expect(within(details).getByText('Jake Turner 2')).toBeTruthy());
  });

  it('a link opens the record’s details, a Viewer’s with no Edit', async () => {
    const id = data.owners.create({ firstName: 'Hank', lastName: 'Miller' });
    renderScreen(<Linked opened={id} />, { data, user: testUser('Viewer') });
    const details = await screen.findByRole('dialog', { name: 'Supplier Details' }, { timeout: 5000 });
    expect(within(details).getAllByText('Hank Miller').length).toBeGreaterThan(0);
    expect(within(details).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('a link to a record that is not on the device says so, and Show all goes back to the list', async () => {
    data.owners.create({ firstName: 'Hank', lastName: 'Miller' });
    renderScreen(<Linked opened="gone" />, { data, user: testUser('Staff') });
    await screen.findByText(/This supplier is not on this device/, undefined, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(screen.queryByText(/This supplier is not on this device/)).toBeNull());
  });
});
