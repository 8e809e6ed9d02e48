// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { LEDGER_FLAGS, newId, type CompensationNotice } from '../../../../shared/index.ts';
import { addNoticeBatch } from '../../data/compensation-notices.ts';
import { tellRefused } from '../../data/ledger/refused-entries.ts';
import { DataProvider } from '../../data/context.tsx';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { NotificationsBell } from '../../ui/NotificationsBell.tsx';
import { ToastProvider } from '../../ui/Toast.tsx';
import { useNoticeToasts } from './use-notices.ts';

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

/** A horse, a buyer, a sale of the horse to the buyer and one payment, in the read model. */
async function seed() {
  const breedId = data.lookups.create('breeds', { name: 'Arabian' });
  const refs = {
    breedId,
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
  };
  const horseId = data.horses.create({ name: 'Thunder', ...refs, priceUsd: '8000' });
  const buyerId = data.buyers.create({ firstName: 'Ann', lastName: 'Lee' });
  const saleId = await data.writes.sales.create({ horseId, buyerId, salePrice: '8000', downPayment: '1000', termsMonths: 6 });
  const paymentId = await data.writes.payments.create({ saleId, amount: '500', date: '2026-01-15', method: 'Cash' });
  // Ledger entries: their rows are in the read model once the writes answer.
  expect(await data.db.payments.get(paymentId)).toBeDefined();
  return { breedId, horseId, saleId, paymentId };
}

function Shell() {
  useNoticeToasts();
  return <NotificationsBell userId="user-ann" />;
}

function renderShell() {
  render(
    <ToastProvider>
      <DataProvider data={data}>
        <Shell />
      </DataProvider>
    </ToastProvider>,
  );
}

const toastRegion = () => screen.getByRole('region', { name: 'Notifications (F8)' });
const receive = (notices: CompensationNotice[]) => act(() => addNoticeBatch(data.notices, notices));

describe('changes the server did not keep', () => {
  it('[O7] tells which record, which field, the value it was put back to, and why', async () => {
    const { horseId, saleId } = await seed();
    renderShell();
    receive([
      {
        collection: 'sales',
        id: saleId,
        action: 'reverted',
        fields: { salePrice: '8000.00', downPayment: '1000.00' },
        dropped: [],
        reason: 'A sale cannot be changed once recorded',
      },
    ]);
    const toast = await within(toastRegion()).findByRole('alert');
    expect(within(toast).getByText('Change not kept')).toBeTruthy();
    expect(
      await within(toast).findByText(
        'Sale of Thunder to Ann Lee: Sale Price was put back to $8,000, Down Payment to $1,000 — A sale cannot be changed once recorded',
      ),
    ).toBeTruthy();

    receive([
      {
        collection: 'horses',
        id: horseId,
        action: 'reverted',
        fields: { priceUsd: '8000.50', ownerId: null },
        dropped: ['notes', 'colour'],
        reason: 'priceUsd: Must be an amount in dollars; Fields it may not have were removed',
      },
    ]);
    expect(
      await within(toastRegion()).findByText(
        'Thunder: Price was put back to $8,000.50, Supplier to Ranch, Notes removed, fields it may not have removed — Price must be an amount in dollars; Fields it may not have were removed',
      ),
    ).toBeTruthy();
  });

  it('[K1] names a care entry the server put back by its kind and horse, found through its horse’s row', async () => {
    const { horseId } = await seed();
    const by = { userId: newId(), name: 'Ann Rider' };
    const [entryId] = data.careEntries.create({ horseIds: [horseId], kind: 'farrier', doneOn: '2026-01-10' }, by);
    await expect.poll(async () => (await data.db.horseCare.get(horseId))?.entries.length).toBe(1);
    renderShell();
    // Nothing about the entry in the notice: its horse comes from the document, its kind from the horse's row.
    receive([
      { collection: 'careEntries', id: entryId!, action: 'reverted', fields: {}, reason: 'It was deleted before this change reached it' },
    ]);
    expect(
      await within(toastRegion()).findByText('Farrier of Thunder: your change was put back — It was deleted before this change reached it'),
    ).toBeTruthy();
  });

  it('[O2] an edit made during a start that the document refused at its replay says so, by name', async () => {
    const { horseId } = await seed();
    renderShell();
    receive([
      { collection: 'horses', id: horseId, action: 'reverted', fields: {}, reason: 'it was deleted before this change reached it' },
      { collection: 'buyers', id: newId(), action: 'reverted', fields: {}, reason: 'it was deleted before this change reached it' },
    ]);
    const toast = await within(toastRegion()).findByRole('alert');
    expect(within(toast).getByText('2 changes not kept')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Notifications, unread' }));
    expect(await screen.findByText('Thunder: your change was put back — It was deleted before this change reached it')).toBeTruthy();
    expect(screen.getByText('A buyer: your change was put back — It was deleted before this change reached it')).toBeTruthy();
  });

  it('[O7] [G5] says what was not kept and what was brought back; several at once are summarised and listed under the bell', async () => {
    const { breedId, saleId, paymentId } = await seed();
    renderShell();
    const bell = screen.getByRole('button', { name: 'Notifications' });
    fireEvent.click(bell);
    expect(screen.getByText('No new notifications')).toBeTruthy();
    fireEvent.click(bell);
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();

    receive([
      { collection: 'horses', id: newId(), action: 'removed', fields: {}, reason: 'breedId: Breed is required' },
      {
        collection: 'payments',
        id: paymentId,
        action: 'restored',
        fields: {
          saleId,
          amount: '500.00',
          date: '2026-01-15',
          method: 'Cash',
          memo: null,
          installmentId: null,
          createdAt: '2026-01-15T10:00:00.000Z',
        },
        dropped: [],
        reason: 'A payment cannot be deleted',
      },
      {
        collection: 'breeds',
        id: breedId,
        action: 'restored',
        fields: { name: 'Arabian', isActive: true },
        dropped: [],
        reason: 'In use: 2 records refer to it',
      },
    ]);
    const toast = await within(toastRegion()).findByRole('alert');
    expect(within(toast).getByText('3 changes not kept')).toBeTruthy();
    expect(
      await within(toast).findByText(
        'The server put back changes to a horse, Payment of $500 (sale of Thunder to Ann Lee) and 1 more. The bell lists each one and why.',
      ),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Notifications, unread' }));
    const list = screen.getByRole('region', { name: 'Changes not kept' });
    const items = await within(list).findAllByRole('listitem');
    expect(items.map((item) => item.firstChild?.textContent)).toEqual([
      'A new horse was not kept — Breed is required',
      'Payment of $500 (sale of Thunder to Ann Lee) was brought back — A payment cannot be deleted',
      'Arabian was brought back — In use: 2 records refer to it',
    ]);
    expect(within(items[0]!).getByText('just now')).toBeTruthy();
  });

  it('[P13] [S19] an entry kept with a flag says so; one the server refused says why and stays under the bell until dismissed', async () => {
    const { paymentId } = await seed();
    renderShell();
    receive([{ collection: 'payments', id: paymentId, action: 'flagged', fields: {}, reason: LEDGER_FLAGS.saleCancelled } as never]);
    const toast = await within(toastRegion()).findByRole('alert');
    expect(within(toast).getByText('Recorded with a note')).toBeTruthy();
    expect(
      await within(toast).findByText(`Payment of $500 (sale of Thunder to Ann Lee) was recorded — ${LEDGER_FLAGS.saleCancelled}`),
    ).toBeTruthy();

    // The push marked the payment refused (ledger/push.ts); a start tells it again.
    const intent = (await data.db.outbox.toArray()).find((row) => row.creates[0] === paymentId)!;
    await data.db.outbox.update(intent.seq!, { refused: 'saleId: no such sale in the ledger' });
    await act(() => tellRefused(data.db, data.notices));
    fireEvent.click(screen.getByRole('button', { name: 'Notifications, unread' }));
    const list = await screen.findByRole('region', { name: 'Changes not kept' });
    const refused = await within(list).findByText(/^Payment of \$500 \(sale of Thunder to Ann Lee\) was not recorded — /);
    expect(refused.textContent).toContain('no such sale in the ledger');
    fireEvent.click(within(refused.closest('li')!).getByRole('button', { name: 'Dismiss' }));
    await expect.poll(() => data.db.outbox.get(intent.seq!)).toBeUndefined();
    await expect.poll(() => within(list).queryByText(/was not recorded/)).toBeNull();
    expect(within(list).getByText(/was recorded — /)).toBeTruthy();
  });
});
