import { useSyncField } from '../../data/context.tsx';
import { useCurrentUser } from './AuthProvider.tsx';

/**
 * Whether this session may change ranch data: not a Viewer, and the server has not said the
 * connection is read-only (it drops a Viewer's updates). Screens hide write actions when
 * false. It does not wait for the stored document to load: new records are written at once
 * and other writes wait for the load themselves (data/ranch-writes.ts WRITES_BEFORE_LOAD),
 * so the buttons are there from the first rows on ([O2], docs/web.md "Writable sooner").
 */
export function useCanWrite(): boolean {
  const readOnly = useSyncField('readOnly');
  const user = useCurrentUser();
  return !readOnly && user.role !== 'Viewer';
}
