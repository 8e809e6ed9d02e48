import { Workbox } from 'workbox-window';

/**
 * Registers the service worker (web/src/sw.ts, built to /sw.js) in production builds.
 * A new version waits until the app asks it to take over (SKIP_WAITING); the update
 * prompt that does so comes later, so until then a new version starts on the next launch.
 */
export function registerServiceWorker(): Workbox | null {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return null;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.register().catch((error: unknown) => console.error('Service worker registration failed', error));
  return workbox;
}
