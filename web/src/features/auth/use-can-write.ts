import { useSyncStatus } from '../../data/context.tsx';
import { useCurrentUser } from './AuthProvider.tsx';

/**
 * Whether this session may change ranch data: not a Viewer, and the server has not said
 * the connection is read-only (it drops a Viewer's updates). Screens hide write actions
 * when false.
 */
export function useCanWrite(): boolean {
  const { readOnly } = useSyncStatus();
  const user = useCurrentUser();
  return !readOnly && user.role !== 'Viewer';
}
