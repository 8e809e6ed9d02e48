import { useSyncExternalStore } from 'react';

/** [G4] layout breakpoint: below Tailwind's `md` (768 px) the app is laid out for phones. */
export const DESK_QUERY = '(min-width: 768px)';

/** Whether `query` matches now; follows changes. Without matchMedia (jsdom) it is `fallback`. */
export function useMediaQuery(query: string, fallback = true): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback),
    () => fallback,
  );
}

/** Desks get tables and a fixed sidebar; phones get cards and a drawer. */
export function useIsDesk(): boolean {
  return useMediaQuery(DESK_QUERY);
}
