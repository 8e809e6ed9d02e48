import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeSettings, DEFAULT_SETTINGS } from '../settings/user-settings.ts';
import { notifyDue } from './due-notifications.ts';
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

beforeEach(() => {
  localStorage.clear();
  shown.length = 0;
  FakeNotification.permission = 'granted';
  vi.stubGlobal('Notification', FakeNotification);
});
afterEach(() => vi.unstubAllGlobals());

describe('browser notifications of what is due', () => {
  it('[K7] [V3] none while the Browser Notifications switch is off, even with permission', () => {
    notifyDue([coggins], 'u1');
    expect(shown).toEqual([]);
  });

  it('[K7] with the switch on and permission granted: each newly due item once', () => {
    writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true });
    notifyDue([coggins], 'u1');
    notifyDue([coggins, installment], 'u1');
    notifyDue([coggins, installment], 'u1');
    expect(shown).toEqual([
      { title: 'Coggins test overdue: Dusty', body: 'Was due 1/1/2026' },
      { title: 'Installment past due: Star', body: '$300 from Bea Buyer, due since 1/1/2026' },
    ]);
  });

  it('[K7] care waits for Maintenance Alerts; nothing where permission was denied', () => {
    writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true, maintenanceAlerts: false });
    notifyDue([coggins, installment], 'u1');
    expect(shown.map((n) => n.title)).toEqual(['Installment past due: Star']);
    FakeNotification.permission = 'denied';
    writeSettings({ ...DEFAULT_SETTINGS, browserNotifications: true });
    localStorage.removeItem('ranch.dueNotified.u2');
    notifyDue([coggins], 'u2');
    expect(shown).toHaveLength(1);
  });
});
