import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen.ts';
import { AuthProvider } from './features/auth/AuthProvider.tsx';
import { DataProvider } from './data/context.tsx';
import { afterFirstRowsShown } from './data/doc-load-gate.ts';
import { openRanchData, type RanchData } from './data/ranch-data.ts';
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
    __ranch?: { doc: RanchData['doc']; readonly provider: NonNullable<RanchData['sync']>['provider'] | null; data: RanchData };
  }
}

// Theme and density from Settings, before the first paint.
applyAppearance(readSettings());

// The first screen reads Dexie; the document (seconds of main thread to apply at ranch
// scale) loads once a list screen reports its rows painted (useFirstRowsShown in
// data/doc-load-gate.ts), or after 1.5 s on screens without a list.
const data = openRanchData({ docLoadAfter: afterFirstRowsShown(1500) });
window.__ranch = {
  doc: data.doc,
  get provider() {
    return data.sync?.provider ?? null;
  },
  data,
};

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
