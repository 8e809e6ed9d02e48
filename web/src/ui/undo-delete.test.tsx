// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../data/ranch-data.ts';
import { renderScreen, testUser, useTestData } from '../../test/render-screen.tsx';
import { BuyersScreen } from '../features/buyers/BuyersScreen.tsx';
import { HorsesScreen } from '../features/horses/HorsesScreen.tsx';
import { SuppliersScreen } from '../features/suppliers/SuppliersScreen.tsx';

let data: RanchData;
useTestData((opened) => (data = opened));

const VET = crypto.randomUUID();
/** Waits long enough for a busy machine: the delete and the restore go through the outbox. */
const SLOW = { timeout: 5000 };
const slowRow = async (name: string) => (await screen.findByText(name, undefined, SLOW)).closest('tr') as HTMLElement;
const undo = async () => fireEvent.click(await screen.findByRole('button', { name: 'Undo' }, SLOW));

// A list's first render loads the screen's modules: slow on a busy machine.
describe('[B12] Undo after a delete', { timeout: 20_000 }, () => {
  it('brings a horse back with its fields and care records', async () => {
    const refs = {
      breedId: data.lookups.create('breeds', { name: 'Arabian' }),
      colorId: data.lookups.create('colors', { name: 'Bay' }),
      genderId: data.lookups.create('genders', { name: 'Mare' }),
    };
    const id = data.horses.create({ name: 'Dusty', ...refs, priceUsd: '7800', notes: 'Loves apples' });
    data.careEntries.create(
      { horseIds: [id], kind: 'coggins', doneOn: '2025-04-01', nextDueOn: '2026-04-01', notes: 'Negative' },
      { userId: VET, name: 'Val Vet' },
    );
    renderScreen(<HorsesScreen />, { data, user: testUser('Staff') });
    fireEvent.click(within(await slowRow('Dusty')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want to delete this horse?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Horse deleted successfully', undefined, SLOW)).toBeTruthy();
    await screen.findByText('No horses found', undefined, SLOW);
    await waitFor(async () => expect(await data.db.horseCare.get(id)).toBeUndefined(), SLOW);

    await undo();
    expect(await screen.findByText('Horse restored', undefined, SLOW)).toBeTruthy();
    await screen.findByText('Dusty', undefined, SLOW);
    const [horse] = await data.db.horses.where('name').equals('Dusty').toArray();
    expect(horse).toMatchObject({ name: 'Dusty', priceUsd: '7800.00', notes: 'Loves apples', ...refs });
    await waitFor(
      async () =>
        expect((await data.db.horseCare.get(horse!.id))?.entries).toMatchObject([
          { kind: 'coggins', doneOn: '2025-04-01', notes: 'Negative', recordedBy: VET, recordedByName: 'Val Vet' },
        ]),
      SLOW,
    );
  });

  it('brings a supplier and a buyer back with their fields', async () => {
    data.owners.create({ firstName: 'Hank', lastName: 'Miller', phone: '(555) 201-3344' });
    data.buyers.create({ firstName: 'Jake', lastName: 'Turner', email: 'jake@ranch.test' });
    const suppliers = renderScreen(<SuppliersScreen />, { data, user: testUser('Staff') });
    fireEvent.click(within(await slowRow('Hank Miller')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want to delete this supplier?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('No suppliers found', undefined, SLOW);
    await undo();
    await screen.findByText('Hank Miller', undefined, SLOW);
    expect(await data.db.owners.toArray()).toMatchObject([{ firstName: 'Hank', lastName: 'Miller', phone: '(555) 201-3344' }]);
    suppliers.unmount();

    renderScreen(<BuyersScreen />, { data, user: testUser('Staff') });
    fireEvent.click(within(await slowRow('Jake Turner')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('No buyers found', undefined, SLOW);
    await undo();
    expect(await screen.findByText('Buyer restored', undefined, SLOW)).toBeTruthy();
    await screen.findByText('Jake Turner', undefined, SLOW);
    expect(await data.db.buyers.toArray()).toMatchObject([{ firstName: 'Jake', lastName: 'Turner', email: 'jake@ranch.test' }]);
  });
});
