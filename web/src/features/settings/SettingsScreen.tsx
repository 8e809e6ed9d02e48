import { useCurrentUser } from '../auth/AuthProvider.tsx';
import { AppearanceCard } from './AppearanceCard.tsx';
import { DataManagementCard } from './DataManagementCard.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';
import { PrivacyCard } from './PrivacyCard.tsx';
import { useUserSettings } from './use-user-settings.ts';

/** [V2] Settings: local preferences of this browser ([V1] userSettings). */
export function SettingsScreen() {
  const user = useCurrentUser();
  const { settings, update, saveAll } = useUserSettings();
  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-3xl font-bold max-md:sr-only">Settings</h1>
        <p className="text-base-content/70 max-md:hidden">Manage your preferences on this device</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <NotificationsCard settings={settings} update={update} />
        <AppearanceCard settings={settings} update={update} />
        <PrivacyCard role={user.role} />
        <DataManagementCard onSaveAll={saveAll} />
      </div>
    </section>
  );
}
