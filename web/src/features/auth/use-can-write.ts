import { useSyncField } from '../../data/context.tsx';
import { useCurrentUser } from './AuthProvider.tsx';

/**
 * Whether this session may change ranch data: not a Viewer, and the server has not said the
 * connection is read-only (it drops a Viewer's updates). Screens hide write actions when
 * false. It does not wait for the stored document to load: every write goes to the device's
 * outbox, and the data host applies it once its document has loaded (docs/architecture.md
 * "One horse edit"), so the buttons are there from the first rows on ([O2]).
 */
export function useCanWrite(): boolean {
  const readOnly = useSyncField('readOnly');
  const user = useCurrentUser();
  return !readOnly && user.role !== 'Viewer';
}
