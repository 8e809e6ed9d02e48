// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import Dexie, { type DBCore, type DBCoreQueryRequest } from 'dexie';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { HorsesScreen } from './HorsesScreen.tsx';
import { READ_PAGE } from './read-in-pages.ts';
import { FIRST_PAGE } from './use-horse-rows.ts';

/** The whole-list read's pages after its first (READ_PAGE horses after a primary key). */
const laterPages = (req: DBCoreQueryRequest) =>
  req.query.index.isPrimaryKey && typeof req.query.range.lower === 'string' && req.limit === READ_PAGE;

/** The first rows by name, read while the whole list is (use-horse-rows.ts). */
const firstRows = (req: DBCoreQueryRequest) => req.query.index.name === 'name' && req.limit === FIRST_PAGE;

/**
 * Holds back the answers of the whole-list read's pages after its first (or, after
 * `holdEveryRead`, of every horse read), as a slow phone would, until `release`; and keeps
 * every query of the horses table made. Installed as a Dexie addon, so it is in the read
 * database's middleware from its opening.
 */
function holdBackLaterPages() {
  let later = laterPages;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const queries: DBCoreQueryRequest[] = [];
  const addon = (db: Dexie) => {
    db.use({
      stack: 'dbcore',
      name: 'hold-back-later-pages',
      create: (down: DBCore): DBCore => ({
        ...down,
        table(name) {
          const table = down.table(name);
          if (name !== 'horses') return table;
          return {
            ...table,
            // The request runs now (its transaction must not wait); only the answer is held.
            async query(req) {
              queries.push(req);
              const answer = await table.query(req);
              if (later(req)) {
                held += 1;
                await released;
              }
              return answer;
            },
          };
        },
      }),
    });
  };
  Dexie.addons.push(addon);
  return {
    release: () => release(),
    held: () => held,
    queries,
    remove: () => Dexie.addons.splice(Dexie.addons.indexOf(addon), 1),
    /** From now on every read of the horses table is held. */
    holdEveryRead: () => {
      later = () => true;
    },
  };
}

let data: RanchData;
let hold: ReturnType<typeof holdBackLaterPages>;

beforeEach(async () => {
  hold = holdBackLaterPages();
  data = openTestData();
  await data.projection.ready;
});

afterEach(async () => {
  hold.release();
  hold.remove();
  cleanup();
  await data.persistence.clearData();
  await data.destroy();
});

const STATUS = 'Searching all horses…';

const lookupRefs = () => ({
  breedId: data.lookups.create('breeds', { name: 'Arabian' }),
  colorId: data.lookups.create('colors', { name: 'Chestnut' }),
  genderId: data.lookups.create('genders', { name: 'Mare' }),
});
const shownNames = () => screen.queryAllByText(/Comet/).map((cell) => cell.textContent);

describe('a search while the horse list is still being read', () => {
  it('[H2] shows the matches among the horses read so far at once, and all of them in name order when the list is in', async () => {
    const refs = {
      breedId: data.lookups.create('breeds', { name: 'Arabian' }),
      colorId: data.lookups.create('colors', { name: 'Chestnut' }),
      genderId: data.lookups.create('genders', { name: 'Mare' }),
    };
    // Ids grow with creation, so the whole-list read (by primary key, READ_PAGE a page)
    // meets 'The Comet One' in its first page and the other two in later pages; 'A Comet'
    // is in the list's first rows by name (FIRST_PAGE) too, the others are not.
    const count = 2 * READ_PAGE + 200;
    const names = Array.from({ length: count }, (_, i) => `Horse ${String(i).padStart(4, '0')}`);
    names[10] = 'The Comet One';
    names[READ_PAGE + 200] = 'The Comet Two';
    names[2 * READ_PAGE + 100] = 'The Comet Three';
    names[count - 1] = 'A Comet';
    for (const name of names) data.horses.create({ name, ...refs });
    await expect.poll(() => data.db.horses.count(), { timeout: 20_000 }).toBe(count);

    renderScreen(<HorsesScreen />, { data, user: testUser('Admin') });
    await screen.findByText('A Comet', undefined, { timeout: 10_000 });
    await expect.poll(hold.held).toBeGreaterThan(0);
    expect(screen.queryByText(STATUS)).toBeNull();

    fireEvent.change(screen.getByPlaceholderText('Search horses...'), { target: { value: 'comet' } });
    // On the keystroke: the match in the first rows by name, and the one in the page read.
    expect(shownNames()).toEqual(['A Comet', 'The Comet One']);
    expect(screen.getByText(STATUS).getAttribute('role')).toBe('status');
    expect(screen.queryByRole('button', { name: /Export/ })?.hasAttribute('disabled')).toBe(true);

    hold.release();
    await waitFor(() => expect(screen.queryByText(STATUS)).toBeNull(), { timeout: 10_000 });
    expect(shownNames()).toEqual(['A Comet', 'The Comet One', 'The Comet Three', 'The Comet Two']);
    expect(screen.getByRole('button', { name: /Export/ }).hasAttribute('disabled')).toBe(false);

    fireEvent.change(screen.getByPlaceholderText('Search horses...'), { target: { value: 'comet t' } });
    expect(shownNames()).toEqual(['The Comet Three', 'The Comet Two']);
  }, 30_000);

  it('[H2] a filter chosen while the list is read narrows the horses read so far, and later filters answer at once', async () => {
    const refs = {
      breedId: data.lookups.create('breeds', { name: 'Arabian' }),
      colorId: data.lookups.create('colors', { name: 'Chestnut' }),
      genderId: data.lookups.create('genders', { name: 'Mare' }),
    };
    const available = data.lookups.create('statuses', { name: 'Available' });
    const sold = data.lookups.create('statuses', { name: 'Sold' });
    const count = 2 * READ_PAGE + 200;
    // Sold: one in the first page read (by primary key), one in a later page; neither among the first rows by name.
    const soldAt = new Set([10, READ_PAGE + 200]);
    for (let i = 0; i < count; i++) {
      const name = soldAt.has(i) ? `The Comet Sold ${i}` : `Horse ${String(i).padStart(4, '0')}`;
      data.horses.create({ name, ...refs, statusId: soldAt.has(i) ? sold : available });
    }
    await expect.poll(() => data.db.horses.count(), { timeout: 20_000 }).toBe(count);

    renderScreen(<HorsesScreen />, { data, user: testUser('Admin') });
    await screen.findByText('Horse 0000', undefined, { timeout: 10_000 });
    await expect.poll(hold.held).toBeGreaterThan(0);
    // The select offers the statuses once their live query has answered; a value it does not offer would be ''.
    await within(screen.getByLabelText('Filter by status')).findByRole('option', { name: 'Sold' });

    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: sold } });
    expect((screen.getByLabelText('Filter by status') as HTMLSelectElement).value).toBe(sold);
    expect(shownNames()).toEqual(['The Comet Sold 10']);
    expect(screen.getByText(STATUS).getAttribute('role')).toBe('status');

    hold.release();
    await waitFor(() => expect(screen.queryByText(STATUS)).toBeNull(), { timeout: 10_000 });
    expect(shownNames()).toEqual(['The Comet Sold 10', `The Comet Sold ${READ_PAGE + 200}`]);

    // The whole list is in: another filter is answered in the same render, nothing read again.
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: available } });
    expect(shownNames()).toEqual([]);
    expect(screen.getByText('Horse 0000')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: sold } });
    expect(shownNames()).toEqual(['The Comet Sold 10', `The Comet Sold ${READ_PAGE + 200}`]);
  }, 30_000);

  it('[H2] a search typed before any horse is read shows the list loading, not "No horses found"', async () => {
    // Every read of the horses table held: neither the first rows by name nor any page is in.
    hold.holdEveryRead();
    data.horses.create({ name: 'The Comet', ...lookupRefs() });
    await expect.poll(() => data.db.horses.count(), { timeout: 20_000 }).toBe(1);

    renderScreen(<HorsesScreen />, { data, user: testUser('Admin') });
    const search = await screen.findByPlaceholderText('Search horses...');
    await expect.poll(hold.held).toBeGreaterThan(0);
    fireEvent.change(search, { target: { value: 'comet' } });
    expect(screen.getByRole('table', { name: 'Horses' }).getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText('No horses found')).toBeNull();

    hold.release();
    expect(await screen.findByText('The Comet', undefined, { timeout: 10_000 })).toBeTruthy();
  }, 30_000);

  it('[H2] once the whole list is in, a saved horse is read alone: the first rows by name are not read again', async () => {
    const refs = lookupRefs();
    for (const name of ['Comet', 'Dusty', 'Storm']) data.horses.create({ name, ...refs });
    await expect.poll(() => data.db.horses.count(), { timeout: 20_000 }).toBe(3);

    renderScreen(<HorsesScreen />, { data, user: testUser('Admin') });
    await screen.findByText('Dusty', undefined, { timeout: 10_000 });
    // Export waits for the whole list.
    await waitFor(() => expect(screen.getByRole('button', { name: /Export/ }).hasAttribute('disabled')).toBe(false));
    expect(hold.queries.filter(firstRows).length).toBeGreaterThan(0);

    hold.queries.length = 0;
    data.horses.create({ name: 'Apache', ...refs });
    expect(await screen.findByText('Apache', undefined, { timeout: 10_000 })).toBeTruthy();
    // A round trip to IndexedDB after the change's own reads: a query it set off has been made by now.
    await data.db.horses.count();
    expect(hold.queries.filter(firstRows)).toEqual([]);
  }, 30_000);
});
