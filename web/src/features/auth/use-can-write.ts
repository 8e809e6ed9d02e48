import { useSyncExternalStore } from 'react';
import { useRanchData, useSyncStatus } from '../../data/context.tsx';
import { useCurrentUser } from './AuthProvider.tsx';

/**
 * Whether this session may change ranch data: not a Viewer, the server has not said the
 * connection is read-only (it drops a Viewer's updates), and the document stored on this
 * device has loaded (it loads after the first rows are shown, see ydoc.ts; a write before
 * that would not see the values it changes). Screens hide write actions when false.
 */
export function useCanWrite(): boolean {
  const { readOnly } = useSyncStatus();
  const user = useCurrentUser();
  const loaded = useDocLoaded();
  return loaded && !readOnly && user.role !== 'Viewer';
}

function useDocLoaded(): boolean {
  const data = useRanchData();
  return useSyncExternalStore(
    (onChange) => {
      let live = true;
      void data.loaded.then(() => live && onChange());
      return () => {
        live = false;
      };
    },
    () => data.docLoaded,
  );
}
