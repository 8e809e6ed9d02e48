// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { addDays } from '../../../../shared/index.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { flattenCare } from '../../data/horse-care-row.ts';
import { localToday } from '../../lib/local-today.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { inRouter, renderScreen, rowOf, testUser } from '../../../test/render-screen.tsx';
import { NotificationsBell } from '../../ui/NotificationsBell.tsx';
import { DashboardScreen } from '../dashboard/DashboardScreen.tsx';
import { HorsesScreen } from '../horses/HorsesScreen.tsx';
import { CareTimeline } from './CareTimeline.tsx';

/** A horse's care as its route shows it: the entry opened is the address's (/horses/<id>/care/<entry>). */
function LinkedCare({ horseId, opened }: { horseId: string; opened: string }) {
  const [id, open] = useState<string | null>(opened);
  return <CareTimeline horseId={horseId} horseName="Dusty" link={{ id, open }} />;
}

let data: RanchData;
const USER = testUser('Staff', { id: '0190a0a0-0000-7000-8000-0000000000ee' });
const BY = { userId: USER.id, name: 'Ada Rider' };

beforeEach(async () => {
  localStorage.clear();
  data = openTestData();
  await data.projection.ready;
});
afterEach(async () => {
  cleanup();
  await data.persistence.clearData();
  await data.destroy();
});

function horses(...names: string[]): string[] {
  const refs = {
    breedId: data.lookups.create('breeds', { name: 'Arabian' }),
    colorId: data.lookups.create('colors', { name: 'Chestnut' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
  };
  return names.map((name) => data.horses.create({ name, ...refs }));
}

const choose = (scope: HTMLElement, label: RegExp, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

describe('care records', () => {
  it('[K2] Record Care ticks several horses (the search finds them) and records one entry each', async () => {
    const [dusty, star] = horses('Dusty', 'Star', 'Goliath');
    renderScreen(<HorsesScreen />, { data, user: USER });
    fireEvent.click(await screen.findByRole('button', { name: 'Record Care' }));
    // The dialog's code is loaded on the first open: slow on a busy machine.
    const dialog = await screen.findByRole('dialog', { name: 'Record Care' }, { timeout: 5000 });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Record Care' }));
    expect(await within(dialog).findByText('Choose at least one horse')).toBeTruthy();
    expect(within(dialog).getByText('Care type is required')).toBeTruthy();

    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Dusty' }));
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search horses' }), { target: { value: 'sta' } });
    expect(within(dialog).queryByRole('checkbox', { name: 'Goliath' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Star' }));
    expect(within(dialog).getByText('2 horses chosen')).toBeTruthy();
    choose(dialog, /^Care/, 'farrier');
    choose(dialog, /^Next Due/, addDays(localToday(), 42));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record Care' }));
    expect(await screen.findByText('Care recorded for 2 horses')).toBeTruthy();
    const entries = async () => flattenCare(await data.db.horseCare.toArray());
    await expect.poll(async () => (await entries()).map((entry) => entry.horseId).sort()).toEqual([dusty, star].sort());
    expect((await entries())[0]).toMatchObject({
      kind: 'farrier',
      doneOn: localToday(),
      recordedBy: USER.id,
      recordedByName: 'Ada Rider',
    });
  });

  it('[K3] the horse details show its care timeline, newest first, with who recorded it; a Viewer cannot record', async () => {
    const [dusty] = horses('Dusty');
    data.careEntries.create({ horseIds: [dusty!], kind: 'coggins', doneOn: '2025-04-01', nextDueOn: '2026-04-01', notes: 'Negative' }, BY);
    data.careEntries.create({ horseIds: [dusty!], kind: 'dental', doneOn: '2025-09-10' }, BY);
    renderScreen(<HorsesScreen />, { data, user: testUser('Viewer') });
    fireEvent.click(within(await rowOf('Dusty')).getByRole('button', { name: 'View Details' }));
    const details = await screen.findByRole('dialog', { name: 'Horse Details' });
    const timeline = await within(details).findByRole('table', { name: 'Care timeline' });
    const items = within(timeline).getAllByRole('row').slice(1);
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Dental'),
      expect.stringMatching(/Coggins test.*Negative/),
    ]);
    expect(within(details).queryByRole('button', { name: 'Record Care' })).toBeNull();
    // [K8] A row opens the entry's details: every field, and no Edit for a Viewer.
    expect(within(items[1]!).queryByRole('button', { name: 'Edit' })).toBeNull();
    fireEvent.click(within(items[1]!).getByRole('button', { name: 'View Details' }));
    const entry = await screen.findByRole('dialog', { name: 'Care Details' });
    expect(within(entry).getByText('Coggins test')).toBeTruthy();
    expect(within(entry).getByText('Negative')).toBeTruthy();
    expect(within(entry).getByText('Ada Rider')).toBeTruthy();
    expect(within(entry).getByText('Dusty')).toBeTruthy();
    expect(within(entry).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('[K8] Staff correct an entry from its details, which show the change; a link opens them, or says the entry is gone', async () => {
    const [dusty] = horses('Dusty');
    const [id] = data.careEntries.create({ horseIds: [dusty!], kind: 'farrier', doneOn: '2025-09-10', notes: 'Reset' }, BY);
    renderScreen(<LinkedCare horseId={dusty!} opened={id!} />, { data, user: USER });
    const entry = await screen.findByRole('dialog', { name: 'Care Details' });
    expect(within(entry).getByText('Reset')).toBeTruthy();
    fireEvent.click(within(entry).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('dialog', { name: 'Edit Care' });
    expect((within(form).getByLabelText(/^Care/) as HTMLSelectElement).value).toBe('farrier');
    choose(form, /^Next Due/, '2025-01-01');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Next due date cannot be before the date done')).toBeTruthy();
    choose(form, /^Next Due/, '2025-11-05');
    choose(form, /^Notes/, 'Reset, front pads');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Care entry updated')).toBeTruthy();
    expect(await within(entry).findByText('Reset, front pads')).toBeTruthy();
    expect(within(entry).getByText(new Date('2025-11-05T12:00:00').toLocaleDateString())).toBeTruthy();
    cleanup();

    renderScreen(<LinkedCare horseId={dusty!} opened="gone" />, { data, user: USER });
    await screen.findByText(/This care entry is not on this device/);
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    await expect.poll(() => screen.queryByText(/not on this device/)).toBeNull();
  });

  it('[K4] the bell lists an overdue Coggins test and an installment past due, opens the horse, and the dot means something new is due', async () => {
    const [dusty, star] = horses('Dusty', 'Star');
    const today = localToday();
    data.careEntries.create({ horseIds: [dusty!], kind: 'coggins', doneOn: addDays(today, -400), nextDueOn: addDays(today, -35) }, BY);
    const buyerId = data.buyers.create({ firstName: 'Bea', lastName: 'Buyer' });
    await data.writes.sales.create({
      horseId: star!,
      buyerId,
      salePrice: '1200',
      downPayment: '0',
      termsMonths: 12,
      scheduleStartDate: addDays(today, -70),
    });
    renderScreen(<NotificationsBell userId={USER.id} />, { data, user: USER });

    const bell = await screen.findByRole('button', { name: 'Notifications, unread' });
    fireEvent.click(bell);
    const due = await screen.findByRole('list', { name: 'Due' });
    await within(due).findByText('Coggins test overdue: Dusty');
    expect(within(due).getByText('Installment past due: Star')).toBeTruthy();
    expect(within(due).getByText(/^\$300 from Bea Buyer, due since/)).toBeTruthy();
    expect(screen.queryByText('No new notifications')).toBeNull();

    fireEvent.click(within(due).getByText('Coggins test overdue: Dusty'));
    const details = await screen.findByRole('dialog', { name: 'Horse Details' });
    expect(within(details).getByText('Dusty')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();

    // Recorded: the Coggins test clears; nothing new, no dot.
    data.careEntries.create({ horseIds: [dusty!], kind: 'coggins', doneOn: today, nextDueOn: addDays(today, 365) }, BY);
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    await expect.poll(() => screen.queryByText('Coggins test overdue: Dusty'), { timeout: 3000 }).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    // Something newly due brings the dot back.
    data.careEntries.create({ horseIds: [star!], kind: 'farrier', doneOn: addDays(today, -50), nextDueOn: addDays(today, 5) }, BY);
    expect(await screen.findByRole('button', { name: 'Notifications, unread' }, { timeout: 3000 })).toBeTruthy();
  });
});

describe('correcting the timeline', () => {
  it('[K3] Staff delete an entry recorded by mistake, after a confirmation', async () => {
    const [dusty] = horses('Dusty');
    data.careEntries.create({ horseIds: [dusty!], kind: 'dental', doneOn: '2025-09-10' }, BY);
    renderScreen(<HorsesScreen />, { data, user: USER });
    fireEvent.click(within(await rowOf('Dusty')).getByRole('button', { name: 'View Details' }));
    const details = await screen.findByRole('dialog', { name: 'Horse Details' });
    const timeline = await within(details).findByRole('table', { name: 'Care timeline' });
    fireEvent.click(within(timeline).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this care entry?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Care entry deleted')).toBeTruthy();
    expect(await within(details).findByText('No care recorded yet')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Horse Details' })).toBeTruthy();
  });
});

describe('Dashboard', () => {
  it('[K4] the Due soon card lists what is due, or says nothing is', async () => {
    const [star] = horses('Star');
    renderScreen(inRouter(<DashboardScreen />), { data, user: USER });
    const card = await screen.findByRole('region', { name: 'Due soon' });
    expect(await within(card).findByText('Nothing due in the next 14 days')).toBeTruthy();
    const today = localToday();
    data.careEntries.create({ horseIds: [star!], kind: 'farrier', doneOn: addDays(today, -50), nextDueOn: addDays(today, 5) }, BY);
    expect(await within(card).findByText('Farrier due: Star', {}, { timeout: 3000 })).toBeTruthy();
  });
});
