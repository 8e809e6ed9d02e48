import { useCallback, useState } from 'react';
import { applyAppearance, readSettings, writeSettings, type UserSettings } from './user-settings.ts';

/** The settings, saved and applied the moment a switch changes. */
export function useUserSettings() {
  const [settings, setSettings] = useState<UserSettings>(() => readSettings());

  const update = useCallback((patch: Partial<UserSettings>) => {
    setSettings((current) => {
      const next = { ...current, ...patch };
      writeSettings(next);
      applyAppearance(next);
      return next;
    });
  }, []);

  const saveAll = useCallback(() => writeSettings(settings), [settings]);

  return { settings, update, saveAll };
}
