import { useEffect, useRef } from 'react';
import { useToast } from '../../ui/Toast.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';

/** [R4]: how long the Access Denied toast shows before the visitor is sent to /. */
export const ACCESS_DENIED_REDIRECT_MS = 1000;

/**
 * [R4]: anyone but an Admin gets 'Access Denied' and goes to / after 1 second.
 * Returns whether the page may be shown.
 */
export function useAdminOnly(goHome: () => void): boolean {
  const auth = useAuth();
  const toast = useToast();
  const loading = auth.status === 'loading';
  const allowed = auth.status === 'signed-in' && auth.user.role === 'Admin';
  // The route passes a fresh function each render; only the decision should re-run this.
  const goHomeRef = useRef(goHome);
  goHomeRef.current = goHome;

  useEffect(() => {
    if (loading || allowed) return;
    toast({ title: 'Access Denied', description: "You don't have permission to access this page.", variant: 'destructive' });
    const timer = setTimeout(() => goHomeRef.current(), ACCESS_DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [loading, allowed, toast]);

  return allowed;
}
