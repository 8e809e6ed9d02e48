import { useSyncExternalStore } from 'react';

/** [G4] layout breakpoint: below Tailwind's `md` (768 px) the app is laid out for phones. */
export const DESK_QUERY = '(min-width: 768px)';

type Watched = { subscribe: (onChange: () => void) => () => void; matches: () => boolean };

/**
 * One MediaQueryList per query, kept: `window.matchMedia` parses the query and makes a new
 * list on each call, and a hook that called it in every render (and subscribed again on every
 * commit, its subscribe function being new) is a visible part of a phone's start. Keyed by the `matchMedia` in use, so a test that swaps it gets new lists.
 */
const watched = new WeakMap<Window['matchMedia'], Map<string, Watched>>();

const without = (fallback: boolean): Watched => ({ subscribe: () => () => {}, matches: () => fallback });
const WITHOUT = { true: without(true), false: without(false) };

function watch(query: string, fallback: boolean): Watched {
  const matchMedia = typeof window.matchMedia === 'function' ? window.matchMedia : undefined;
  if (!matchMedia) return WITHOUT[`${fallback}`];
  let byQuery = watched.get(matchMedia);
  if (!byQuery) {
    byQuery = new Map();
    watched.set(matchMedia, byQuery);
  }
  let entry = byQuery.get(query);
  if (!entry) {
    const list = matchMedia.call(window, query);
    entry = {
      subscribe: (onChange) => {
        list.addEventListener('change', onChange);
        return () => list.removeEventListener('change', onChange);
      },
      matches: () => list.matches,
    };
    byQuery.set(query, entry);
  }
  return entry;
}

/** Whether `query` matches now; follows changes. Without matchMedia (jsdom) it is `fallback`. */
export function useMediaQuery(query: string, fallback = true): boolean {
  const { subscribe, matches } = watch(query, fallback);
  return useSyncExternalStore(subscribe, matches, () => fallback);
}

/** Desks get tables and a fixed sidebar; phones get cards and a drawer. */
export function useIsDesk(): boolean {
  return useMediaQuery(DESK_QUERY);
}
