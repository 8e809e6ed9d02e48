import { useState } from 'react';
import { useToast } from '../../ui/Toast.tsx';
import { SettingSwitch } from './SettingSwitch.tsx';
import { notificationPermission, requestNotificationPermission, type PermissionState } from './notification-permission.ts';
import type { UserSettings } from './user-settings.ts';

type Props = { settings: UserSettings; update: (patch: Partial<UserSettings>) => void };

/**
 * [V2] [V3] [K7] Only switches that do something: browser notifications of what falls due,
 * care among them with Maintenance Alerts. Ranch sends no e-mail and no reports, so
 * 'Email Notifications' and 'Weekly Reports' are not shown (their stored values stay, [V1]).
 */
export function NotificationsCard({ settings, update }: Props) {
  const toast = useToast();
  const [permission, setPermission] = useState<PermissionState>(notificationPermission);

  // [V3]: turning it on asks the browser; only a grant turns it on.
  const toggleBrowser = async (on: boolean) => {
    if (!on) return update({ browserNotifications: false });
    const answer = await requestNotificationPermission();
    setPermission(answer);
    if (answer === 'unsupported') {
      toast({ title: 'Not Supported', description: "Your browser doesn't support notifications.", variant: 'destructive' });
    } else if (answer === 'granted') {
      update({ browserNotifications: true });
      toast({ title: 'Notifications Enabled', description: 'You will receive browser notifications.', variant: 'success' });
    } else {
      update({ browserNotifications: false });
      toast({ title: 'Permission Denied', description: 'Please enable notifications in your browser settings.', variant: 'destructive' });
    }
  };

  const badge =
    permission === 'unsupported' ? (
      <span className="badge badge-sm badge-ghost">Not Supported</span>
    ) : permission === 'denied' ? (
      <span className="badge badge-sm badge-error">Blocked</span>
    ) : null;

  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="settings-notifications">
      <div className="card-body">
        <h2 id="settings-notifications" className="card-title">
          Notifications
        </h2>
        <SettingSwitch
          label="Browser Notifications"
          description="Tell this device when an installment falls past due"
          checked={settings.browserNotifications && permission === 'granted'}
          badge={badge}
          onChange={(on) => void toggleBrowser(on)}
        />
        <SettingSwitch
          label="Maintenance Alerts"
          description="With Browser Notifications, also when care falls due (vaccinations, farrier, …)"
          checked={settings.maintenanceAlerts}
          onChange={(on) => update({ maintenanceAlerts: on })}
        />
      </div>
    </section>
  );
}
