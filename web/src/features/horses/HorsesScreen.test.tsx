// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, rowOf, testUser } from '../../../test/render-screen.tsx';
import { MONEY_MESSAGES, newId, OBJECT_PATH_PREFIX } from '../../../../shared/index.ts';
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

const show = (role: 'Admin' | 'Viewer' = 'Admin') => renderScreen(<HorsesScreen />, { data, user: testUser(role) });

async function openAddDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add Horse' }));
  // The dialog's code is fetched with the tap: the first open in a file waits for its import.
  const dialog = await screen.findByRole('dialog', { name: 'Add New Horse' }, { timeout: 5000 });
  await within(dialog).findByLabelText(/^Name/);
  return dialog;
}

/** The horse form's choices beyond its first come a frame after it (HorseForm.tsx): found, not got. */
const choose = async (scope: HTMLElement, label: RegExp | string, option: string) => {
  const select = within(scope).getByLabelText(label);
  const choice = await within(select).findByRole('option', { name: option });
  fireEvent.change(select, { target: { value: choice.getAttribute('value') } });
};

function lookups() {
  return {
    breedId: data.lookups.create('breeds', { name: 'Arabian' }),
    colorId: data.lookups.create('colors', { name: 'Chestnut' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
  };
}

describe('Horse Inventory screen', () => {
  it('[H11] a ranch with no horse says to add the first one, and where empty lists come from', async () => {
    show();
    // The second sentence joins once the empty lookup lists have been read.
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Add your first horse with Add Horse. Breeds, colors and genders come from Administration: add them there first.',
      ),
    );
    let dialog = await openAddDialog();
    for (const label of ['Breeds', 'Colors', 'Genders'])
      expect(within(dialog).getByText(`${label} come from Administration.`)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    lookups();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Add your first horse with Add Horse.'));
    dialog = await openAddDialog();
    expect(within(dialog).queryByText(/come from Administration/)).toBeNull();
  });

  it('[H1] shows the empty inventory with its filters', async () => {
    show();
    expect(await screen.findByRole('heading', { name: 'Horse Inventory' })).toBeTruthy();
    expect(screen.getByText('Manage your horse database')).toBeTruthy();
    expect(await screen.findByText('No horses found')).toBeTruthy();
    for (const all of ['All Statuses', 'All Breeds', 'All Colors', 'All Genders', 'All Suppliers']) {
      expect(screen.getByRole('option', { name: all })).toBeTruthy();
    }
    expect(screen.getByPlaceholderText('Search horses...')).toBeTruthy();
  });

  it('[H5] submitting the empty form shows the four required-field messages and creates nothing', async () => {
    show();
    const dialog = await openAddDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Horse' }));
    for (const message of ['Name is required', 'Breed is required', 'Color is required', 'Gender is required']) {
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    expect(within(dialog).getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
    expect(await data.db.horses.count()).toBe(0);
  });

  it('[H7] [H3] a filled form (with a supplier) creates a horse that appears in the table', async () => {
    lookups();
    data.lookups.create('statuses', { name: 'For Sale' });
    const retired = data.lookups.create('breeds', { name: 'Retired Breed' });
    data.lookups.setActive('breeds', retired, false);
    data.owners.create({ firstName: 'Sam', lastName: 'Stone' });
    show();
    const dialog = await openAddDialog();
    await within(dialog).findByRole('option', { name: 'Sam Stone' });
    expect(within(dialog).queryByRole('option', { name: 'Retired Breed' })).toBeNull();
    expect(within(within(dialog).getByLabelText('Supplier')).getByRole('option', { name: 'Ranch' })).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Desert Rose' } });
    await choose(dialog, /^Breed/, 'Arabian');
    await choose(dialog, /^Color/, 'Chestnut');
    await choose(dialog, /^Gender/, 'Mare');
    await choose(dialog, /^Status/, 'For Sale');
    await choose(dialog, 'Supplier', 'Sam Stone');
    fireEvent.change(within(dialog).getByLabelText(/^Age/), { target: { value: '6' } });
    const price = within(dialog).getByLabelText(/^Price/) as HTMLInputElement;
    // [H6] [S14]: what is typed is kept, never rewritten; a refused amount is said and not recorded.
    fireEvent.change(price, { target: { value: '1e30' } });
    expect(price.value).toBe('1e30');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Horse' }));
    expect(await within(dialog).findByText(MONEY_MESSAGES.notAnAmount)).toBeTruthy();
    fireEvent.change(price, { target: { value: '18500.5' } });
    expect(price.value).toBe('18500.5');
    // Once the field is left it shows the amount as it will be stored.
    fireEvent.blur(price);
    await waitFor(() => expect(price.value).toBe('$18,500.50'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Horse' }));

    expect(await screen.findByText('Horse created successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add New Horse' })).toBeNull());
    const cells = within(await rowOf('Desert Rose'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 7)).toEqual([
      expect.stringContaining('Chestnut'),
      'Arabian',
      '6 years',
      'Mare',
      'For Sale',
      '$18,500.50',
      'Sam Stone',
    ]);
  });

  it('[H10] a future birth date is refused; with a birth date the age follows it and no age is stored', async () => {
    lookups();
    show();
    const dialog = await openAddDialog();
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Dusty' } });
    await choose(dialog, /^Breed/, 'Arabian');
    await choose(dialog, /^Color/, 'Chestnut');
    await choose(dialog, /^Gender/, 'Mare');
    fireEvent.change(within(dialog).getByLabelText(/^Age/), { target: { value: '15' } });
    fireEvent.change(within(dialog).getByLabelText(/^Birth Date/), { target: { value: '2030-01-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Horse' }));
    expect(await within(dialog).findByText('Birth date cannot be in the future')).toBeTruthy();
    expect(await data.db.horses.count()).toBe(0);

    const born = `${new Date().getFullYear() - 6}-01-01`;
    fireEvent.change(within(dialog).getByLabelText(/^Birth Date/), { target: { value: born } });
    const age = within(dialog).getByLabelText(/^Age/) as HTMLInputElement;
    await waitFor(() => expect(age.value).toBe('6'));
    expect(age.readOnly).toBe(true);
    expect(within(dialog).getByText('From the birth date')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Horse' }));
    expect(await screen.findByText('Horse created successfully')).toBeTruthy();
    const [horse] = await data.db.horses.toArray();
    expect(horse).toMatchObject({ birthdate: born, ageYears: null });
    expect(within(await rowOf('Dusty')).getAllByRole('cell')[2]!.textContent).toBe('6 years');
  });

  it('[H7] edits a horse in the Edit Horse dialog, keeping an inactive breed it already has', async () => {
    const refs = lookups();
    const id = data.horses.create({ name: 'Comet', ...refs, priceUsd: '9000' });
    data.lookups.setActive('breeds', refs.breedId, false);
    show();
    fireEvent.click(within(await rowOf('Comet')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Horse' });
    const name = (await within(dialog).findByLabelText(/^Name/)) as HTMLInputElement;
    expect(name.value).toBe('Comet');
    expect((within(dialog).getByLabelText(/^Breed/) as HTMLSelectElement).value).toBe(refs.breedId);
    expect((within(dialog).getByLabelText(/^Price/) as HTMLInputElement).value).toBe('$9,000');
    fireEvent.change(name, { target: { value: 'Comet II' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Horse' }));
    expect(await screen.findByText('Horse updated successfully')).toBeTruthy();
    await expect.poll(() => data.db.horses.get(id)).toMatchObject({ name: 'Comet II', breedId: refs.breedId, priceUsd: '9000.00' });
  });

  it("[H7] Edit Horse shows the horse's supplier from the start, among every supplier offered", async () => {
    const refs = lookups();
    const owners = Array.from({ length: 30 }, (_, i) => data.owners.create({ firstName: `Owner${i}`, lastName: 'Stone' }));
    const id = data.horses.create({ name: 'Comet', ...refs, ownerId: owners[17]! });
    show();
    fireEvent.click(within(await rowOf('Comet')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Horse' });
    await within(dialog).findByLabelText(/^Name/);
    const supplier = within(dialog).getByLabelText(/^Supplier/) as HTMLSelectElement;
    expect(supplier.value).toBe(owners[17]);
    // Thirty choices are made once the dialog shows, untouched (CHOICES_MADE_WHEN_TOUCHED).
    await waitFor(() => expect(within(supplier).getAllByRole('option')).toHaveLength(31)); // Ranch and the 30
    expect(supplier.selectedOptions[0]?.textContent).toBe('Owner17 Stone');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Horse' }));
    expect(await screen.findByText('Horse updated successfully')).toBeTruthy();
    await expect.poll(() => data.db.horses.get(id)).toMatchObject({ ownerId: owners[17] });
  });

  it('[H7] a long list of suppliers is offered in full as the Supplier select is touched or focused, its choice kept', async () => {
    const refs = lookups();
    data.lookups.create('breeds', { name: 'Barb' });
    const owners = Array.from({ length: 40 }, (_, i) => data.owners.create({ firstName: `Owner${i}`, lastName: 'Stone' }));
    data.horses.create({ name: 'Comet', ...refs, ownerId: owners[17]! });
    show();
    for (const open of [(select: HTMLElement) => fireEvent.pointerDown(select), (select: HTMLElement) => select.focus()]) {
      fireEvent.click(within(await rowOf('Comet')).getByRole('button', { name: 'Edit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Horse' });
      await within(dialog).findByRole('option', { name: 'Barb' }); // the lookups' choices are in: two frames have passed
      const supplier = within(dialog).getByLabelText(/^Supplier/) as HTMLSelectElement;
      expect(supplier.value).toBe(owners[17]);
      expect(within(supplier).getAllByRole('option')).toHaveLength(2); // Ranch and the horse's own
      open(supplier);
      // In the event itself, before the list opens: not in a later render.
      expect(within(supplier).getAllByRole('option')).toHaveLength(41);
      expect(supplier.selectedOptions[0]?.textContent).toBe('Owner17 Stone');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Horse' })).toBeNull());
    }
  });

  it('[I1] the photo in the Edit Horse form is named after the name as it is typed', async () => {
    const photoUrl = `${OBJECT_PATH_PREFIX}${newId()}`;
    data.horses.create({ name: 'Comet', ...lookups(), photoUrl });
    show();
    fireEvent.click(within(await rowOf('Comet')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Horse' });
    expect(within(dialog).getByRole('img', { name: 'Photo of Comet' }).getAttribute('src')).toBe(photoUrl);
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Comet II' } });
    expect((await within(dialog).findByRole('img', { name: 'Photo of Comet II' })).getAttribute('src')).toBe(photoUrl);
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: '' } });
    expect(await within(dialog).findByRole('img', { name: 'Photo of the horse' })).toBeTruthy();
  });

  it('[H8] [H9] deletes after the confirmation and shows details', async () => {
    data.horses.create({ name: 'Dusty', ...lookups(), notes: 'Loves apples' });
    show();
    fireEvent.click(within(await rowOf('Dusty')).getByRole('button', { name: 'View Details' }));
    const details = await screen.findByRole('dialog', { name: 'Horse Details' });
    expect(within(details).getByText('Loves apples')).toBeTruthy();
    expect(within(details).getByText('Ranch')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Close' }));

    fireEvent.click(within(await rowOf('Dusty')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want to delete this horse?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Horse deleted successfully')).toBeTruthy();
    expect(await screen.findByText('No horses found')).toBeTruthy();
  });

  it('[H2] search and filters narrow the list', async () => {
    const refs = lookups();
    const gray = data.lookups.create('colors', { name: 'Gray' });
    const owner = data.owners.create({ firstName: 'Sam', lastName: 'Stone' });
    data.horses.create({ name: 'Silver Arrow', ...refs, colorId: gray, ownerId: owner });
    data.horses.create({ name: 'Night Owl', ...refs });
    show();
    expect(await screen.findByText('Silver Arrow')).toBeTruthy();
    expect(screen.getAllByText('Unknown', { selector: 'td' })).toHaveLength(2);

    fireEvent.change(screen.getByPlaceholderText('Search horses...'), { target: { value: 'NIGHT' } });
    await waitFor(() => expect(screen.queryByText('Silver Arrow')).toBeNull());
    fireEvent.change(screen.getByPlaceholderText('Search horses...'), { target: { value: '' } });
    await screen.findByText('Silver Arrow');

    await choose(document.body, 'Filter by color', 'Gray');
    await waitFor(() => expect(screen.queryByText('Night Owl')).toBeNull());
    await choose(document.body, 'Filter by color', 'All Colors');
    await screen.findByText('Night Owl');
    await choose(document.body, 'Filter by supplier', 'Ranch');
    await waitFor(() => expect(screen.queryByText('Silver Arrow')).toBeNull());
    await choose(document.body, 'Filter by supplier', 'Sam Stone');
    await screen.findByText('Silver Arrow');
    expect(screen.queryByText('Night Owl')).toBeNull();

    const filter = screen.getByRole('button', { name: /^Filter/ });
    expect(filter.textContent).toBe('Filter1 in use'); // '1' shown, ' in use' for screen readers
    fireEvent.click(filter);
    expect(filter.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('combobox', { name: 'Filter by supplier' })).toBeNull();
    fireEvent.click(filter);
    expect(screen.getByRole('combobox', { name: 'Filter by supplier' })).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('Search horses...'), { target: { value: 'zebra' } });
    expect(await screen.findByText('No horses found')).toBeTruthy();
  });

  it('[H2] the search follows horses added, renamed and deleted', async () => {
    const refs = lookups();
    const star = data.horses.create({ name: 'Silver Star', ...refs });
    data.horses.create({ name: 'Night Owl', ...refs });
    show();
    await screen.findByText('Night Owl');
    fireEvent.change(screen.getByPlaceholderText('Search horses...'), { target: { value: 'sTa' } });
    await waitFor(() => expect(screen.queryByText('Night Owl')).toBeNull());
    expect(screen.getByText('Silver Star')).toBeTruthy();

    const dust = data.horses.create({ name: 'Stardust', ...refs });
    expect(await screen.findByText('Stardust')).toBeTruthy();
    data.horses.update(star, { name: 'Silver Moon', ...refs });
    await waitFor(() => expect(screen.queryByText('Silver Star')).toBeNull());
    expect(screen.queryByText('Silver Moon')).toBeNull();
    data.horses.remove(dust);
    expect(await screen.findByText('No horses found')).toBeTruthy();
  });

  it('[H1] a breed or supplier renamed shows its new name in the rows already listed', async () => {
    const refs = lookups();
    const sam = data.owners.create({ firstName: 'Sam', lastName: 'Stone' });
    data.horses.create({ name: 'Desert Rose', ...refs, ownerId: sam });
    show();
    // The row's Breed and Supplier cells.
    const names = async () => {
      const cells = within(await rowOf('Desert Rose')).getAllByRole('cell');
      return [cells[1]?.textContent, cells[6]?.textContent];
    };
    await waitFor(async () => expect(await names()).toEqual(['Arabian', 'Sam Stone']));

    // The list keeps the horses as read and each cell names what it shows (HorseTable.tsx):
    // new names make new columns, and the rows in view render again with them.
    data.lookups.rename('breeds', refs.breedId, { name: 'Arab' });
    data.owners.update(sam, { firstName: 'Samantha', lastName: 'Stone' });
    await waitFor(async () => expect(await names()).toEqual(['Arab', 'Samantha Stone']));
  });

  it('[R1] a Viewer sees the horses but no write actions', async () => {
    data.horses.create({ name: 'Comet', ...lookups() });
    show('Viewer');
    const row = await rowOf('Comet');
    expect(within(row).getByRole('button', { name: 'View Details' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Horse' })).toBeNull();
  });
});
