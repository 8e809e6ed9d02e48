// The page's entry: the start in steps instead of one task. Evaluating every module the app
// imports statically (React, the router, the app's shell and Dexie) is one long main-thread
// task on a phone. Each
// dynamic import here is fetched (from the precache) and evaluated in a task of its own, so
// the browser can take input and paint between them (docs/web.md "A small entry"). Each
// step's modules are the next one's imports, evaluated once.
// The stylesheet stays the entry's, so the page links it in its <head>.
import './styles.css';
import { registerServiceWorker } from './lib/register-sw.ts';

// Before the steps: a phone that loses its signal seconds after its first visit reopens
// only if the service worker has precached the app, so its install starts as soon as it
// can (workbox-window registers once the page has loaded).
registerServiceWorker();

await import('./data/db.ts');
await import('react-dom/client');
await import('./main.tsx');
