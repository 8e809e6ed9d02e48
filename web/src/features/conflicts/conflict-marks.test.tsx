// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Conflict } from '../../../../shared/index.ts';
import { collectionMap } from '../../../../shared/index.ts';
import { fetchConflicts, markAnswered } from '../../data/conflict-cache.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { ALICE, priceConflictOn } from '../../../test/conflicts.ts';
import { applyFromOtherDevice, closeTestData, openTestData } from '../../../test/ranch-data.ts';
import { inRouter, renderScreen, testUser } from '../../../test/render-screen.tsx';
import { NotificationsBell } from '../../ui/NotificationsBell.tsx';
import { LookupTab } from '../admin/LookupTab.tsx';
import { BuyersScreen } from '../buyers/BuyersScreen.tsx';
import { CareTimeline } from '../care/CareTimeline.tsx';
import { HorsesScreen } from '../horses/HorsesScreen.tsx';
import { SuppliersScreen } from '../suppliers/SuppliersScreen.tsx';

let data: RanchData;
let horseId: string;
let breedId: string;
const fetchMock = vi.fn<typeof fetch>();
/** The open conflicts the server lists. */
let served: Conflict[];

const conflictOf = (patch: Partial<Conflict>): Conflict => priceConflictOn(horseId, patch);

beforeEach(async () => {
  served = [];
  fetchMock.mockImplementation(async (input) => {
    const path = String(input);
    if (path === '/api/conflicts') return Response.json({ conflicts: served });
    if (path.startsWith('/api/history/')) return Response.json({ changes: [], nextBefore: null });
    return Response.json({ message: 'No such route' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  data = openTestData();
  await data.projection.ready;
  breedId = data.lookups.create('breeds', { name: 'Arabian' });
  const horse = {
    breedId,
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
  };
  horseId = data.horses.create({ name: 'Dusty', ...horse, priceUsd: '9200' });
  data.horses.create({ name: 'Blaze', ...horse, priceUsd: '4000' });
  await data.projection.idle();
});

afterEach(async () => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  await closeTestData(data);
});

/** The desk table's row holding `name`, once listed; the first read of a screen may be slow on a busy machine. */
const findRow = async (name: string) => (await screen.findByText(name, {}, { timeout: 5000 })).closest('tr') as HTMLElement;
const rowOf = (name: string) => screen.getByText(name, { selector: 'tr *' }).closest('tr') as HTMLElement;

const serve = async (...conflicts: Conflict[]) => {
  served = conflicts;
  expect(await fetchConflicts(data.db)).toBe('fetched');
};

describe('[T8] an open conflict marks its record where it is listed', () => {
  it('the horse’s row says which field, the others say nothing, and the mark goes once answered', async () => {
    await serve(conflictOf({}), conflictOf({ id: '8', field: 'breedId', money: false }));
    renderScreen(<HorsesScreen />, { data, user: testUser('Staff') });
    const dusty = await findRow('Dusty');
    expect((await within(dusty).findByText('Conflict: Price, Breed')).closest('[title]')?.getAttribute('title')).toBe(
      'Conflict: Price, Breed',
    );
    expect(within(await findRow('Blaze')).queryByText(/^Conflict/)).toBeNull();

    // Answered here: hidden at once; closed by the server: gone for good.
    await markAnswered(data.db, '8');
    await within(dusty).findByText('Conflict: Price');
    await serve();
    await waitFor(() => expect(within(dusty).queryByText(/^Conflict/)).toBeNull());
  });

  it('a supplier’s, a buyer’s, a list item’s and a care entry’s rows carry it too', async () => {
    const owner = data.owners.create({ firstName: 'Sam', lastName: 'Hill', phone: '555 0100' });
    const buyer = data.buyers.create({ firstName: 'Bea', lastName: 'Byers' });
    const [care] = data.careEntries.create(
      { horseIds: [horseId], kind: 'dental', doneOn: '2026-02-10' },
      { userId: '01a2511e-0000-7000-8000-000000000001', name: ALICE.userName },
    );
    await data.projection.idle();
    const text = { money: false, kept: { value: 'a', ...ALICE, serverTime: '2026-03-01T10:00:05.000Z' } };
    await serve(
      conflictOf({ id: '1', collection: 'owners', entityId: owner, field: 'phone', ...text }),
      conflictOf({ id: '2', collection: 'buyers', entityId: buyer, field: 'lastName', ...text }),
      conflictOf({ id: '3', collection: 'breeds', entityId: breedId, field: 'name', ...text }),
      conflictOf({ id: '4', collection: 'careEntries', entityId: care!, field: 'notes', ...text }),
    );
    const user = testUser('Staff');
    renderScreen(<SuppliersScreen />, { data, user });
    expect(await within(await findRow('Sam Hill')).findByText('Conflict: Phone')).toBeTruthy();
    cleanup();
    renderScreen(<BuyersScreen />, { data, user });
    expect(await within(await findRow('Bea Byers')).findByText('Conflict: Last Name')).toBeTruthy();
    cleanup();
    renderScreen(<LookupTab kind="breeds" canWrite />, { data, user });
    expect(await within(await findRow('Arabian')).findByText('Conflict: Name')).toBeTruthy();
    cleanup();
    renderScreen(<CareTimeline horseId={horseId} />, { data, user });
    const timeline = await screen.findByRole('table', { name: 'Care timeline' }, { timeout: 5000 });
    expect(await within(timeline).findByText('Conflict: Notes')).toBeTruthy();
  });
});

describe('[T8] the bell lists each open conflict until it is answered', () => {
  it('names the record, the field and the people, links to the record, and lets go once answered elsewhere', async () => {
    await serve(conflictOf({}));
    renderScreen(inRouter(<NotificationsBell userId="user-self" />), { data, user: testUser('Staff') });
    // Not yet listed in the panel: the dot says so.
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, unread' }, { timeout: 5000 }));
    const section = await screen.findByRole('region', { name: 'Conflicts' });
    const link = await within(section).findByRole('link', { name: /^Dusty — Price/ });
    expect(link.getAttribute('href')).toBe(`/horses/${horseId}`);
    expect(link.textContent).toContain('Alice Smith and Bob Jones changed it at the same time');
    expect(screen.queryByText('No new notifications')).toBeNull();
    // Listed in the panel: seen, no dot.
    await screen.findByRole('button', { name: 'Notifications' });

    // Another device answered it: the next fetch no longer lists it.
    await serve();
    await screen.findByText('No new notifications');
    expect(screen.queryByRole('region', { name: 'Conflicts' })).toBeNull();
  });

  it('[K8] [B10] links a care entry’s and a list item’s conflicts to their own dialogs', async () => {
    const [care] = data.careEntries.create(
      { horseIds: [horseId], kind: 'dental', doneOn: '2026-02-10' },
      { userId: '01a2511e-0000-7000-8000-000000000001', name: ALICE.userName },
    );
    await data.projection.idle();
    await serve(
      conflictOf({ id: '5', collection: 'careEntries', entityId: care!, field: 'notes', money: false }),
      conflictOf({ id: '6', collection: 'breeds', entityId: breedId, field: 'name', money: false }),
    );
    renderScreen(inRouter(<NotificationsBell userId="user-self" />), { data, user: testUser('Staff') });
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, unread' }, { timeout: 5000 }));
    const section = await screen.findByRole('region', { name: 'Conflicts' });
    const link = await within(section).findByRole('link', { name: /^Dental of .* \(Dusty\) — Notes/ });
    expect(link.getAttribute('href')).toBe(`/horses/${horseId}/care/${care}`);
    const breed = await within(section).findByRole('link', { name: /^Arabian — Name/ });
    expect(breed.getAttribute('href')).toBe(`/admin/breeds/${breedId}`);
  });
});

describe('[T8] a details view left open follows an answer made elsewhere', () => {
  // The details' code loads when first opened: allowed its time on a busy machine.
  it('shows the answered price and loses the conflict', { timeout: 20_000 }, async () => {
    await serve(conflictOf({}));
    renderScreen(<HorsesScreen />, { data, user: testUser('Staff') });
    fireEvent.click(within(await findRow('Dusty')).getByRole('button', { name: 'View Details' }));
    // Its code loads when first opened.
    const dialog = await screen.findByRole('dialog', { name: 'Horse Details' }, { timeout: 5000 });
    await within(dialog).findByRole('region', { name: 'Price changed at the same time' });
    const price = () => within(dialog).getByText('Price', { selector: 'dt' }).nextElementSibling?.textContent;
    expect(price()).toBe('$9,200');

    // Bob answers on his phone: his write arrives, then the server no longer lists the conflict.
    applyFromOtherDevice(data.doc, (other) => collectionMap(other, 'horses').get(horseId)!.set('priceUsd', '9500.00'));
    await waitFor(() => expect(price()).toBe('$9,500'));
    await serve();
    await waitFor(() => expect(within(dialog).queryByRole('region', { name: 'Price changed at the same time' })).toBeNull());
    await waitFor(() => expect(within(rowOf('Dusty')).queryByText(/^Conflict/)).toBeNull());
  });
});
