import { useSyncExternalStore } from 'react';
import { acceptUpdate, appUpdate } from '../lib/register-sw.ts';

/**
 * The new-version banner. It stays until the user chooses (no timeout, unlike a toast):
 * Reload switches to the new version; Later keeps working on this one until the next start.
 */
export function UpdatePrompt() {
  const { state } = useSyncExternalStore(appUpdate.subscribe, appUpdate.get);
  if (state === 'none') return null;
  const text = state === 'waiting' ? 'A new version is available' : 'A new version was started in another tab';
  return (
    <section className="fixed inset-x-0 bottom-0 z-[900] flex justify-center p-3 print:hidden" aria-label="App update">
      <div role="status" className="alert max-w-lg shadow-lg">
        <span>{text}</span>
        <div className="flex gap-2">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => appUpdate.set({ state: 'none' })}>
            Later
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => (state === 'waiting' ? acceptUpdate() : window.location.reload())}
          >
            Reload
          </button>
        </div>
      </div>
    </section>
  );
}
