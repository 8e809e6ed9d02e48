import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen.ts';
import { AuthProvider } from './features/auth/AuthProvider.tsx';
import { DataProvider } from './data/context.tsx';
import { afterFirstRowsShown } from './data/doc-load-gate.ts';
import type { PageData } from './data/page-data.ts';
import { openRanchData, type RanchData } from './data/ranch-data.ts';
import { createRpcClient } from './data/rpc/client.ts';
import type { Endpoint } from './data/rpc/wire.ts';
import { openWorkerData } from './data/worker-client.ts';
import { registerServiceWorker } from './lib/register-sw.ts';
import { ToastProvider } from './ui/Toast.tsx';
import { UpdatePrompt } from './ui/UpdatePrompt.tsx';
import { applyAppearance, readSettings } from './features/settings/user-settings.ts';
import './styles.css';

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
    };
  }
}

// Theme and density from Settings, before the first paint.
applyAppearance(readSettings());

// The first screen reads Dexie; the document (seconds of main thread to apply at ranch
// scale) loads once a list screen reports its rows painted (useFirstRowsShown in
// data/doc-load-gate.ts), or after 1.5 s on screens without a list.
const docLoadAfter = afterFirstRowsShown(1500);
const data: PageData = dataWorkerWanted() ? startDataWorker() : startInThread();

/**
 * Issue 12 (docs/web.md "The data layer in a worker"): with localStorage['ranch.dataWorker']
 * = '1' the document lives in a worker, off the main thread. Not yet the default: in the
 * browser tests a worker's sync socket escaped Chromium's emulated offline state once (a
 * sale recorded "offline" reached the server), so the offline tests cannot yet vouch for it.
 */
function dataWorkerWanted(): boolean {
  try {
    return localStorage.getItem('ranch.dataWorker') === '1' && typeof Worker !== 'undefined';
  } catch {
    return false;
  }
}

function startDataWorker(): PageData {
  const worker = new Worker(new URL('./data/host/worker.ts', import.meta.url), { type: 'module', name: 'ranch-data' });
  const workerData = openWorkerData(createRpcClient(worker as unknown as Endpoint), { docLoadAfter });
  window.__ranch = { doc: null, provider: workerData.provider, data: workerData };
  return workerData;
}

function startInThread(): PageData {
  const local = openRanchData({ docLoadAfter });
  window.__ranch = {
    doc: local.doc,
    get provider() {
      return local.sync?.provider ?? null;
    },
    data: local,
  };
  return local;
}

registerServiceWorker();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
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
);
