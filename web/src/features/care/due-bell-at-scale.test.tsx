// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { addDays } from '../../../../shared/index.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { localToday } from '../../lib/local-today.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { NotificationsBell } from '../../ui/NotificationsBell.tsx';
import { DEFAULT_SETTINGS, writeSettings } from '../settings/user-settings.ts';
import type { DueAnswer, DueRequest } from './due-answer.ts';
import { dueMarkKeys } from './due-marks.ts';
import { hashOf } from './due-seen.ts';
import { loadDue } from './load-due.ts';

const USER = testUser('Staff', { id: '0190a0a0-0000-7000-8000-0000000000ee' });
const MANY = 10_000;

const shown: { title: string; body: string | undefined }[] = [];
class FakeNotification {
  static permission: NotificationPermission = 'granted';
  constructor(title: string, options?: NotificationOptions) {
    shown.push({ title, body: options?.body });
  }
}

let data: RanchData;
/** Every answer the page got from the data layer (the real one, in this thread). */
const answers: DueAnswer[] = [];
beforeEach(async () => {
  localStorage.clear();
  shown.length = 0;
  answers.length = 0;
  vi.stubGlobal('Notification', FakeNotification);
  writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true });
  data = openTestData();
  // After the load's reconcile, which would take away rows the document does not hold.
  await data.loaded;
  await data.projection.idle();
  const read = data.loadDue;
  data.loadDue = async (request: DueRequest) => {
    const answer = await read(request);
    answers.push(answer);
    return answer;
  };
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await data.persistence.clearData();
  await data.destroy();
});

const id = (prefix: string, i: number) => `0190a000-0000-7000-8${prefix}-${String(i).padStart(12, '0')}`;

/** Horses `from`..`to - 1`, each with a farrier visit overdue since long ago: one due item each. */
async function overdue(from: number, to: number): Promise<void> {
  const range = Array.from({ length: to - from }, (_, i) => from + i);
  await data.db.horses.bulkPut(range.map((i) => ({ id: id('001', i), name: `Horse ${String(i).padStart(5, '0')}` }) as never));
  await data.db.horseCare.bulkPut(
    range.map((i) => ({
      horseId: id('001', i),
      entries: [
        {
          id: id('002', i),
          horseId: id('001', i),
          kind: 'farrier' as const,
          doneOn: addDays(localToday(), -400),
          nextDueOn: addDays(localToday(), -30),
          notes: null,
          recordedBy: USER.id,
          recordedByName: 'Ada Rider',
          createdAt: '2025-10-01T10:00:00.000Z',
        },
      ],
    })),
  );
}

const bell = () => screen.getByRole('button', { name: /^Notifications/ });

describe('the bell with 10,000 items due', () => {
  it('[K4] [K7] gets 50 rows and its marks; one notification counts them; opened, no dot; a later start announces nothing again', async () => {
    await overdue(0, MANY);
    renderScreen(<NotificationsBell userId={USER.id} />, { data, user: USER });
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(0), { timeout: 10_000 });
    const [first] = answers;
    expect(first!.rows).toHaveLength(50);
    expect(first!.total).toBe(MANY);
    expect(shown).toEqual([{ title: 'Ranch: things are due', body: `${MANY} things need doing, the first: ${first!.rows[0]!.title}` }]);

    fireEvent.click(bell());
    const list = await screen.findByRole('list', { name: 'Due' });
    expect(within(list).getAllByRole('button')).toHaveLength(50);
    expect(within(list).getByText(`and ${MANY - 50} more`)).toBeTruthy();
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    // Seen is stored where the list is read: the next read says nothing new is due.
    await expect.poll(async () => (await data.db.meta.get(dueMarkKeys(USER.id).seen))?.value).toBe(first!.marks!.hashes);

    // A later start: nothing is announced again, nothing is new.
    cleanup();
    const before = answers.length;
    renderScreen(<NotificationsBell userId={USER.id} />, { data, user: USER });
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(before), { timeout: 10_000 });
    expect(answers.at(-1)!.marks).toMatchObject({ newDue: false, freshCount: 0 });
    fireEvent.click(bell());
    fireEvent.click(bell());
    expect(bell().getAttribute('aria-label')).toBe('Notifications');

    // One more item due: the dot comes back and that one item is announced by itself.
    await overdue(MANY, MANY + 1);
    await expect.poll(() => bell().getAttribute('aria-label'), { timeout: 5000 }).toBe('Notifications, unread');
    expect(shown.slice(1)).toEqual([{ title: `Farrier overdue: Horse ${MANY}`, body: expect.stringMatching(/^Was due /) }]);
    expect(answers.every((answer) => answer.rows.length <= 50)).toBe(true);
  }, 30_000);

  it('[K4] [K7] a device updated from localStorage marks moves them once: no burst of notifications, no dot for what was seen', async () => {
    await overdue(0, MANY);
    const stored = [...new Set((await loadDue(data.db, localToday())).map(hashOf))].join(',');
    localStorage.setItem(`ranch.dueSeen.${USER.id}`, stored);
    localStorage.setItem(`ranch.dueNotified.${USER.id}`, stored);
    renderScreen(<NotificationsBell userId={USER.id} />, { data, user: USER });
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(answers[0]!.marks).toMatchObject({ newDue: false, freshCount: 0 });
    expect(shown).toEqual([]);
    expect(localStorage.getItem(`ranch.dueSeen.${USER.id}`)).toBeNull();
    expect(localStorage.getItem(`ranch.dueNotified.${USER.id}`)).toBeNull();
    expect((await data.db.meta.get(dueMarkKeys(USER.id).notified))?.value).toBe(stored);
  }, 30_000);
});
