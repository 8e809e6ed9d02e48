import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useRanchData } from '../../data/context.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { nothingUnsent, signOutAndClear } from './sign-out.ts';
import { SignOutDialog } from './SignOutDialog.tsx';

export type SignOutOptions = { everywhere?: boolean };

/**
 * "Sign out" and "Sign out everywhere" ([A11]): with everything on the server, signs out and
 * clears the device at once; else asks first (SignOutDialog). `dialog` must be rendered.
 */
export function useSignOut(ways: { fetchFn?: typeof fetch; navigate?: (path: string) => void } = {}): {
  signOut: (options?: SignOutOptions) => void;
  dialog: ReactNode;
} {
  const { fetchFn, navigate } = ways;
  const data = useRanchData();
  const toast = useToast();
  const [asking, setAsking] = useState<{ everywhere: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);

  const finish = useCallback(
    async (everywhere: boolean) => {
      setBusy(true);
      const result = await signOutAndClear(data, { everywhere, fetchFn, navigate }).catch((error: unknown) => {
        console.error(error);
        return 'failed' as const;
      });
      if (result === 'done') return;
      running.current = false;
      setBusy(false);
      setAsking(null);
      toast({
        title: 'Sign out failed',
        description:
          result === 'unreachable'
            ? 'The server could not be reached, so you are still signed in. Try again once you are online.'
            : 'This device could not be cleared. Please try again.',
        variant: 'destructive',
      });
    },
    [data, toast, fetchFn, navigate],
  );

  const signOut = useCallback(
    ({ everywhere = false }: SignOutOptions = {}) => {
      if (running.current) return;
      running.current = true;
      void (async () => {
        // Counted once the stored document has loaded: before that, nothing looks unsent.
        const unsent = await data.countUnsent().catch(() => ({ records: 1, photos: 0 }));
        if (nothingUnsent(unsent)) return finish(everywhere);
        setAsking({ everywhere });
      })();
    },
    [data, finish],
  );

  const dialog = (
    <SignOutDialog
      open={asking !== null}
      everywhere={asking?.everywhere ?? false}
      busy={busy}
      onStay={() => {
        running.current = false;
        setAsking(null);
      }}
      onSignOut={() => void finish(asking?.everywhere ?? false)}
    />
  );
  return { signOut, dialog };
}
