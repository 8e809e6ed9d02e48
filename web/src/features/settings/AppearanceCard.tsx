import { SettingSwitch } from './SettingSwitch.tsx';
import type { UserSettings } from './user-settings.ts';

type Props = { settings: UserSettings; update: (patch: Partial<UserSettings>) => void };

export function AppearanceCard({ settings, update }: Props) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="settings-appearance">
      <div className="card-body">
        <h2 id="settings-appearance" className="card-title">
          Appearance
        </h2>
        <SettingSwitch
          label="Dark Mode"
          description="Use the dark theme"
          checked={settings.darkMode}
          onChange={(on) => update({ darkMode: on })}
        />
        <SettingSwitch
          label="Compact View"
          description="Smaller text and tighter spacing to fit more on screen"
          checked={settings.compactView}
          onChange={(on) => update({ compactView: on })}
        />
        {/* Beyond the seed: its "future update" note is replaced, since both switches work. */}
        <p className="text-sm text-base-content/70">Theme and density apply at once and are remembered on this device.</p>
      </div>
    </section>
  );
}
