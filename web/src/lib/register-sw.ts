import { Workbox } from 'workbox-window';
import { createStore, type Store } from '../data/store.ts';

/**
 * `waiting`: a new version is installed and waits for the user (this tab may take it).
 * `activated`: another tab took the new version; this page still runs the old code.
 */
export type AppUpdate = { state: 'none' | 'waiting' | 'activated' };

export const appUpdate: Store<AppUpdate> = createStore<AppUpdate>({ state: 'none' });

/** Looks for a new version when the app is shown again, and at most this often while open. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

let accept: () => void = () => {};

/** The user said Reload: the waiting version takes over, then this page reloads. */
export function acceptUpdate(): void {
  accept();
}

/**
 * Registers the service worker (web/src/sw.ts, built to /sw.js) in production builds. A
 * new version installs in the background and waits; the update prompt (ui/UpdatePrompt)
 * asks, and only when the user accepts is it told to take over (SKIP_WAITING), after which
 * the page reloads. Unsent data is in IndexedDB, which neither the worker nor an update
 * touches, so a reload loses nothing but what is typed into an open form.
 */
export function registerServiceWorker(): Workbox | null {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return null;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  // A page that had no worker at start is taken over by the first install (sw.ts claims);
  // that is no update.
  const hadController = navigator.serviceWorker.controller !== null;
  let accepted = false;

  workbox.addEventListener('waiting', () => appUpdate.set({ state: 'waiting' }));
  accept = () => {
    accepted = true;
    workbox.messageSkipWaiting();
  };
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (accepted) window.location.reload();
    // Another tab accepted: say so rather than reload under someone typing.
    else if (hadController) appUpdate.set({ state: 'activated' });
  });

  const check = () => {
    workbox.update().catch(() => {});
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  setInterval(check, UPDATE_CHECK_MS);

  workbox.register().catch((error: unknown) => console.error('Service worker registration failed', error));
  // The first worker's claim reaches only pages already running when it activates; a page
  // whose navigation began while it was installing is left out and would not reopen with
  // no signal. Such a page asks to be claimed once a worker is active.
  void navigator.serviceWorker.ready.then((registration) => {
    if (navigator.serviceWorker.controller === null) registration.active?.postMessage({ type: 'CLAIM' });
  });
  return workbox;
}
