import { useCallback, useState } from 'react';

/** Where the desk sidebar remembers being collapsed, across reloads. */
export const SIDEBAR_COLLAPSED_KEY = 'ranch.sidebarCollapsed';

function read(): boolean {
  try {
    return localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function useSidebarCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(read);
  const toggle = useCallback(() => {
    setCollapsed((was) => {
      try {
        localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(!was));
      } catch {
        // Private mode: the choice lasts until reload.
      }
      return !was;
    });
  }, []);
  return [collapsed, toggle];
}
