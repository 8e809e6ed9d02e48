// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Conflict, HistoryChange, Role } from '../../../../shared/index.ts';
import { collectionMap } from '../../../../shared/index.ts';
import { fetchConflicts } from '../../data/conflict-cache.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { ALICE, BOB, priceConflictOn } from '../../../test/conflicts.ts';
import { closeTestData, openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, rowOf, testUser } from '../../../test/render-screen.tsx';
import { HorsesScreen } from '../horses/HorsesScreen.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';
import { RecordConflicts } from './RecordConflicts.tsx';

let data: RanchData;
let horseId: string;
let breeds: { shire: string; arabian: string };
const fetchMock = vi.fn<typeof fetch>();
/** What the server answers, by path: the open conflicts and the histories. */
let served: { conflicts: Conflict[] | Response | Error; history: HistoryChange[] };

const priceConflict = (patch: Partial<Conflict> = {}): Conflict => priceConflictOn(horseId, patch);

const breedConflict = (): Conflict => ({
  id: '8',
  collection: 'horses',
  entityId: horseId,
  field: 'breedId',
  kept: { value: breeds.arabian, ...ALICE, serverTime: '2026-03-01T11:00:02.000Z' },
  other: { value: breeds.shire, ...BOB, serverTime: '2026-03-01T11:00:01.000Z' },
  money: false,
  detectedAt: '2026-03-01T11:00:02.000Z',
});

beforeEach(async () => {
  served = { conflicts: [], history: [] };
  fetchMock.mockImplementation(async (input) => {
    const path = String(input);
    if (path.startsWith('/api/history/')) return Response.json({ changes: served.history, nextBefore: null });
    if (path !== '/api/conflicts') return Response.json({ message: 'No such route' }, { status: 404 });
    if (served.conflicts instanceof Error) throw served.conflicts;
    if (served.conflicts instanceof Response) return served.conflicts.clone();
    return Response.json({ conflicts: served.conflicts });
  });
  vi.stubGlobal('fetch', fetchMock);
  data = openTestData();
  await data.projection.ready;
  breeds = { shire: data.lookups.create('breeds', { name: 'Shire' }), arabian: data.lookups.create('breeds', { name: 'Arabian' }) };
  horseId = data.horses.create({
    name: 'Dusty',
    breedId: breeds.arabian,
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
    priceUsd: '9200',
  });
  await data.projection.idle();
});

afterEach(async () => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  await closeTestData(data);
});

const horse = () => collectionMap(data.doc, 'horses').get(horseId)!;
const banner = (name: string) => screen.findByRole('region', { name });

async function openHorseDetails(role: Role = 'Staff') {
  renderScreen(<HorsesScreen />, { data, user: testUser(role) });
  fireEvent.click(within(await rowOf('Dusty')).getByRole('button', { name: 'View Details' }));
  // The details' code is fetched with the tap: the first open in a file waits for its import.
  return screen.findByRole('dialog', { name: 'Horse Details' }, { timeout: 5000 });
}

describe('[T6] conflicts on a record’s details', () => {
  it('a money field asks which value is right, names both people, and never says kept', async () => {
    served.conflicts = [priceConflict()];
    expect(await fetchConflicts(data.db)).toBe('fetched');
    const dialog = await openHorseDetails();
    const region = await within(dialog).findByRole('region', { name: 'Price changed at the same time' });
    expect(region.textContent).toContain('Price was changed at the same time by Alice Smith ($9,500) and Bob Jones ($9,200).');
    expect(within(region).getByText('Which price is right?')).toBeTruthy();
    expect(
      within(region)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['$9,500', '$9,200']);
    expect(region.textContent).not.toMatch(/kept|settled/i);
  });

  it('choosing a value writes it, hides the banner at once, and keeps it hidden until the server drops the conflict', async () => {
    served.conflicts = [priceConflict()];
    await fetchConflicts(data.db);
    let updates = 0;
    data.doc.on('update', () => (updates += 1));
    const dialog = await openHorseDetails();
    const region = await within(dialog).findByRole('region', { name: 'Price changed at the same time' });

    fireEvent.click(within(region).getByRole('button', { name: '$9,500' }));

    await waitFor(() => expect(within(dialog).queryByRole('region', { name: 'Price changed at the same time' })).toBeNull());
    expect(horse().get('priceUsd')).toBe('9500.00');
    expect(updates).toBe(1);
    // The server has not received the answer yet: still listed, still hidden here.
    await fetchConflicts(data.db);
    expect((await data.db.conflicts.get('7'))?.answeredAt).toEqual(expect.any(String));
    expect(within(dialog).queryByRole('region', { name: 'Price changed at the same time' })).toBeNull();
    // It closed it: gone from the device as well.
    served.conflicts = [];
    await fetchConflicts(data.db);
    expect(await data.db.conflicts.count()).toBe(0);
  });

  it('a money value kept is said by writing it again', async () => {
    served.conflicts = [priceConflict()];
    await fetchConflicts(data.db);
    let updates = 0;
    data.doc.on('update', () => (updates += 1));
    renderScreen(<RecordConflicts collection="horses" id={horseId} />, { data, user: testUser('Staff') });
    fireEvent.click(within(await banner('Price changed at the same time')).getByRole('button', { name: '$9,200' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Price changed at the same time' })).toBeNull());
    expect(horse().get('priceUsd')).toBe('9200.00');
    expect(updates).toBe(1);
  });

  it('another field says what was kept and offers to put the other back or keep it, by name', async () => {
    served.conflicts = [breedConflict()];
    await fetchConflicts(data.db);
    renderScreen(<RecordConflicts collection="horses" id={horseId} />, { data, user: testUser('Staff') });
    const region = await banner('Breed changed at the same time');
    // Shown once the names are read: never 'a removed record' meanwhile.
    expect(region.textContent).toContain('Breed was changed at the same time by Bob Jones (Shire) and Alice Smith (Arabian).');
    expect(within(region).getByText('Kept: Arabian.')).toBeTruthy();
    expect(
      within(region)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Put back Shire', 'Keep Arabian']);

    fireEvent.click(within(region).getByRole('button', { name: 'Put back Shire' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Breed changed at the same time' })).toBeNull());
    expect(horse().get('breedId')).toBe(breeds.shire);
  });

  it('a supplier’s, a buyer’s and a list item’s conflict is answered through its own repository', async () => {
    const owner = data.owners.create({ firstName: 'Sam', lastName: 'Hill', phone: '555 0100' });
    const buyer = data.buyers.create({ firstName: 'Bea', lastName: 'Byers' });
    const side = (value: string, who: typeof ALICE, second: number) => ({ value, ...who, serverTime: `2026-03-01T12:00:0${second}.000Z` });
    const of = (collection: Conflict['collection'], entityId: string, field: string, kept: string, other: string): Conflict => ({
      ...breedConflict(),
      id: `${collection}-${field}`,
      collection,
      entityId,
      field,
      kept: side(kept, ALICE, 2),
      other: side(other, BOB, 1),
    });
    served.conflicts = [
      of('owners', owner, 'phone', '555 0100', '555 0199'),
      of('buyers', buyer, 'lastName', 'Byers', 'Buyers'),
      of('breeds', breeds.shire, 'name', 'Shire', 'Shire Horse'),
    ];
    await fetchConflicts(data.db);
    renderScreen(
      <>
        <RecordConflicts collection="owners" id={owner} />
        <RecordConflicts collection="buyers" id={buyer} />
        <RecordConflicts collection="breeds" id={breeds.shire} />
      </>,
      { data, user: testUser('Staff') },
    );
    fireEvent.click(within(await banner('Phone changed at the same time')).getByRole('button', { name: 'Put back 555 0199' }));
    fireEvent.click(within(await banner('Last Name changed at the same time')).getByRole('button', { name: 'Keep Byers' }));
    fireEvent.click(within(await banner('Name changed at the same time')).getByRole('button', { name: 'Put back Shire Horse' }));
    await waitFor(() => expect(screen.queryAllByRole('region', { name: /changed at the same time/ })).toEqual([]));
    expect(collectionMap(data.doc, 'owners').get(owner)?.get('phone')).toBe('555 0199');
    expect(collectionMap(data.doc, 'buyers').get(buyer)?.get('lastName')).toBe('Byers');
    expect(collectionMap(data.doc, 'breeds').get(breeds.shire)?.get('name')).toBe('Shire Horse');
  });

  it('one person on two devices is named once', async () => {
    served.conflicts = [priceConflict({ other: { value: '9500.00', ...BOB, serverTime: '2026-03-01T10:00:01.000Z' } })];
    await fetchConflicts(data.db);
    renderScreen(<RecordConflicts collection="horses" id={horseId} />, { data, user: testUser('Staff') });
    const region = await banner('Price changed at the same time');
    expect(region.textContent).toContain('Price was changed at the same time on two devices by Bob Jones ($9,500 and $9,200).');
  });

  it('a Viewer sees the banner without buttons', async () => {
    served.conflicts = [priceConflict(), breedConflict()];
    await fetchConflicts(data.db);
    const dialog = await openHorseDetails('Viewer');
    const price = await within(dialog).findByRole('region', { name: 'Price changed at the same time' });
    const breed = await within(dialog).findByRole('region', { name: 'Breed changed at the same time' });
    expect(within(price).queryAllByRole('button')).toEqual([]);
    expect(within(breed).queryAllByRole('button')).toEqual([]);
    expect(within(price).getByText('Someone who can edit will choose.')).toBeTruthy();
    expect(await within(breed).findByText('Kept: Arabian.')).toBeTruthy();
  });

  it('offline or signed out, the device keeps showing the conflicts it last fetched', async () => {
    served.conflicts = [priceConflict()];
    await fetchConflicts(data.db);
    served.conflicts = new TypeError('Failed to fetch');
    expect(await fetchConflicts(data.db)).toBe('offline');
    served.conflicts = Response.json({ message: 'Not signed in' }, { status: 401 });
    expect(await fetchConflicts(data.db)).toBe('offline');
    renderScreen(<RecordConflicts collection="horses" id={horseId} />, { data, user: testUser('Staff') });
    expect(await banner('Price changed at the same time')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/conflicts', expect.anything());
  });

  it('a conflict on another record is not shown on this one; malformed rows from the server are left out', async () => {
    served.conflicts = [
      priceConflict({ entityId: breeds.shire, collection: 'breeds', field: 'name', money: false }),
      { ...priceConflict({ id: '9' }), kept: null } as unknown as Conflict,
      breedConflict(),
    ];
    await fetchConflicts(data.db);
    expect((await data.db.conflicts.toArray()).map((row) => row.id)).toEqual(['7', '8']);
    renderScreen(<RecordConflicts collection="horses" id={horseId} />, { data, user: testUser('Staff') });
    await banner('Breed changed at the same time');
    expect(screen.getAllByRole('region', { name: /changed at the same time/ })).toHaveLength(1);
  });
});

describe('[T6] the History marks changes made at the same time', () => {
  const change = (patch: Partial<HistoryChange>): HistoryChange => ({
    id: '1',
    seq: '1',
    step: 1,
    collection: 'horses',
    entityId: horseId,
    kind: 'update',
    field: 'priceUsd',
    before: '1500.00',
    after: '9500.00',
    ...ALICE,
    serverTime: '2026-03-01T10:00:01.000Z',
    deviceTime: null,
    conflict: null,
    ...patch,
  });

  it('says whose change each met and whether it was kept', async () => {
    const mark = { id: '7', otherValue: '9500.00', otherUserId: ALICE.userId, otherUserName: ALICE.userName, open: false };
    served.history = [
      change({ id: '4', seq: '4', before: '9200.00', after: '9500.00' }),
      change({
        id: '3',
        seq: '3',
        before: '9200.00',
        after: '9500.00',
        conflict: { ...mark, kept: false, otherValue: '9200.00', otherUserId: BOB.userId, otherUserName: BOB.userName },
      }),
      change({ id: '2', seq: '2', before: '1500.00', after: '9200.00', ...BOB, conflict: { ...mark, kept: true } }),
    ];
    renderScreen(<RecordHistory collection="horses" id={horseId} />, { data });
    const list = await screen.findByRole('list', { name: 'Changes' });
    const lines = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent?.split(' — ')[0]);
    expect(lines).toEqual([
      'Price changed from $9,200 to $9,500',
      'Price changed from $9,200 to $9,500 at the same time as Bob Jones (not kept)',
      'Price changed from $1,500 to $9,200 at the same time as Alice Smith (kept)',
    ]);
  });

  it('a money conflict still open is not worded as settled', async () => {
    served.history = [
      change({
        before: '1500.00',
        after: '9200.00',
        conflict: { id: '7', kept: true, otherValue: '9500.00', otherUserId: BOB.userId, otherUserName: BOB.userName, open: true },
      }),
    ];
    renderScreen(<RecordHistory collection="horses" id={horseId} />, { data });
    expect(await screen.findByText(/Price changed from \$1,500 to \$9,200 at the same time as Bob Jones \(not chosen yet\)/)).toBeTruthy();
  });
});
