/**
 * [V1] local user settings, kept in localStorage under `userSettings`. Unknown or
 * malformed stored values fall back to the defaults field by field.
 */
export const SETTINGS_KEY = 'userSettings';

export type UserSettings = {
  emailNotifications: boolean;
  browserNotifications: boolean;
  weeklyReports: boolean;
  maintenanceAlerts: boolean;
  darkMode: boolean;
  compactView: boolean;
};

export const DEFAULT_SETTINGS: UserSettings = {
  emailNotifications: true,
  browserNotifications: false,
  weeklyReports: true,
  maintenanceAlerts: true,
  darkMode: false,
  compactView: false,
};

export function readSettings(storage: Storage = localStorage): UserSettings {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(SETTINGS_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return { ...DEFAULT_SETTINGS };
    const stored = parsed as Record<string, unknown>;
    const settings = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof UserSettings)[]) {
      if (typeof stored[key] === 'boolean') settings[key] = stored[key];
    }
    return settings;
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function writeSettings(settings: UserSettings, storage: Storage = localStorage): void {
  try {
    storage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Storage full or disabled: the settings still apply until the page is closed.
  }
}

/** The ranch's two daisyUI themes (styles.css, docs/design.md). */
export const LIGHT_THEME = 'ranch';
export const DARK_THEME = 'ranch-dark';

/** The daisyUI theme (`data-theme` on <html>) and the compact density class. */
export function applyAppearance(
  settings: Pick<UserSettings, 'darkMode' | 'compactView'>,
  root: HTMLElement = document.documentElement,
): void {
  // Always explicit, so a phone in system dark mode still shows light unless asked.
  root.setAttribute('data-theme', settings.darkMode ? DARK_THEME : LIGHT_THEME);
  root.classList.toggle('compact', settings.compactView);
}
