import type { PageData } from '../../data/page-data.ts';
import { notificationPermission } from '../settings/notification-permission.ts';
import { readSettings } from '../settings/user-settings.ts';
import { DUE_SHOWN, type DueAnswer } from './due-answer.ts';
import { ONE_BY_ONE, type DueMarks, type DueUser } from './due-marks.ts';
import { migrateDueMarks } from './due-marks-migration.ts';

function show(title: string, body: string, tag: string): void {
  try {
    new Notification(title, { body, tag });
  } catch {
    // Android's Chrome allows notifications only through the service worker.
    void navigator.serviceWorker?.ready.then((registration) => registration.showNotification(title, { body, tag })).catch(() => {});
  }
}

/**
 * [K7] A browser notification for each item newly due (the host chose them: due-marks.ts),
 * or one that counts them when there are more than 3.
 */
export function announceDue(marks: Pick<DueMarks, 'fresh' | 'freshCount'>): void {
  if (marks.freshCount > ONE_BY_ONE) {
    show('Ranch: things are due', `${marks.freshCount} things need doing, the first: ${marks.fresh[0]!.title}`, 'ranch-due');
  } else {
    for (const row of marks.fresh) show(row.title, row.detail, row.key);
  }
}

/** What only the page knows of `userId`'s notifications: the browser's permission and the settings, read now. */
export function dueUser(userId: string): DueUser {
  const settings = readSettings();
  const notify = settings.browserNotifications && notificationPermission() === 'granted';
  return { id: userId, notify, maintenanceAlerts: settings.maintenanceAlerts };
}

/**
 * The bell's read of what is due for `userId`: the first 50 rows, the dot's flag and, where
 * the person allowed notifications and turned Browser Notifications on ([V3]) — care also
 * needs Maintenance Alerts — what is newly due, once per item on this device ([K7]). The
 * notifications are shown here rather than in an effect: the host has recorded the items as
 * notified, so an answer a remounting bell drops (React's StrictMode) must not lose them.
 */
export async function readBellDue(data: Pick<PageData, 'db' | 'loadDue'>, userId: string, today: string): Promise<DueAnswer> {
  await migrateDueMarks(data.db, userId);
  const answer = await data.loadDue({ today, limit: DUE_SHOWN, user: dueUser(userId) });
  if (answer.marks) announceDue(answer.marks);
  return answer;
}
