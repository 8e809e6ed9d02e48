import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen.ts';
import { AuthProvider } from './features/auth/AuthProvider.tsx';
import { DataProvider } from './data/context.tsx';
import { afterFirstRowsShown } from './data/doc-load-gate.ts';
import type { PageData } from './data/page-data.ts';
import type { RanchData } from './data/ranch-data.ts';
import { openWorkerData } from './data/worker-client.ts';
import { workerFailedBefore } from './data/worker-fallback.ts';
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
    /** For debugging and end-to-end tests only: the live document and its connection. */
    __ranch?: {
      /** The document, when it lives in this thread (null with the data worker). */
      doc: RanchData['doc'] | null;
      readonly provider: { readonly synced: boolean; disconnect(): unknown } | null;
      data: PageData;
      /** Where the document lives: this thread, or which kind of data host (connect-data-host.ts). */
      host: HostKind | 'page';
    };
  }
}

// Theme and density from Settings, before the first paint.
applyAppearance(readSettings());

// The first screen reads Dexie; the document (seconds of main thread to apply at ranch
// scale) loads once a list screen reports its rows painted (useFirstRowsShown in
// data/doc-load-gate.ts), or after 1.5 s on screens without a list.
const docLoadAfter = afterFirstRowsShown(1500);
if (dataWorkerWanted()) render(startDataWorker());
else startInThread().then(render, (error: unknown) => console.error('The data layer could not load', error));

/**
 * The document lives in a worker shared by the device's tabs, off the main thread (docs/web.md
 * "The data layer in a worker"), unless this browser has no workers or the worker failed to
 * start earlier in this tab's session (worker-fallback.ts).
 */
function dataWorkerWanted(): boolean {
  return typeof Worker !== 'undefined' && !workerFailedBefore();
}

function startDataWorker(): PageData {
  // The host starts once the first screen has shown what it reads from the device (a list's
  // first rows, the Dashboard at once, other screens after 1.5 s): a worker starting beside
  // a cold start's first read would hold that read back. On a
  // device with nobody on record, the sign-in page does not load the worker's script: the
  // host starts when someone signs in (connect-data-host.ts, docs/web.md "Start-up").
  const host = connectDataHost({ start: readCachedUser() !== null ? docLoadAfter : 'when-needed' });
  const workerData = openWorkerData(host.client, { docLoadAfter, onNewHost: host.onNewHost });
  window.__ranch = { doc: null, provider: workerData.provider, data: workerData, host: host.kind };
  return workerData;
}

/**
 * The document in this thread: the rare case (no workers, a worker that failed),
 * so its code (Yjs, y-indexeddb, y-websocket, the projection, the repositories) is a chunk
 * of its own, loaded here before the first render, and not part of every start's entry
 * (docs/web.md "A small entry").
 */
async function startInThread(): Promise<PageData> {
  const { openRanchData } = await import('./data/ranch-data.ts');
  const local = openRanchData({ docLoadAfter });
  window.__ranch = {
    doc: local.doc,
    get provider() {
      return local.sync?.provider ?? null;
    },
    data: local,
    host: 'page',
  };
  return local;
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
