// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { HistoryChange } from '../../../../shared/index.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { inRouter, renderScreen } from '../../../test/render-screen.tsx';
import { RecentActivity } from '../dashboard/RecentActivity.tsx';
import { ActivityScreen } from './ActivityScreen.tsx';
import { OFFLINE_HISTORY_NOTE, RecordHistory } from './RecordHistory.tsx';
import { timeText } from './history-text.ts';

let data: RanchData;
const fetchMock = vi.fn<typeof fetch>();

const HORSE = '01900000-0000-7000-8000-000000000001';
const BREED = '01900000-0000-7000-8000-000000000002';
const OTHER_BREED = '01900000-0000-7000-8000-000000000003';

const change = (patch: Partial<HistoryChange>): HistoryChange => ({
  id: '1',
  seq: '1',
  step: 1,
  collection: 'horses',
  entityId: HORSE,
  kind: 'update',
  field: 'priceUsd',
  before: null,
  after: null,
  userId: 'u-1',
  userName: 'Staff Tester',
  serverTime: '2026-03-01T10:00:00.000Z',
  deviceTime: null,
  ...patch,
});

/** A horse's history, newest first: a price change on the socket (with the device's time), one at a desk, the breed, the creation. */
const HORSE_HISTORY: HistoryChange[] = [
  change({
    id: '9',
    seq: '9',
    before: '1800.00',
    after: '2100.00',
    userName: 'Ada Rider',
    deviceTime: '2026-03-02T08:00:00.000Z',
    serverTime: '2026-03-02T09:00:00.000Z',
  }),
  change({ id: '8', seq: '8', before: '1500.00', after: '1800.00' }),
  change({ id: '7', seq: '7', field: 'breedId', before: BREED, after: OTHER_BREED, userId: null, userName: null }),
  change({ id: '2', seq: '2', kind: 'create', field: 'priceUsd', after: '1500.00' }),
  change({ id: '1', seq: '2', kind: 'create', field: 'name', after: 'Dusty' }),
];

beforeEach(async () => {
  vi.stubGlobal('fetch', fetchMock);
  data = openTestData();
  await data.projection.ready;
  await data.db.breeds.bulkPut([
    { id: BREED, name: 'Shire', isActive: true },
    { id: OTHER_BREED, name: 'Arabian', isActive: true },
  ]);
});

afterEach(async () => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  await data.persistence.clearData();
  await data.destroy();
});

const DUSTY_ROSE = {
  id: HORSE,
  name: 'Dusty Rose',
  breedId: OTHER_BREED,
  colorId: BREED,
  genderId: BREED,
  statusId: null,
  ownerId: null,
  birthdate: null,
  ageYears: null,
  priceUsd: '2100.00',
  photoUrl: null,
  notes: null,
};

const serveHistory = (changes: HistoryChange[]) => fetchMock.mockImplementation(async () => Response.json({ changes, nextBefore: null }));

describe('History', () => {
  it("[T3] lists a record's changes newest first with labels, formatted values, names and both times", async () => {
    serveHistory(HORSE_HISTORY);
    renderScreen(<RecordHistory collection="horses" id={HORSE} />, { data });
    const list = await screen.findByRole('list', { name: 'Changes' });
    await waitFor(() => expect(within(list).getByText(/Breed changed from Shire to Arabian/)).toBeTruthy());
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `Price changed from $1,800 to $2,100 — Ada Rider, ${timeText('2026-03-02T09:00:00.000Z')} (device: ${timeText('2026-03-02T08:00:00.000Z')})`,
      `Price changed from $1,500 to $1,800 — Staff Tester, ${timeText('2026-03-01T10:00:00.000Z')}`,
      `Breed changed from Shire to Arabian — Ranch server, ${timeText('2026-03-01T10:00:00.000Z')}`,
      `Created — Staff Tester, ${timeText('2026-03-01T10:00:00.000Z')}`,
    ]);
    expect(fetchMock).toHaveBeenCalledWith(`/api/history/horses/${HORSE}`, expect.anything());
    expect(screen.queryByText(OFFLINE_HISTORY_NOTE)).toBeNull();
  });

  it("[T3] a sale's history shows its payments and its own creation", async () => {
    const SALE = '01900000-0000-7000-8000-000000000010';
    const PAYMENT = '01900000-0000-7000-8000-000000000011';
    serveHistory([
      change({
        id: '21',
        seq: '21',
        collection: 'payments',
        entityId: PAYMENT,
        kind: 'create',
        field: 'amount',
        after: '1000.00',
        userName: 'Ada Rider',
      }),
      change({
        id: '20',
        seq: '21',
        collection: 'payments',
        entityId: PAYMENT,
        kind: 'create',
        field: 'method',
        after: 'Card',
        userName: 'Ada Rider',
      }),
      change({ id: '11', seq: '11', collection: 'sales', entityId: SALE, kind: 'create', field: 'salePrice', after: '3000.00' }),
    ]);
    renderScreen(<RecordHistory collection="sales" id={SALE} />, { data });
    const list = await screen.findByRole('list', { name: 'Changes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `Payment of $1,000 created — Ada Rider, ${timeText('2026-03-01T10:00:00.000Z')}`,
      `Created — Staff Tester, ${timeText('2026-03-01T10:00:00.000Z')}`,
    ]);
    expect(fetchMock).toHaveBeenCalledWith(`/api/history/sales/${SALE}`, expect.anything());
  });

  it('[T3] offline, shows the history the device last fetched and says changes not yet sent are missing', async () => {
    serveHistory(HORSE_HISTORY);
    const first = renderScreen(<RecordHistory collection="horses" id={HORSE} />, { data });
    await screen.findByText(/Price changed from \$1,500 to \$1,800/);
    first.unmount();
    fetchMock.mockImplementation(async () => {
      throw new TypeError('Failed to fetch');
    });
    renderScreen(<RecordHistory collection="horses" id={HORSE} />, { data });
    expect(await screen.findByText(OFFLINE_HISTORY_NOTE)).toBeTruthy();
    expect(screen.getByText(/Price changed from \$1,500 to \$1,800/)).toBeTruthy();
  });

  it('[T3] a history that arrives after the screen closed and the database with it is dropped quietly', async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    // Node's process (the tests run in Node; the web project's types have no Node).
    type Listener = (reason: unknown) => void;
    const node = (
      globalThis as unknown as { process: { on(event: string, listener: Listener): void; off(event: string, listener: Listener): void } }
    ).process;
    node.on('unhandledRejection', onUnhandled);
    try {
      const shown = renderScreen(<RecordHistory collection="horses" id={HORSE} />, { data });
      await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
      shown.unmount();
      data.db.close();
      answer(Response.json({ changes: HORSE_HISTORY, nextBefore: null }));
      // Two macrotasks: the answer's JSON, the put that fails, and Node's unhandled-rejection check.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      node.off('unhandledRejection', onUnhandled);
    }
  });

  it('[T3] an answer that is not a history keeps what the device had, and a malformed change is left out', async () => {
    serveHistory(HORSE_HISTORY);
    const first = renderScreen(<RecordHistory collection="horses" id={HORSE} />, { data });
    await screen.findByText(/Price changed from \$1,500 to \$1,800/);
    first.unmount();
    fetchMock.mockImplementation(async () => Response.json({ changes: 'none' }));
    const second = renderScreen(<RecordHistory collection="horses" id={HORSE} />, { data });
    expect(await screen.findByText(OFFLINE_HISTORY_NOTE)).toBeTruthy();
    expect(screen.getByText(/Price changed from \$1,500 to \$1,800/)).toBeTruthy();
    second.unmount();
    serveHistory([{ ...HORSE_HISTORY[0]!, serverTime: undefined } as unknown as HistoryChange, ...HORSE_HISTORY.slice(1)]);
    renderScreen(<RecordHistory collection="horses" id={HORSE} />, { data });
    const list = await screen.findByRole('list', { name: 'Changes' });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        `Price changed from $1,500 to $1,800 — Staff Tester, ${timeText('2026-03-01T10:00:00.000Z')}`,
        `Breed changed from Shire to Arabian — Ranch server, ${timeText('2026-03-01T10:00:00.000Z')}`,
        `Created — Staff Tester, ${timeText('2026-03-01T10:00:00.000Z')}`,
      ]),
    );
  });

  it('[T3] a record the server does not know yet has no changes recorded', async () => {
    fetchMock.mockImplementation(async () => Response.json({ message: 'No such record' }, { status: 404 }));
    renderScreen(<RecordHistory collection="horses" id={HORSE} />, { data });
    expect(await screen.findByText('No changes recorded yet')).toBeTruthy();
  });

  it("[T4] [D8] Recent Activity shows the ranch's latest changes with names, the static entry last", async () => {
    serveHistory(HORSE_HISTORY);
    await data.db.horses.put(DUSTY_ROSE);
    renderScreen(inRouter(<RecentActivity />), { data });
    const list = await screen.findByRole('list', { name: 'Recent changes' });
    await waitFor(() => expect(within(list).getByText('Ada Rider changed Price of horse Dusty Rose')).toBeTruthy());
    const texts = within(list)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('p.font-medium')?.textContent);
    expect(texts).toEqual([
      'Ada Rider changed Price of horse Dusty Rose',
      'Staff Tester changed Price of horse Dusty Rose',
      'Ranch server changed Breed of horse Dusty Rose',
      'Staff Tester added horse Dusty Rose',
      'System initialized',
    ]);
    expect(fetchMock).toHaveBeenCalledWith('/api/history/recent?limit=60', expect.anything());
  });

  describe('[T7] Activity', { timeout: 20_000 }, () => {
    const COMET = '01900000-0000-7000-8000-000000000004';
    /** Dusty Rose's history, then Ada deleting Comet (a horse this device no longer holds). */
    const RANCH_HISTORY: HistoryChange[] = [
      change({
        id: '10',
        seq: '10',
        entityId: COMET,
        kind: 'delete',
        field: 'name',
        before: 'Comet',
        userId: 'u-2',
        userName: 'Ada Rider',
        serverTime: '2026-03-03T09:00:00.000Z',
      }),
      ...HORSE_HISTORY.map((entry) => (entry.userName === 'Ada Rider' ? { ...entry, userId: 'u-2' } : entry)),
    ];
    const titles = () =>
      within(screen.getByRole('list', { name: 'Changes' }))
        .getAllByRole('listitem')
        .filter((item) => item.querySelector('p.font-medium'))
        .map((item) => item.querySelector('p.font-medium')?.textContent);
    const count = () => screen.getByTestId('list-count').textContent;
    const choose = (label: string, option: string) => {
      const select = screen.getByLabelText(label);
      fireEvent.change(select, { target: { value: within(select).getByRole('option', { name: option }).getAttribute('value') } });
    };

    it('counts the changes shown of those loaded, and the search and filters narrow the count', async () => {
      serveHistory(RANCH_HISTORY);
      await data.db.horses.put(DUSTY_ROSE);
      renderScreen(inRouter(<ActivityScreen />), { data });
      await waitFor(() => expect(count()).toBe('5 changes'));
      expect(fetchMock).toHaveBeenCalledWith('/api/history/recent?limit=200', expect.anything());
      // Fewer than a page: these are all the changes, and no note says otherwise.
      expect(screen.queryByText(/look through the/)).toBeNull();

      choose('Person', 'Ada Rider');
      expect(count()).toBe('2 of 5 changes');
      fireEvent.change(screen.getByLabelText('Search changes'), { target: { value: 'dusty' } });
      await waitFor(() => expect(titles()).toEqual(['Ada Rider changed Price of horse Dusty Rose']));
      expect(count()).toBe('1 of 5 changes');
      choose('Person', 'Everyone');
      choose('Record', 'Horse');
      expect(count()).toBe('4 of 5 changes');
      fireEvent.change(screen.getByLabelText('Search changes'), { target: { value: 'nobody' } });
      expect(count()).toBe('0 of 5 changes');
      expect(screen.getByText('No changes match these filters')).toBeTruthy();
    });

    it('lists the newest first, or the oldest when chosen', async () => {
      serveHistory(RANCH_HISTORY);
      await data.db.horses.put(DUSTY_ROSE);
      renderScreen(inRouter(<ActivityScreen />), { data });
      await waitFor(() => expect(titles()[1]).toBe('Ada Rider changed Price of horse Dusty Rose'));
      const newestFirst = [
        'Ada Rider deleted horse Comet',
        'Ada Rider changed Price of horse Dusty Rose',
        'Staff Tester changed Price of horse Dusty Rose',
        'Ranch server changed Breed of horse Dusty Rose',
        'Staff Tester added horse Dusty Rose',
      ];
      expect(titles()).toEqual(newestFirst);
      expect((screen.getByLabelText('Sort by') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('Date (newest first)');
      choose('Sort by', 'Date (oldest first)');
      expect(titles()).toEqual(newestFirst.toReversed());
    });

    it("links each record the device holds to its details; a deleted one's name is plain text", async () => {
      serveHistory(RANCH_HISTORY);
      await data.db.horses.put(DUSTY_ROSE);
      renderScreen(inRouter(<ActivityScreen />), { data });
      await waitFor(() => expect(screen.getAllByRole('link', { name: 'horse Dusty Rose' })).toHaveLength(4));
      for (const link of screen.getAllByRole('link', { name: 'horse Dusty Rose' }))
        expect(link.getAttribute('href')).toBe(`/horses/${HORSE}`);
      expect(screen.getByText('Ada Rider deleted horse Comet')).toBeTruthy();
      expect(screen.queryByRole('link', { name: /Comet/ })).toBeNull();

      // Deleted here too: its name stays, as plain text.
      await data.db.horses.delete(HORSE);
      await waitFor(() => expect(screen.queryByRole('link', { name: /Dusty/ })).toBeNull());
      expect(titles()[1]).toBe('Ada Rider changed Price of horse Dusty');
    });

    it('links a payment the device holds to its receipt; a sale it does not hold stays plain', async () => {
      const SALE = '01900000-0000-7000-8000-000000000010';
      const PAYMENT = '01900000-0000-7000-8000-000000000011';
      serveHistory([
        change({ id: '21', seq: '21', collection: 'payments', entityId: PAYMENT, kind: 'create', field: 'amount', after: '1000.00' }),
        change({ id: '11', seq: '11', collection: 'sales', entityId: SALE, kind: 'create', field: 'salePrice', after: '3000.00' }),
      ]);
      await data.db.payments.put({
        id: PAYMENT,
        saleId: SALE,
        amount: '1000.00',
        date: '2026-03-01',
        method: 'Cash',
        memo: null,
        installmentId: null,
        createdAt: '2026-03-01T10:00:00.000Z',
        ledgerSeq: 1,
        flags: [],
      } as never);
      renderScreen(inRouter(<ActivityScreen />), { data });
      const link = await screen.findByRole('link', { name: 'payment of $1,000' });
      expect(link.getAttribute('href')).toBe(`/payments/${PAYMENT}`);
      expect(titles()).toEqual(['Staff Tester added payment of $1,000', 'Staff Tester added sale']);
      expect(screen.queryByRole('link', { name: 'sale' })).toBeNull();
    });

    it('says the search and filters look through the changes loaded while older ones may exist', async () => {
      const page = Array.from({ length: 200 }, (_, index) =>
        change({ id: String(1000 - index), seq: String(1000 - index), before: '1.00', after: `${index + 2}.00` }),
      );
      serveHistory(page);
      renderScreen(inRouter(<ActivityScreen />), { data });
      expect(await screen.findByText(/look through the 200 changes loaded/)).toBeTruthy();
      await waitFor(() => expect(count()).toBe('200 changes'));
      expect(screen.getByRole('button', { name: 'Load older changes' })).toBeTruthy();
    });
  });
});
