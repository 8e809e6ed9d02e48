import { notificationPermission } from '../settings/notification-permission.ts';
import { readSettings } from '../settings/user-settings.ts';
import { hashOf, readKeys, writeHashes } from './due-seen.ts';
import type { DueRow } from './use-due.ts';

const storageKey = (userId: string) => `ranch.dueNotified.${userId}`;

/** More new items than this at once make one notification that counts them. */
const ONE_BY_ONE = 3;

function show(title: string, body: string, tag: string): void {
  try {
    new Notification(title, { body, tag });
  } catch {
    // Android's Chrome allows notifications only through the service worker.
    void navigator.serviceWorker?.ready.then((registration) => registration.showNotification(title, { body, tag })).catch(() => {});
  }
}

/**
 * [K7] A browser notification for each item newly due, once per item on this device, only
 * where the person allowed notifications and turned Browser Notifications on in Settings
 * ([V3]); care items also need Maintenance Alerts on. Returns the rows notified.
 */
export function notifyDue(rows: DueRow[], userId: string): DueRow[] {
  const notified = readKeys(storageKey(userId));
  const settings = readSettings();
  const allowed = settings.browserNotifications && notificationPermission() === 'granted';
  const fresh = rows.filter((row) => !notified.has(hashOf(row)) && (row.type === 'sale' || settings.maintenanceAlerts));
  if (allowed && fresh.length > ONE_BY_ONE) {
    show('Ranch: things are due', `${fresh.length} things need doing, the first: ${fresh[0]!.title}`, 'ranch-due');
  } else if (allowed) {
    for (const row of fresh) show(row.title, row.detail, row.key);
  }
  // Only what is still due is remembered; what was not allowed is not announced later in a burst.
  writeHashes(storageKey(userId), rows.map(hashOf));
  return allowed ? fresh : [];
}
