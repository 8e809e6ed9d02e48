import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen.ts';
import { AuthProvider } from './features/auth/AuthProvider.tsx';
import { DataProvider } from './data/context.tsx';
import { afterFirstRowsShown } from './data/doc-load-gate.ts';
import type { PageData } from './data/page-data.ts';
import { openWorkerData } from './data/worker-client.ts';
import { connectDataHost, type HostKind } from './data/connect-data-host.ts';
import { reloadWhenClearedElsewhere } from './features/settings/clear-local-data.ts';
import { readCachedUser } from './features/auth/user-cache.ts';
import { ToastProvider } from './ui/Toast.tsx';
import { UpdatePrompt } from './ui/UpdatePrompt.tsx';
import { applyAppearance, readSettings } from './features/settings/user-settings.ts';
import { warmIcu } from './lib/warm-icu.ts';

const router = createRouter({ routeTree, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

declare global {
  interface Window {
    /** For debugging and end-to-end tests only: the data layer and its host's connection. */
    __ranch?: {
      readonly provider: { readonly synced: boolean; disconnect(): unknown };
      data: PageData;
      /** Which kind of data host serves this tab (connect-data-host.ts). */
      host: HostKind;
    };
  }
}

// Theme and density from Settings, before the first paint.
applyAppearance(readSettings());

// The first screen reads Dexie; the document (seconds of main thread to apply at ranch
// scale) loads once a list screen reports its rows painted (useFirstRowsShown in
// data/doc-load-gate.ts), or after 1.5 s on screens without a list.
const docLoadAfter = afterFirstRowsShown(1500);
render(startDataHost());

/**
 * The document lives in the device's data host, a worker shared by its tabs, off the main
 * thread (docs/web.md "The data layer in a worker").
 */
function startDataHost(): PageData {
  // The host starts once the first screen has shown what it reads from the device (a list's
  // first rows, the Dashboard at once, other screens after 1.5 s): a worker starting beside
  // a cold start's first read would hold that read back. On a
  // device with nobody on record, the sign-in page does not load the worker's script: the
  // host starts when someone signs in (connect-data-host.ts, docs/web.md "Start-up").
  const host = connectDataHost({ start: readCachedUser() !== null ? docLoadAfter : 'when-needed' });
  const workerData = openWorkerData(host.client, { docLoadAfter, onNewHost: host.onNewHost });
  window.__ranch = { provider: workerData.provider, data: workerData, host: host.kind };
  return workerData;
}

reloadWhenClearedElsewhere();

// The locale's data, loaded off the main thread while the first screen shows: the first
// date or number shown, and the forms' warm-up (lib/warm-forms.ts), then find it loaded.
void warmIcu();

function render(data: PageData): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  const app = createRoot(root);
  // The first render in a transition: React renders it in slices of ~5 ms, giving the thread
  // back between them, where a plain render (the default lane) is one task: on a phone the
  // page's whole first mount in one long task of the start (docs/web.md "A small entry").
  startTransition(() =>
    app.render(
      <StrictMode>
        <ToastProvider>
          <DataProvider data={data}>
            <AuthProvider>
              <RouterProvider router={router} />
            </AuthProvider>
          </DataProvider>
          <UpdatePrompt />
        </ToastProvider>
      </StrictMode>,
    ),
  );
}
