/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope;

// The app shell (HTML, JS, CSS, icons, manifest) as listed by vite-plugin-pwa at build time.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every navigation opens the app shell, so a deep link such as /horses works offline;
// the router picks the screen. /api/* navigations (sign-in, sign-out) must reach the server.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api(\/|$)/] }));

// No route handles other /api/* requests, so they always go to the network and are
// never cached: the data lives in the Y.Doc, not in HTTP caches.

// A new version waits until the page asks it to take over (the update prompt). A page that
// found itself uncontrolled once this worker was active asks to be claimed (see below).
self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  else if (type === 'CLAIM') event.waitUntil(self.clients.claim());
});

// Take control of open pages as soon as this version is active: on a first visit the page
// that installed the worker is otherwise uncontrolled until its next navigation, and would
// not open with no signal if the signal went before that. (An update activates only after
// SKIP_WAITING, i.e. when the page asked for it, so claiming then is wanted too.) A page
// whose navigation began while the worker was installing may not exist yet when this runs,
// so it misses this claim; such a page sends CLAIM.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
