// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openRanchDb, type RanchDb } from '../../data/db.ts';
import { writeSettings, DEFAULT_SETTINGS } from '../settings/user-settings.ts';
import { dueMarks } from './due-marks.ts';
import { announceDue, dueUser } from './due-notifications.ts';
import type { DueRow } from './use-due.ts';

const shown: { title: string; body: string | undefined }[] = [];
class FakeNotification {
  static permission: NotificationPermission = 'granted';
  constructor(title: string, options?: NotificationOptions) {
    shown.push({ title, body: options?.body });
  }
}

const coggins: DueRow = {
  type: 'care',
  key: 'care:h1:coggins:2026-01-01:overdue',
  horseId: 'h1',
  kind: 'coggins',
  dueOn: '2026-01-01',
  overdue: true,
  title: 'Coggins test overdue: Dusty',
  detail: 'Was due 1/1/2026',
};
const installment: DueRow = {
  type: 'sale',
  key: 'sale:s1:2026-01-01',
  saleId: 's1',
  horseId: 'h2',
  buyerId: 'b1',
  pastDueCents: 30000,
  since: '2026-01-01',
  overdue: true,
  title: 'Installment past due: Star',
  detail: '$300 from Bea Buyer, due since 1/1/2026',
};

let db: RanchDb;
let counter = 0;
beforeEach(() => {
  localStorage.clear();
  shown.length = 0;
  FakeNotification.permission = 'granted';
  vi.stubGlobal('Notification', FakeNotification);
  db = openRanchDb(`due-notifications-${Date.now()}-${++counter}`);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await db.delete();
});

/** What the bell's read does with the list: the host's bookkeeping (read database), then the page's notifications. */
const notifyDue = async (rows: DueRow[], userId: string) => announceDue(await dueMarks(db, rows, dueUser(userId)));

describe('browser notifications of what is due', () => {
  it('[A11] writes no mark when nothing is due and none was kept (a cleared device stays empty)', async () => {
    await notifyDue([], 'u1');
    expect(await db.meta.count()).toBe(0);
    await notifyDue([coggins], 'u1');
    expect(await db.meta.count()).toBe(1);
    await notifyDue([], 'u1');
    expect((await db.meta.toArray()).map((row) => row.value)).toEqual(['']);
  });

  it('[K7] [V3] none while the Browser Notifications switch is off, even with permission, and no burst once turned on', async () => {
    await notifyDue([coggins], 'u1');
    expect(shown).toEqual([]);
    writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true });
    await notifyDue([coggins], 'u1');
    expect(shown).toEqual([]);
  });

  it('[K7] with the switch on and permission granted: each newly due item once', async () => {
    writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true });
    await notifyDue([coggins], 'u1');
    await notifyDue([coggins, installment], 'u1');
    await notifyDue([coggins, installment], 'u1');
    expect(shown).toEqual([
      { title: 'Coggins test overdue: Dusty', body: 'Was due 1/1/2026' },
      { title: 'Installment past due: Star', body: '$300 from Bea Buyer, due since 1/1/2026' },
    ]);
  });

  it('[K7] care waits for Maintenance Alerts; nothing where permission was denied', async () => {
    writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true, maintenanceAlerts: false });
    await notifyDue([coggins, installment], 'u1');
    expect(shown.map((n) => n.title)).toEqual(['Installment past due: Star']);
    FakeNotification.permission = 'denied';
    writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true });
    await notifyDue([coggins], 'u2');
    expect(shown).toHaveLength(1);
  });

  it('[K7] more than 3 new at once make one notification that counts them; what is no longer due is forgotten', async () => {
    writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true });
    const rows = [1, 2, 3, 4].map((i) => ({
      ...coggins,
      key: `care:h${i}:coggins:2026-01-01:overdue`,
      title: `Coggins test overdue: Horse ${i}`,
    }));
    await notifyDue(rows, 'u1');
    expect(shown).toEqual([{ title: 'Ranch: things are due', body: '4 things need doing, the first: Coggins test overdue: Horse 1' }]);
    await notifyDue(rows.slice(1), 'u1');
    await notifyDue(rows, 'u1');
    expect(shown.map((n) => n.title)).toEqual(['Ranch: things are due', 'Coggins test overdue: Horse 1']);
  });
});
